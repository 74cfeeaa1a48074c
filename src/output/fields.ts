import type { ChalkInstance } from "chalk";
import type { IO } from "../base/io.js";
import type { Json, JsonObject } from "../contract/records.js";
import type { Format } from "./formats.js";

/** Columns, render options and field paths: shared by every writer (render.ts, table.ts). */

import type { ColumnSpec } from "../contract/columns.js";

export type Column = ColumnSpec;

/** Names for ids in tables and cards (the catalog layer's FieldNames): undefined when unknown or unreachable. */
export interface Namer {
  /** Whether a field's values are ids that have names. */
  names(field: string): boolean;
  /** The name of one id of a field, in the context of its record. Never throws. */
  name(field: string, id: number, record: JsonObject): Promise<string | undefined>;
}

/** How a person's view is laid out (table format only). */
export interface ViewOptions {
  /** `--ids`: raw ids in tables, no names looked up. */
  ids?: boolean;
  /** `--wide`: every cell in full, the terminal's width ignored. */
  wide?: boolean;
  /** `--all-fields`: a card shows empty fields too. */
  allFields?: boolean;
}

export interface RenderOptions {
  format: Format;
  fields?: string[];
  /** Default columns for tables (and csv when no --fields). */
  columns?: Column[];
  color: ChalkInstance;
  io: IO;
  /** Tables: names for catalog ids (never for json, csv, yaml: those keep the wire data). */
  names?: Namer;
  /** Tables: the width to fit (the terminal's); undefined: no fitting. */
  width?: number;
  /** Tables: every cell in full. */
  wide?: boolean;
  /** Field names valid for `--fields` beyond the items' own keys (e.g. the contract's). */
  knownFields?: readonly string[];
}

export function pickFields(item: JsonObject, fields: string[] | undefined): JsonObject {
  if (!fields) return item;
  const out: JsonObject = {};
  for (const f of fields) out[f] = getPath(item, f) ?? null;
  return out;
}

export function getPath(item: JsonObject, path: string): Json | undefined {
  // Own members only: `--fields constructor` must not read Object.prototype.
  if (Object.hasOwn(item, path)) return item[path];
  let cur: Json | undefined = item;
  for (const part of path.split(".")) {
    if (typeof cur !== "object" || cur === null || Array.isArray(cur) || !Object.hasOwn(cur, part)) return undefined;
    cur = (cur as JsonObject)[part];
  }
  return cur;
}
