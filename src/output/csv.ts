/**
 * The one csv writer of rentctl (listings, fleet exports, reports), on
 * csv-stringify; csv-parse reads them back (src/files/read.ts). RFC 4180:
 * a cell is quoted when it holds a comma, a quote, a CR or an LF, and when
 * it has whitespace at either end (the reader keeps a quoted cell as written
 * and trims an unquoted one). Arrays are joined with `|` (the one csv
 * convention, shared with fleet files), objects written as JSON.
 *
 * Formula guard (CSV injection): a spreadsheet runs a cell that starts with
 * `=`, `+`, `-`, `@`, a tab or a CR as a formula. Every csv rentctl writes
 * (listings, exports, fleet files, reports) prefixes such a text cell with
 * one `'`, which spreadsheets show as text; a number (`-5`, `+10%`, `1e3`)
 * is left as it is. The reader of fleet files (src/files/read.ts) takes the
 * `'` off again (`unguardCell`), so an exported file reads back exactly:
 * a value that itself starts with quotes before such a character gets one
 * more quote, so writing and reading are exact inverses.
 */
const QUOTED = /^\s|\s$|[\r\n]/;

/** A cell a spreadsheet would run as a formula, quotes before it included; a plain number is none. */
const FORMULA = /^'*[=+\-@\t\r]/;
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?%?$/i;
const needsGuard = (text: string): boolean => FORMULA.test(text) && !NUMBER.test(text);

/** The cell's text as written: one `'` before a text that starts like a formula. */
export function guardCell(text: string): string {
  return needsGuard(text) ? `'${text}` : text;
}

/** The inverse of guardCell, for csv rentctl reads back (fleet files). */
export function unguardCell(text: string): string {
  return text.startsWith("'") && needsGuard(text.slice(1)) ? text.slice(1) : text;
}

/** A value as the text of its cell (before quoting). */
export function csvText(v: unknown): string {
  if (v === undefined || v === null) return "";
  if (Array.isArray(v))
    return v.map((x) => (typeof x === "object" && x !== null ? JSON.stringify(x) : String(x))).join("|");
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

export interface CsvWriter {
  /** One csv record with its line end (CRLF, as RFC 4180 writes it, unless told). */
  row(values: readonly unknown[], eol?: string): string;
  /** One cell as written in a record. */
  cell(value: unknown): string;
}

let loaded: Promise<CsvWriter> | undefined;

/** The csv writer, loaded when a command first writes csv (start-up loads none of it). */
export function loadCsv(): Promise<CsvWriter> {
  loaded ??= import("csv-stringify/sync").then(({ stringify }) => {
    const row = (values: readonly unknown[], eol = "\r\n") =>
      stringify([values.map((v) => guardCell(csvText(v)))], { quoted_match: QUOTED, record_delimiter: eol });
    return { row, cell: (value: unknown) => row([value], "") };
  });
  return loaded;
}
