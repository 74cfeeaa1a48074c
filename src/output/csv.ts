/** RFC 4180 CSV: fields quoted when they hold a comma, quote, CR or LF; arrays joined with `|` (the one csv convention, shared with fleet files). */
export function csvCell(v: unknown): string {
  let s: string;
  if (v === undefined || v === null) s = "";
  else if (Array.isArray(v))
    s = v.map((x) => (typeof x === "object" && x !== null ? JSON.stringify(x) : String(x))).join("|");
  else if (typeof v === "object") s = JSON.stringify(v);
  else s = String(v);
  return /[",\r\n]/.test(s) || /^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvRow(values: unknown[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}
