import { UsageError } from "../base/errors.js";
import { nearest } from "../base/nearest.js";
import { EXTRA_FIELDS } from "../contract/extra-fields.js";
import type { Json, JsonObject } from "../contract/records.js";
import { VEHICLE_FIELDS } from "../contract/vehicle-fields.js";
import type { TableStream } from "./table.js";

/**
 * The contract fields of the resource a listing shows, told by its columns: a vehicle's list
 * takes no extra fields and an extra's list no vehicle fields (both when the columns say neither).
 */
function contractFieldNames(columns: Column[] | undefined): string[] {
  const keys = new Set((columns ?? []).map((c) => c.key));
  const tables = [VEHICLE_FIELDS, EXTRA_FIELDS].filter((t) => t.some((f) => keys.has(f.name)));
  return (tables.length ? tables : [VEHICLE_FIELDS, EXTRA_FIELDS]).flatMap((t) => t.map((f) => f.name));
}

import type { IO } from "../base/io.js";
import { loadCsv } from "./csv.js";
import { type Column, getPath, type Namer, pickFields, type RenderOptions } from "./fields.js";
import { loadYaml } from "./yaml.js";

export { type Column, getPath, pickFields, type RenderOptions };

export interface ListWriter {
  push(items: JsonObject[]): Promise<void>;
  end(): Promise<void>;
}

/**
 * One entry for every output format. Results go to stdout; everything for
 * humans goes to stderr through `Messages`. Every list format streams: each
 * `push` writes its items at once, with back-pressure, so `--all` holds one
 * page at a time whatever the fleet size.
 *
 * - json: `[`, the items (as `JSON.stringify(list, null, 2)` would print
 *   them), `]` at `end`; a single record prints the object.
 * - yaml: one sequence item per record.
 * - ndjson and csv: one line per record (csv: one header row).
 * - table: header and widths from the first page, then rows page by page.
 * - `fields` selects and orders columns / keys, by wire name or by a
 *   column's header (`MODEL` is `vehicle_model_id`); an unknown name is a
 *   usage error listing the valid ones.
 */

function columnsFor(items: JsonObject[], opts: RenderOptions): Column[] {
  if (opts.fields) return opts.fields.map((key) => ({ key }));
  if (opts.columns) return opts.columns;
  const keys: string[] = [];
  for (const item of items) for (const k of Object.keys(item)) if (!keys.includes(k)) keys.push(k);
  return keys.map((key) => ({ key }));
}

const norm = (s: string) => s.toLowerCase().replace(/[\s_\-/]+/g, "_");

/**
 * `--fields` names as keys: a wire name (or dotted path) as given, or a
 * column header (case-insensitive). Names that match nothing known are a
 * usage error listing what is valid. With nothing known yet (an empty list),
 * names pass as given.
 */
export function resolveFieldNames(
  fields: string[],
  columns: Column[] | undefined,
  items: JsonObject[],
  known: readonly string[] = [],
): string[] {
  // Every contract field is a valid name, present in these records or not (an absent one prints as null).
  const keys = new Set<string>(["id", ...contractFieldNames(columns), ...known]);
  for (const c of columns ?? []) keys.add(c.key);
  for (const i of items) for (const k of Object.keys(i)) keys.add(k);
  const byHeader = new Map((columns ?? []).filter((c) => c.header).map((c) => [norm(c.header!), c.key]));
  const byKey = new Map([...keys].map((k) => [norm(k), k]));
  if (items.length === 0 && !columns?.length && known.length === 0) return fields;
  const unknown: string[] = [];
  const out = fields.map((f) => {
    if (keys.has(f) || f.includes(".")) return f;
    const k = byKey.get(norm(f)) ?? byHeader.get(norm(f));
    if (k) return k;
    unknown.push(f);
    return f;
  });
  if (unknown.length) {
    const headers = (columns ?? []).filter((c) => c.header).map((c) => `${c.header} (${c.key})`);
    // The fields of these records (or the columns), not every name of the contract: a vehicle's list names no extra fields.
    const own = new Set<string>([
      ...(columns ?? []).map((c) => c.key),
      ...items.flatMap((i) => Object.keys(i)),
      ...known,
    ]);
    const near = [...new Set(unknown.flatMap((u) => nearest(u, own.size ? own : keys)))];
    throw new UsageError(`--fields: unknown field${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}`, {
      hint: near.length
        ? `did you mean ${near.join(", ")}?`
        : `fields: ${[...(own.size ? own : keys)].join(", ")}${headers.length ? `; column headers: ${headers.join(", ")}` : ""}`,
    });
  }
  return out;
}

