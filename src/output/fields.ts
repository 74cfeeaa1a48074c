import type { ChalkInstance } from "chalk";
import type { Json, JsonObject } from "../contract/records.js";
import type { IO } from "../io.js";
import type { Format } from "./formats.js";

/** Columns, render options and field paths: shared by every writer (render.ts, table.ts). */

import type { ColumnSpec } from "../contract/columns.js";

export type Column = ColumnSpec;

/** Names for catalog ids in tables: the catalog service's lookup (undefined when unknown or unreachable). */
export type Labeler = (
  opId: string,
  id: number,
  params: Record<string, number>,
  labelKey?: "name" | "code",
) => Promise<string | undefined>;

export interface RenderOptions {
  format: Format;
  fields?: string[];
  /** Default columns for tables (and csv when no --fields). */
  columns?: Column[];
  color: ChalkInstance;
  io: IO;
  /** Tables: names beside catalog ids (never for json, csv, yaml: those keep the wire data). */
  label?: Labeler;
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
