import type { ChalkInstance } from "chalk";
import { textWidth, truncate } from "./width.js";

/**
 * The availability board of `vehicle calendar --board`: vehicles as rows,
 * days as columns, fitted to the terminal's width.
 *
 *                     Dec 2026                Jan 2027
 *                      24 25 26 27 28 29 30 31  1  2
 *                      Th Fr Sa Su Mo Tu We Th Fr Sa
 *   1   B-SC 1001       .  X  X  .  .  .  .  .  .  .
 *
 * A blocked day is `X` (red on a colour terminal), a free one `.`; today's
 * column is marked `*` in the day row (bold with colour). Only ASCII marks:
 * ambiguous-width glyphs (■, ·) take two columns on CJK terminals.
 */

export interface BoardRow {
  label: string;
  /** Blocked days, ISO. */
  blocked: ReadonlySet<string>;
}

export interface BoardOptions {
  /** The days shown, ISO, consecutive. */
  days: readonly string[];
  today: string;
  color: ChalkInstance;
}

const CELL = 3;
const MAX_LABEL = 24;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const WEEKDAYS = ["Su", "Mo", "Tu", "We", "Th", "Fr", "Sa"];

/** The label column's width for these rows (capped so days keep the room). */
export function boardLabelWidth(rows: readonly BoardRow[]): number {
  return Math.min(MAX_LABEL, Math.max(7, ...rows.map((r) => textWidth(r.label))));
}

/** How many day columns fit `width` beside labels of `labelWidth`. */
export function daysThatFit(width: number, labelWidth: number): number {
  return Math.max(1, Math.floor((width - labelWidth - 1) / CELL));
}

export function renderBoard(rows: readonly BoardRow[], opts: BoardOptions): string {
  const { color: c, days, today } = opts;
  const labelW = boardLabelWidth(rows);
  const pad = " ".repeat(labelW + 1);
  // month names above the first day of each month shown (and the first column)
  let months = "";
  days.forEach((iso, i) => {
    const [y, m, d] = iso.split("-").map(Number) as [number, number, number];
    if (i === 0 || d === 1) {
      const name = `${MONTHS[m - 1]} ${y}`;
      const at = i * CELL + 1;
      if (months.length > at) return; // no room: the previous month's name runs here
      months += " ".repeat(at - months.length) + name;
    }
  });
  const dayCells = days.map((iso) => {
    const d = String(Number(iso.slice(8, 10))).padStart(2, " ");
    if (iso !== today) return ` ${d}`;
    return c.level > 0 ? ` ${c.bold.inverse(d)}` : `*${d}`.padStart(CELL, " ");
  });
  const weekCells = days.map((iso) => ` ${WEEKDAYS[new Date(`${iso}T00:00:00Z`).getUTCDay()]}`);
  let out = `${pad}${months}`.trimEnd() + "\n";
  out += `${pad}${dayCells.join("")}\n`;
  out += `${c.dim(`${pad}${weekCells.join("")}`)}\n`;
  for (const r of rows) {
    const label = truncate(r.label, labelW);
    const cells = days.map((iso) => (r.blocked.has(iso) ? `  ${c.level > 0 ? c.red.inverse("X") : "X"}` : "  ."));
    out += `${label}${" ".repeat(labelW - textWidth(label) + 1)}${cells.join("")}\n`;
  }
  return out;
}