function write(io: IO, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (text === "" || io.stdout.write(text)) resolve();
    else io.stdout.once("drain", () => resolve());
  });
}

const indent = (s: string) => s.replace(/^/gm, "  ");

/**
 * Table cells as a person reads them: catalog names for ids (`Compact`,
 * `Toyota Corolla (1.8 Hybrid Comfort)`, several for an array), yes/no for
 * flags, prices with their currency code. One lookup per distinct field and
 * id for the whole listing (the catalog service fetches each catalog once);
 * an id whose name is unknown or unreachable shows as `#1003`.
 */
export function namedCells(
  names: Namer | undefined,
): (items: JsonObject[], columns: Column[]) => Promise<JsonObject[]> {
  const cache = new Map<string, Promise<string | undefined>>();
  const lookup = (field: string, id: number, item: JsonObject) => {
    if (!names) return Promise.resolve(undefined);
    const key = `${field}|${item.vehicle_segment_id ?? ""}|${id}`;
    let p = cache.get(key);
    if (!p) {
      p = names.name(field, id, item).catch(() => undefined);
      cache.set(key, p);
    }
    return p;
  };
  const asId = (v: Json | undefined) =>
    typeof v === "number" && Number.isSafeInteger(v)
      ? v
      : typeof v === "string" && /^\d+$/.test(v.trim())
        ? Number(v)
        : undefined;
  return async (items, columns) => {
    const out: JsonObject[] = [];
    for (const item of items) {
      const row: JsonObject = { ...item };
      for (const c of columns) {
        const v = item[c.key];
        if (v === undefined || v === null) continue;
        if (c.display === "mark") row[c.key] = v === true || v === 1 ? "*" : "";
        else if (c.display === "yesno" && (v === 1 || v === 0 || v === "1" || v === "0" || typeof v === "boolean"))
          row[c.key] = v === 1 || v === "1" || v === true ? "yes" : "no";
        else if (c.display === "money" && c.currencyKey) {
          const cur = asId(item[c.currencyKey]);
          const code = cur !== undefined ? await lookup(c.currencyKey, cur, item) : undefined;
          row[c.key] = code ? `${v} ${code}` : v;
        } else if (names?.names(c.key)) {
          const list = Array.isArray(v) ? v : [v];
          const shown: string[] = [];
          for (const x of list) {
            const id = asId(x);
            shown.push(id === undefined ? cellText(x) : ((await lookup(c.key, id, item)) ?? `#${id}`));
          }
          row[c.key] = shown.join(", ");
        }
      }
      out.push(row);
    }
    return out;
  };
}

function cellText(v: Json): string {
  return typeof v === "object" && v !== null ? JSON.stringify(v) : String(v);
}

/** The flag fields (1/0) of the contract: tables show them as yes/no wherever they are a column. */
const FLAG_FIELDS = new Set(
  [...VEHICLE_FIELDS, ...EXTRA_FIELDS]
    .filter((f) => f.type === "flag")
    .map((f) => f.name)
    .concat("is_active"),
);

/** A `--fields` name as a column: the default column's formatting when it has one, yes/no for a flag. */
function fieldColumn(key: string, columns: Column[] | undefined): Column {
  const known = columns?.find((c) => c.key === key);
  if (known) return known;
  return FLAG_FIELDS.has(key) ? { key, display: "yesno" } : { key };
}

