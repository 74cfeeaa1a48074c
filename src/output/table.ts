import Table from "cli-table3";
import type { Json, JsonObject } from "../contract/records.js";
import { type Column, getPath, type RenderOptions } from "./fields.js";

export function cellText(v: Json | undefined): string {
  if (v === undefined || v === null) return "";
  if (Array.isArray(v))
    return v.map((x) => (typeof x === "object" && x !== null ? JSON.stringify(x) : String(x))).join(", ");
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

const MAX_CELL = 60;

function clip(s: string): string {
  const one = s.replace(/\s+/g, " ");
  return one.length > MAX_CELL ? `${one.slice(0, MAX_CELL - 1)}…` : one;
}

const PLAIN_CHARS = {
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
  middle: "  ",
};

/** A borderless table, headers in bold when colour is on. */
export function renderTable(items: JsonObject[], columns: Column[], opts: RenderOptions): string {
  const table = new Table({
    head: columns.map((c) => opts.color.bold(c.header ?? c.key.toUpperCase())),
    chars: PLAIN_CHARS,
    style: { head: [], border: [], "padding-left": 0, "padding-right": 0 },
  });
  for (const item of items) table.push(columns.map((c) => clip(cellText(getPath(item, c.key)))));
  return `${table.toString().replace(/[ \t]+$/gm, "")}\n`;
}

export function renderKeyValue(record: JsonObject, opts: RenderOptions): string {
  const table = new Table({
    chars: PLAIN_CHARS,
    style: { head: [], border: [], "padding-left": 0, "padding-right": 0 },
  });
  for (const [k, v] of Object.entries(record)) {
    const text = cellText(v);
    table.push([opts.color.bold(k), text.length > 200 ? `${text.slice(0, 199)}…` : text]);
  }
  return `${table.toString().replace(/[ \t]+$/gm, "")}\n`;
}
