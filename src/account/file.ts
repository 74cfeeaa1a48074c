import { readFile } from "node:fs/promises";
import { InputError } from "../errors.js";
import type { FleetFormat } from "../fleet/format.js";
import type { RawRow } from "../fleet/read.js";
import { parseYamlBlock } from "../fleet/yaml-block.js";

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
  /** The vehicle rows, without their `extras` member (none when `streamed`). */
  vehicles: RawRow[];
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
  const at = `row ${row}${reg ? ` (${reg})` : ""} extras`;
  if (v === null || v === undefined || v === "") return [];
  const list = Array.isArray(v) ? v : [v];
  const out: ExtraRef[] = [];
  list.forEach((item, i) => {
    if (typeof item === "string" || typeof item === "number") {
      out.push({ option: item });
      return;
    }
    if (isPlainObject(item) && (item.option !== undefined || item.option_id !== undefined)) {
      const extra = Object.keys(item).filter((k) => !["option", "option_id", "period"].includes(k));
      const period = item.period === undefined || item.period === null ? undefined : Number(item.period);
      if (extra.length)
        problems.push({ field: at, message: `item ${i + 1}: unknown key ${extra.join(", ")} (option, period)` });
      else if (period !== undefined && !(Number.isSafeInteger(period) && period >= 1))
        problems.push({
          field: at,
          message: `item ${i + 1}: period must be a whole number, got ${JSON.stringify(item.period)}`,
        });
      else out.push({ option: (item.option ?? item.option_id) as string | number, ...(period ? { period } : {}) });
      return;
    }
    problems.push({
      field: at,
      message: `item ${i + 1}: expected an option name or {option, period}, got ${JSON.stringify(item)}`,
    });
  });
  return out;
}

/** Read an account (or fleet) file. json and yaml are parsed whole; csv and ndjson are fleet files, read as such. */
export async function readAccountDocument(path: string, format: FleetFormat): Promise<AccountDocument> {
  const problems: AccountDocument["problems"] = [];
  const refs = new Map<number, ExtraRef[]>();
  // csv and ndjson are fleet files, streamed row by row by the reader of the rows (src/fleet/sync.ts readFleet)
  if (format === "csv" || format === "ndjson") return { vehicles: [], streamed: true, refs, problems };
  const text = (await readFile(path, "utf8")).replace(/^\uFEFF/, "");
  let doc: unknown;
  try {
    if (format === "json") doc = JSON.parse(text);
    else {
      const { parse } = await (await import("../output/yaml.js")).loadYaml();
      doc = parseSectioned(text, parse) ?? parse(text);
    }
  } catch (e) {
    throw new InputError(`not valid ${format}: ${(e as Error).message}`);
  }
  if (doc === null || doc === undefined) doc = [];
  let extras: Record<string, unknown>[] | undefined;
  let list: unknown[];
  if (Array.isArray(doc)) list = doc;
  else if (isPlainObject(doc)) {
    const unknown = Object.keys(doc).filter((k) => !TOP_KEYS.has(k));
    if (unknown.length)
      throw new InputError(`unknown top-level key ${unknown.map((k) => JSON.stringify(k)).join(", ")}`, {
        hint: "an account file has `extras:` and `vehicles:` (and may have `$schema`)",
      });
    const v = doc.vehicles ?? [];
    if (!Array.isArray(v)) throw new InputError("`vehicles:` must be a list");
    list = v;
    if ("extras" in doc) {
      const e = doc.extras ?? [];
      if (!Array.isArray(e)) throw new InputError("`extras:` must be a list");
      extras = e.map((x, i) => {
        if (!isPlainObject(x))
          throw new InputError(
            `extras row ${i + 1}: expected an object of members, got ${Array.isArray(x) ? "a list" : typeof x}`,
          );
        return x;
      });
    }
  } else throw new InputError("expected `{extras: [...], vehicles: [...]}` or a list of vehicles");
  const vehicles: RawRow[] = [];
  list.forEach((v, i) => {
    const n = i + 1;
    if (!isPlainObject(v))
      throw new InputError(`row ${n}: expected an object of fields, got ${Array.isArray(v) ? "a list" : typeof v}`);
    if ("extras" in v) {
      // taken out of the row itself (the parsed document is ours: no copy of every row)
      const given = v.extras;
      delete v.extras;
      const rest = v;
      const reg = typeof v.vehicle_reg_number === "string" ? v.vehicle_reg_number.trim() : "";
      if ("vehicle_extras" in v && v.vehicle_extras !== null && v.vehicle_extras !== undefined)
        problems.push({
          field: `row ${n}${reg ? ` (${reg})` : ""} extras`,
          message: "give extras by identity (extras:) or by id (vehicle_extras:), not both",
        });
      refs.set(n, parseRefs(n, reg, given, problems));
      vehicles.push({ row: n, data: rest, textual: false });
    } else vehicles.push({ row: n, data: v, textual: false });
  });
  return { extras, vehicles, refs, problems };
}

/**
 * A yaml account file laid out as `account export` writes it (top-level
 * `extras:` / `vehicles:` / `$schema:` keys, each list item starting with
 * `- ` at the first column) is parsed item by item: the same values as a
 * whole-document parse, in a fraction of the time and memory (the yaml
 * library's document model of a 10,000-vehicle file is large). Any other
 * layout (flow lists, indented items, anchors, several documents) returns
 * undefined and is parsed whole.
 */
export function parseSectioned(text: string, parse: (src: string) => unknown): Record<string, unknown> | undefined {
  if (/^(---|\.\.\.|%)/m.test(text) || /(^|\s)[&*][A-Za-z0-9_-]/.test(text)) return undefined;
  const out: Record<string, unknown[]> = {};
  const scalars: string[] = [];
  let list: unknown[] | undefined;
  let item: string[] | undefined;
  const flush = () => {
    if (!item || !list) return true;
    const text = item.join("\n");
    const v = (parseYamlBlock(text) ?? { value: parse(text) }).value;
    item = undefined;
    if (!Array.isArray(v) || v.length !== 1) return false;
    list.push(v[0]);
    return true;
  };
  for (const line of text.split(/\r?\n/)) {
    if (line === "" || line.startsWith(" ") || line.startsWith("\t")) {
      if (item) item.push(line);
      else if (line.trim() !== "" && !line.trim().startsWith("#")) return undefined;
      continue;
    }
    if (line.startsWith("#")) {
      if (item) item.push(line);
      continue;
    }
    if (line.startsWith("- ") || line === "-") {
      if (!list || !flush()) return undefined;
      item = [line];
      continue;
    }
    if (!flush()) return undefined;
    const key = /^(extras|vehicles):\s*(#.*)?$/.exec(line);
    if (key) {
      if (key[1]! in out) return undefined;
      list = out[key[1]!] = [];
      continue;
    }
    if (/^\$schema:/.test(line)) {
      scalars.push(line);
      list = undefined;
      continue;
    }
    return undefined;
  }
  if (!flush()) return undefined;
  const doc: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(out)) doc[k] = v.length ? v : null; // `key:` with nothing under it is null
  if (scalars.length) Object.assign(doc, parse(scalars.join("\n")) as object);
  return doc;
}