export function createListWriter(opts: RenderOptions): ListWriter {
  const { io, format } = opts;
  let started = false;
  let fields: string[] | undefined;
  let columns: Column[] | undefined;
  let table: TableStream | undefined;
  const named = namedCells(opts.names);
  const start = (items: JsonObject[]) => {
    started = true;
    fields = opts.fields ? resolveFieldNames(opts.fields, opts.columns, items, opts.knownFields) : undefined;
    columns = fields ? fields.map((key) => fieldColumn(key, opts.columns)) : columnsFor(items, opts);
  };
  let count = 0;
  let broken = false;
  return {
    async push(items) {
      if (items.length === 0) return;
      if (!started) {
        try {
          start(items);
        } catch (e) {
          broken = true; // e.g. an unknown --fields name: nothing was written, nothing to close
          throw e;
        }
      }
      const pick = (i: JsonObject) => pickFields(i, fields);
      let text = "";
      switch (format) {
        case "ndjson":
          text = items.map((i) => `${JSON.stringify(pick(i))}\n`).join("");
          break;
        case "csv": {
          const { row } = await loadCsv();
          if (count === 0) text += row(columns!.map((c) => c.key));
          for (const item of items) text += row(columns!.map((c) => getPath(item, c.key)));
          break;
        }
        case "json":
          text = items
            .map((i, n) => `${count + n === 0 ? "[\n" : ",\n"}${indent(JSON.stringify(pick(i), null, 2))}`)
            .join("");
          break;
        case "yaml": {
          const { stringify } = await loadYaml();
          text = items.map((i) => stringify([pick(i)])).join("");
          break;
        }
        default: {
          if (!table) {
            // A column a table leaves out (csv keeps it), unless --fields asked for it.
            if (!fields) columns = columns!.filter((c) => c.table !== false);
            // a seam: table output (cli-table3, string-width) loads only for a table
            table = (await import("./table.js")).tableStream(columns!, opts);
          }
          text = table.rows(await named(items, columns!));
        }
      }
      count += items.length;
      await write(io, text);
    },
    async end() {
      if (broken) return;
      if (format === "json") await write(io, count ? "\n]\n" : "[]\n");
      else if (format === "yaml" && count === 0) await write(io, "[]\n");
      else if (format === "csv" && count === 0 && (opts.fields || opts.columns)) {
        const cols = opts.fields ?? opts.columns!.map((c) => c.key);
        await write(io, (await loadCsv()).row(cols));
      }
    },
  };
}

/** Print a whole list at once. */
export async function renderList(items: JsonObject[], opts: RenderOptions): Promise<void> {
  const w = createListWriter(opts);
  await w.push(items);
  await w.end();
}

/** Print one record (or any JSON value, for raw bodies). */
export async function renderRecord(record: Json, opts: RenderOptions): Promise<void> {
  const { io, format } = opts;
  const isRecord = typeof record === "object" && record !== null && !Array.isArray(record);
  const value = isRecord
    ? pickFields(record, opts.fields && resolveFieldNames(opts.fields, opts.columns, [record], opts.knownFields))
    : record;
  if (format === "json") return write(io, `${JSON.stringify(value, null, 2)}\n`);
  if (format === "ndjson") return write(io, `${JSON.stringify(value)}\n`);
  if (format === "yaml") {
    const { stringify } = await loadYaml();
    return write(io, stringify(value));
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    if (Array.isArray(value) && value.every((v) => typeof v === "object" && v !== null && !Array.isArray(v))) {
      return renderList(value as JsonObject[], opts);
    }
    return write(io, `${typeof value === "string" ? value : JSON.stringify(value)}\n`);
  }
  if (format === "csv") {
    const keys = Object.keys(value);
    const { row } = await loadCsv();
    return write(io, row(keys) + row(keys.map((k) => value[k])));
  }
  // a seam: table output (cli-table3, string-width) loads only for a table
  const { renderKeyValue } = await import("./table.js");
  return write(io, renderKeyValue(value, opts));
}

/** Print identifiers one per line (`-q`). */
export function renderIds(io: IO, ids: Array<number | string>): Promise<void> {
  return ids.length ? write(io, ids.map((i) => `${i}\n`).join("")) : Promise.resolve();
}
