/**
 * The one csv writer of rentctl (listings, fleet exports, reports), on
 * csv-stringify; csv-parse reads them back (src/files/read.ts). RFC 4180:
 * a cell is quoted when it holds a comma, a quote, a CR or an LF, and when
 * it has whitespace at either end (the reader keeps a quoted cell as written
 * and trims an unquoted one). Arrays are joined with `|` (the one csv
 * convention, shared with fleet files), objects written as JSON.
 */
const QUOTED = /^\s|\s$|[\r\n]/;

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
      stringify([values.map(csvText)], { quoted_match: QUOTED, record_delimiter: eol });
    return { row, cell: (value: unknown) => row([value], "") };
  });
  return loaded;
}
