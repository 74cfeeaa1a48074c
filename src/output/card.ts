import type { ChalkInstance } from "chalk";
import { textWidth, truncate } from "./width.js";

/**
 * A card: one record in sections, a human label and a value per line. The one
 * renderer of `vehicle get` / `extra get` (stdout) and of the wizard's review
 * screen (stderr): the same sections, the same labels.
 *
 *   Vehicle
 *     Model                Toyota Corolla (1.8 Hybrid Comfort)
 *     Year                 2023
 *
 * A long value goes on over lines under itself to fit the width (unless
 * `wide`); `note` (the review's wire name and value) follows the value,
 * dimmed, a problem in red; either moves to its own line when it does not fit.
 */

export interface CardRow {
  label: string;
  value: string;
  /** Said after the value, dimmed (the wire field and its raw value on the review). */
  note?: string;
  /** A problem with this value, in red after it. */
  problem?: string;
}

export interface CardSection {
  title: string;
  rows: CardRow[];
}

export interface CardOptions {
  color: ChalkInstance;
  /** The width to fit; undefined: no cutting. */
  width?: number;
  wide?: boolean;
}

const INDENT = "  ";
const GAP = "  ";
/** A label longer than this does not push every value right: its value follows after the gap. */
const MAX_LABEL = 28;

const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();

/** Words onto lines of at most `width` columns (a word longer than a line is cut with …). */
function wrap(text: string, width: number): string[] {
  if (!Number.isFinite(width) || textWidth(text) <= width) return [text];
  const lines: string[] = [];
  let cur = "";
  for (const word of text.split(" ")) {
    const w = textWidth(word) > width ? truncate(word, width) : word;
    if (cur && textWidth(cur) + 1 + textWidth(w) > width) {
      lines.push(cur);
      cur = w;
    } else cur = cur ? `${cur} ${w}` : w;
  }
  if (cur) lines.push(cur);
  return lines;
}

export function renderCard(sections: CardSection[], opts: CardOptions): string {
  const { color } = opts;
  const shown = sections.filter((s) => s.rows.length);
  const labelW = Math.min(MAX_LABEL, Math.max(0, ...shown.flatMap((s) => s.rows.map((r) => textWidth(r.label)))));
  const limit = opts.wide || opts.width === undefined ? Number.POSITIVE_INFINITY : opts.width;
  let out = "";
  shown.forEach((s, i) => {
    if (i > 0) out += "\n";
    out += `${color.bold(truncate(s.title, limit))}\n`;
    for (const r of s.rows) {
      const label = textWidth(r.label) > labelW ? r.label : r.label + " ".repeat(labelW - textWidth(r.label));
      const pad = " ".repeat(INDENT.length + labelW + GAP.length);
      const room = limit - pad.length;
      // A card is read, not scanned: a long value (a description) goes on over lines under itself.
      const lines = wrap(oneLine(r.value), Math.max(room, 12));
      const extras = [
        r.note ? color.dim(oneLine(r.note)) : "",
        r.problem ? color.red(`✗ ${oneLine(r.problem)}`) : "",
      ].filter(Boolean);
      const last = lines.length - 1;
      lines.forEach((l, n) => {
        let line = n === 0 ? `${INDENT}${color.bold(label)}${GAP}${l}` : `${pad}${l}`;
        if (n === last) {
          for (const e of extras) {
            const fits = textWidth(line) + GAP.length + textWidth(e) <= limit;
            if (fits || !Number.isFinite(limit)) line += `${l || textWidth(line) > pad.length ? GAP : ""}${e}`;
            else {
              out += `${line.replace(/[ \t]+$/, "")}\n`;
              line = `${pad}${truncate(e, Math.max(room, 12))}`;
            }
          }
        }
        out += `${line.replace(/[ \t]+$/, "")}\n`;
      });
    }
  });
  return out;
}
