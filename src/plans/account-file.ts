import { readFile, stat } from "node:fs/promises";
import { InputError } from "../base/errors.js";
import { readDocument, WHOLE_FILE_BYTES } from "../files/doc-stream.js";
import type { FleetFormat } from "../files/format.js";
import { checkJson, decodeUtf8 } from "../files/input-limits.js";
import { fileError, type RawRow } from "../files/read.js";
import { parseYaml } from "../files/yaml.js";
import { rowLabel } from "./plan.js";

/**
 * An account file: a yaml or json document `{extras: [...], vehicles: [...]}`.
 * A plain list, or a document with only `vehicles:`, is a fleet file (its
 * extras are not managed); csv and ndjson are always fleet files. A `$schema`
 * member (json) is ignored, and so is the yaml-language-server comment (a
 * comment). A vehicle row may carry `extras:`, its extras by identity
 * (`{option, period}`, or the option alone when the account has one extra of
 * that option); they are taken out of the row here and resolved once the
 * extras section is planned (./refs.ts).
 */

/** A vehicle's reference to an extra: its option (name or id) and, when the option is not enough, its period. */
export interface ExtraRef {
  option: string | number;
  period?: number;
}

export interface AccountDocument {
  /** undefined: the file has no extras section (a fleet file). */
  extras?: Record<string, unknown>[];
  /** The vehicle rows, without their `extras` member, each let go once handed out (none when `streamed`). */
  vehicles: Iterable<RawRow> | AsyncIterable<RawRow>;
  /** csv / ndjson: the rows are not read here; read them from the file as it streams (readRows). */
  streamed?: boolean;
  /** Per vehicle row number: its `extras` references (only rows that give the member). */
  refs: Map<number, ExtraRef[]>;
  /** Problems found in the references (row and message). */
  problems: Array<{ field: string; message: string }>;
}

const TOP_KEYS = new Set(["extras", "vehicles", "$schema"]);
const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

export function parseRefs(row: number, reg: string, v: unknown, problems: AccountDocument["problems"]): ExtraRef[] {
  if (v === null || v === undefined || v === "") return [];
  // (this runs for every vehicle row: nothing is made for a reference that is well formed)
  const list = Array.isArray(v) ? v : [v];
  const out: ExtraRef[] = [];
  for (let i = 0; i < list.length; i++) {
    const item: unknown = list[i];
    if (typeof item === "string" || typeof item === "number") {
      out.push({ option: item });
      continue;
    }
    if (isPlainObject(item) && (item.option !== undefined || item.option_id !== undefined)) {
      const extra = Object.keys(item).filter(notRefKey);
      const period = item.period === undefined || item.period === null ? undefined : Number(item.period);
      const option = (item.option ?? item.option_id) as string | number;
      if (extra.length)
        problems.push({
          field: refsField(row, reg),
          message: `item ${i + 1}: unknown key ${extra.join(", ")} (option, period)`,
        });
      else if (period !== undefined && !(Number.isSafeInteger(period) && period >= 1))
        problems.push({
          field: refsField(row, reg),
          message: `item ${i + 1}: period must be a whole number, got ${JSON.stringify(item.period)}`,
        });
      else out.push(period ? { option, period } : { option });
      continue;
    }
    problems.push({
      field: refsField(row, reg),
      message: `item ${i + 1}: expected an option name or {option, period}, got ${JSON.stringify(item)}`,
    });
  }
  return out;
}

/** Where a row's references are named in problems: `row 3 (B-SC 1001) extras`. */
const refsField = (row: number, reg: string) => `${rowLabel(row, { vehicle_reg_number: reg })} extras`;
const REF_KEYS = new Set(["option", "option_id", "period"]);
const notRefKey = (k: string) => !REF_KEYS.has(k);

/** Files up to WHOLE_FILE_BYTES are parsed whole; larger ones are streamed item by item (src/files/doc-stream.ts). */
export { WHOLE_FILE_BYTES };

/**
 * Read an account (or fleet) file: the extras section, and the vehicle rows
 * one at a time (each let go once handed out; a row's references are in
 * `refs` by the time it is). csv and ndjson are fleet files, streamed by the
 * fleet reader; json and yaml up to WHOLE_FILE_BYTES are parsed whole, larger
 * ones streamed. A streamed file should list its extras before its vehicles,
 * as `account export` writes it: vehicles listed first are held until the end
 * of the file (the extras after them may be the ones they use).
 */
export async function readAccountDocument(
  path: string,
  format: FleetFormat,
  /** Where the rows' problems go (those of a streamed row arrive as it is read). */
  problems: AccountDocument["problems"] = [],
  /** What errors of the file are prefixed with (fileError; those of rows read later are named by the plan). */
  label = path,
): Promise<AccountDocument> {
  try {
    return await readAccountFile(path, format, problems);
  } catch (e) {
    throw fileError(e, label);
  }
}

