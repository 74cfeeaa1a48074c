import Table from "cli-table3";
import type { Json, JsonObject } from "../contract/records.js";
import type { Column, RenderOptions } from "./fields.js";
import { getPath } from "./fields.js";
import { textWidth, truncate } from "./width.js";

export { textWidth };

/**
 * Borderless tables through cli-table3 (gh-like: two spaces between columns,
 * headers in bold when stdout's colour is on), fitted to the terminal:
 *
 * - the widths come from the header and the first page; when the table is
 *   wider than the terminal, the widest free-text column (a column declared
 *   `text`: location, model, description) gives up a column at a time, then
 *   any column, and cells are cut with `…`; a row never wraps;
 * - a list table streams: later pages print in the first page's widths (a
 *   longer cell is cut, not re-laid out), so `--all` holds one page at a time;
 * - `wide` (`--wide`) shows every cell in full: no fitting, no cutting.
 *
 * Widths are display widths (string-width): CJK and emoji take two columns.
 * This module loads cli-table3 and string-width, so only table output loads it.
 */

export function cellText(v: Json | undefined): string {
  if (v === undefined || v === null) return "";
  if (Array.isArray(v))
    return v.map((x) => (typeof x === "object" && x !== null ? JSON.stringify(x) : String(x))).join(", ");
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

/** Only the colour matters here; callers may pass their whole render options. */
export type TableOptions = Pick<RenderOptions, "color"> & Partial<RenderOptions>;

const GAP = 2;
/** Without a width (a caller that gives none), cells are cut here as before. */
const MAX_CELL = 60;

/** One line per cell: newlines and tabs read as spaces. */
const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();

const CHARS = {
  top: "",
  "top-mid": "",
  "top-left": "",
  "top-right": "",
  bottom: "",
  "bottom-mid": "",
  "bottom-left": "",
  "bottom-right": "",
  left: "",
  "left-mid": "",
  mid: "",
  "mid-mid": "",
  right: "",
  "right-mid": "",
  middle: " ".repeat(GAP),
};

/**
 * Column widths that fit `width`: the widest free-text column shrinks first
 * (never below its header or 6 columns), then the widest of any (never below
 * 3). Returns the natural widths when they fit.
 */
export function fitWidths(natural: number[], headers: number[], text: boolean[], width: number): number[] {
  const w = [...natural];
  const total = () => w.reduce((a, b) => a + b, 0) + GAP * Math.max(0, w.length - 1);
  const tiers: Array<(i: number) => number | undefined> = [
    (i) => (text[i] ? Math.min(natural[i]!, Math.max(6, headers[i]!)) : undefined),
    (i) => (text[i] ? Math.min(natural[i]!, 3) : Math.min(natural[i]!, Math.max(3, headers[i]!))),
    (i) => Math.min(natural[i]!, 3),
  ];
  for (const floor of tiers) {
    while (total() > width) {
      let pick = -1;
      for (let i = 0; i < w.length; i++) {
        const f = floor(i);
        if (f === undefined || w[i]! <= f) continue;
        if (pick < 0 || w[i]! > w[pick]!) pick = i;
      }
      if (pick < 0) break;
      w[pick]!--;
    }
  }
  return w;
}

export interface TableStream {
  /** Rows of one page; the first call prints the header. */
  rows(items: JsonObject[]): string;
}

function render(cells: string[][], widths: number[]): string {
  const t = new Table({
    chars: CHARS,
    style: { head: [], border: [], "padding-left": 0, "padding-right": 0, compact: true },
    colWidths: widths,
    wordWrap: false,
    truncate: "…",
  });
  for (const r of cells) t.push(r);
  return t
    .toString()
    .split("\n")
    .map((l) => `${l.replace(/[ \t]+$/, "")}\n`)
    .join("");
}

/** A table printed page by page: widths come from the header and the first page, fitted to `opts.width`. */
export function tableStream(columns: Column[], opts: TableOptions): TableStream {
  let widths: number[] | undefined;
  const headers = columns.map((c) => c.header ?? c.key.toUpperCase());
  const wide = opts.wide === true;
  const limit = wide ? Number.POSITIVE_INFINITY : (opts.width ?? Number.POSITIVE_INFINITY);
  const cap = opts.width === undefined && !wide ? MAX_CELL : Number.POSITIVE_INFINITY;
  return {
    rows(items) {
      const cells = items.map((item) =>
        columns.map((c) => {
          const s = oneLine(cellText(getPath(item, c.key)));
          return Number.isFinite(cap) ? truncate(s, cap) : s;
        }),
      );
      let out = "";
      let page = widths;
      if (!widths) {
        const natural = headers.map((h, i) => Math.max(textWidth(h), 1, ...cells.map((r) => textWidth(r[i]!))));
        widths = Number.isFinite(limit)
          ? fitWidths(
              natural,
              headers.map((h) => textWidth(h)),
              columns.map((c) => c.text === true),
              limit,
            )
          : natural;
        page = widths;
        out += render(
          [headers.map((h, i) => opts.color.bold(truncate(h, widths![i]!)))],
          // the last column's header needs no padding: trailing blanks are trimmed anyway
          widths,
        );
      } else if (wide) {
        // --wide: a later page's longer cell widens that page's column (nothing is cut)
        page = widths.map((w, i) => Math.max(w, ...cells.map((r) => textWidth(r[i]!))));
      }
      if (cells.length)
        out += render(
          cells.map((r) => r.map((s, i) => (wide ? s : truncate(s, page![i]!)))),
          page!,
        );
      return out;
    },
  };
}

/** A whole table at once. */
export function renderTable(items: JsonObject[], columns: Column[], opts: TableOptions): string {
  return tableStream(columns, opts).rows(items);
}

/**
 * Nested objects as dotted keys (`plans.cdw1.price`), arrays of objects by
 * index (`items.0.name`), so a record's table shows every member readably.
 */
export function flatten(record: JsonObject, prefix = "", out: Array<[string, Json]> = []): Array<[string, Json]> {
  for (const [k, v] of Object.entries(record)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === "object" && v !== null && !Array.isArray(v) && Object.keys(v).length) flatten(v, key, out);
    else if (Array.isArray(v) && v.length && v.some((x) => typeof x === "object" && x !== null)) {
      v.forEach((x, i) => {
        if (typeof x === "object" && x !== null && !Array.isArray(x)) flatten(x, `${key}.${i}`, out);
        else out.push([`${key}.${i}`, x]);
      });
    } else out.push([key, v]);
  }
  return out;
}

const MAX_VALUE = 200;

/** A record as `key  value` lines, nested members flattened to dotted keys; values cut to the width. */
export function renderKeyValue(record: JsonObject, opts: TableOptions): string {
  const rows = flatten(record).map(([k, v]) => [k, oneLine(cellText(v))] as const);
  const width = Math.max(0, ...rows.map(([k]) => textWidth(k)));
  const room = opts.wide
    ? Number.POSITIVE_INFINITY
    : opts.width !== undefined
      ? Math.max(10, opts.width - width - GAP)
      : MAX_VALUE;
  return rows
    .map(([k, v]) => `${opts.color.bold(k)}${v ? " ".repeat(width - textWidth(k) + GAP) + truncate(v, room) : ""}`)
    .map((l) => `${l.replace(/[ \t]+$/, "")}\n`)
    .join("");
}
