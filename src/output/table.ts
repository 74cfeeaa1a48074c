import type { Json, JsonObject } from "../contract/records.js";
import type { Column, RenderOptions } from "./fields.js";
import { getPath } from "./fields.js";

/**
 * Borderless tables, written by hand (two spaces between columns, headers in
 * bold when stdout's colour is on). A list table streams: the first page
 * fixes the column widths and prints the header; later pages print their
 * rows in the same widths (a longer cell widens only its own row), so
 * `--all` never holds the listing to align it.
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

const MAX_CELL = 60;
const MAX_VALUE = 200;

function clip(s: string, max = MAX_CELL): string {
  const one = s.replace(/\s+/g, " ");
  return [...one].length > max ? `${[...one].slice(0, max - 1).join("")}…` : one;
}

/** Display width: code points (wide CJK glyphs count 2). */
export function textWidth(s: string): number {
  let w = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    w +=
      cp >= 0x1100 &&
      /\p{Extended_Pictographic}|[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u.test(
        ch,
      )
        ? 2
        : 1;
  }
  return w;
}

function line(cells: string[], widths: number[]): string {
  return cells
    .map((c, i) => (i === cells.length - 1 ? c : c + " ".repeat(Math.max(0, widths[i]! - textWidth(c)))))
    .join("  ")
    .replace(/[ \t]+$/, "");
}

export interface TableStream {
  /** Rows of one page; the first call prints the header. */
  rows(items: JsonObject[]): string;
}

/** A table printed page by page: widths come from the header and the first page. */
export function tableStream(columns: Column[], opts: TableOptions): TableStream {
  let widths: number[] | undefined;
  const headers = columns.map((c) => c.header ?? c.key.toUpperCase());
  return {
    rows(items) {
      const cells = items.map((item) => columns.map((c) => clip(cellText(getPath(item, c.key)))));
      let out = "";
      if (!widths) {
        widths = headers.map((h, i) => Math.max(textWidth(h), ...cells.map((r) => textWidth(r[i]!))));
        const head = headers.map((h, i) =>
          i === headers.length - 1 ? opts.color.bold(h) : opts.color.bold(h) + " ".repeat(widths![i]! - textWidth(h)),
        );
        out += `${head.join("  ").replace(/[ \t]+$/, "")}\n`;
      }
      for (const r of cells) out += `${line(r, widths)}\n`;
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

/** A record as `key  value` lines, nested members flattened to dotted keys. */
export function renderKeyValue(record: JsonObject, opts: TableOptions): string {
  const rows = flatten(record).map(([k, v]) => [k, clip(cellText(v), MAX_VALUE)] as const);
  const width = Math.max(0, ...rows.map(([k]) => textWidth(k)));
  return rows
    .map(([k, v]) => `${opts.color.bold(k)}${v ? " ".repeat(width - textWidth(k) + 2) + v : ""}`)
    .map((l) => `${l.replace(/[ \t]+$/, "")}\n`)
    .join("");
}