async function readAccountFile(
  path: string,
  format: FleetFormat,
  problems: AccountDocument["problems"],
): Promise<AccountDocument> {
  const refs = new Map<number, ExtraRef[]>();
  // csv and ndjson are fleet files, streamed row by row by the reader of the rows (src/plans/sync.ts mapRows)
  if (format === "csv" || format === "ndjson") return { vehicles: [], streamed: true, refs, problems };
  const row = vehicleRow(refs, problems);
  if ((await stat(path)).size > WHOLE_FILE_BYTES) return streamedDocument(path, format, row, refs, problems);
  const text = decodeUtf8(await readFile(path), format).replace(/^\uFEFF/, "");
  let doc: unknown;
  try {
    if (format === "json") doc = (checkJson(text, () => "the document") ?? { value: JSON.parse(text) }).value;
    else doc = parseYaml(text);
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`not valid ${format}: ${(e as Error).message}`);
  }
  if (doc === null || doc === undefined) doc = [];
  let extras: Record<string, unknown>[] | undefined;
  let list: unknown[];
  if (Array.isArray(doc)) list = doc;
  else if (isPlainObject(doc)) {
    checkTopKeys(Object.keys(doc));
    const v = doc.vehicles ?? [];
    if (!Array.isArray(v)) throw new InputError("`vehicles:` must be a list");
    list = v;
    if ("extras" in doc) extras = extrasList(doc.extras);
  } else throw new InputError("expected `{extras: [...], vehicles: [...]}` or a list of vehicles");
  // every row is checked now (a row that is not an object ends the read before anything is planned)
  const vehicles: Array<RawRow | undefined> = list.map((v, i) => row(i + 1, v));
  return { extras, vehicles: releasing(vehicles), refs, problems };
}

/** The rows of a list, each dropped from it as it is handed out. */
function* releasing<T>(list: Array<T | undefined>): Generator<T> {
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    list[i] = undefined;
    if (item !== undefined) yield item;
  }
}

function checkTopKeys(keys: Iterable<string>): void {
  const unknown = [...keys].filter((k) => !TOP_KEYS.has(k));
  if (unknown.length)
    throw new InputError(`unknown top-level key ${unknown.map((k) => JSON.stringify(k)).join(", ")}`, {
      hint: "an account file has `extras:` and `vehicles:` (and may have `$schema`)",
    });
}

function extrasRow(x: unknown, i: number): Record<string, unknown> {
  if (!isPlainObject(x))
    throw new InputError(
      `extras row ${i + 1}: expected an object of members, got ${Array.isArray(x) ? "a list" : typeof x}`,
    );
  return x;
}

function extrasList(e: unknown): Record<string, unknown>[] {
  const list = e ?? [];
  if (!Array.isArray(list)) throw new InputError("`extras:` must be a list");
  return list.map(extrasRow);
}

/** Row `n` of the vehicles section as a raw row: its `extras` references taken out into `refs`. */
function vehicleRow(refs: Map<number, ExtraRef[]>, problems: AccountDocument["problems"]) {
  return (n: number, v: unknown): RawRow => {
    if (!isPlainObject(v))
      throw new InputError(`row ${n}: expected an object of fields, got ${Array.isArray(v) ? "a list" : typeof v}`);
    if (!("extras" in v)) return { row: n, data: v, textual: false };
    // taken out of the row itself (the parsed document is ours: no copy of every row)
    const given = v.extras;
    delete v.extras;
    const reg = typeof v.vehicle_reg_number === "string" ? v.vehicle_reg_number.trim() : "";
    if ("vehicle_extras" in v && v.vehicle_extras !== null && v.vehicle_extras !== undefined)
      problems.push({
        field: refsField(n, reg),
        message: "give extras by identity (extras:) or by id (vehicle_extras:), not both",
      });
    refs.set(n, parseRefs(n, reg, given, problems));
    return { row: n, data: v, textual: false };
  };
}

/**
 * A large json or yaml file, read as it streams: the extras section (small)
 * and the top-level members up to the vehicles list, then the vehicle rows
 * one at a time as they are read.
 */
async function streamedDocument(
  path: string,
  format: "json" | "yaml",
  row: (n: number, v: unknown) => RawRow,
  refs: Map<number, ExtraRef[]>,
  problems: AccountDocument["problems"],
): Promise<AccountDocument> {
  const events = readDocument(path, format, ["extras", "vehicles"])[Symbol.asyncIterator]();
  let extras: Record<string, unknown>[] | undefined;
  const keys: string[] = [];
  /** Vehicle rows read before the extras section could be known complete (a file that lists vehicles first). */
  const held: RawRow[] = [];
  let vehiclesOpen = false;
  let shape: string | undefined;
  for (let e = await events.next(); !e.done; e = await events.next()) {
    const ev = e.value;
    if (ev.type === "shape") shape = ev.shape;
    else if (ev.type === "member") {
      keys.push(ev.key);
      checkTopKeys(keys);
      if (ev.key === "extras") extras = extrasList(ev.value);
      else if (ev.key === "vehicles" && ev.value !== null && ev.value !== undefined)
        throw new InputError("`vehicles:` must be a list");
    } else if (ev.type === "open") {
      if (ev.key !== "") keys.push(ev.key);
      checkTopKeys(keys);
      if (ev.key === "extras") extras = [];
      else {
        vehiclesOpen = true;
        // the extras are known (listed first, or the file is a plain list): the rows stream from here
        if (extras !== undefined || ev.key === "" || shape === "list") break;
      }
    } else if (ev.type === "item") {
      if (ev.key === "extras") extras!.push(extrasRow(ev.value, ev.index - 1));
      else held.push(row(ev.index, ev.value));
    } else if (ev.type === "close" && ev.key === "vehicles") vehiclesOpen = false;
  }
  async function* rest(): AsyncGenerator<RawRow> {
    yield* held.splice(0);
    if (!vehiclesOpen) return;
    for (let e = await events.next(); !e.done; e = await events.next()) {
      const ev = e.value;
      if (ev.type === "item") yield row(ev.index, ev.value);
      else if (ev.type === "member" || ev.type === "open") {
        // a member after the vehicles list: allowed keys only (extras after vehicles were read above, held)
        keys.push(ev.key);
        checkTopKeys(keys);
        if (ev.key === "extras") throw new InputError("`extras:` after `vehicles:` in a streamed file");
      }
    }
  }
  if (shape === "empty") return { vehicles: [], refs, problems };
  return { extras, vehicles: rest(), refs, problems };
}
