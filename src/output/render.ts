import type { Json, JsonObject } from "../contract/records.js";
import type { IO } from "../io.js";
import { csvRow } from "./csv.js";
import { type Column, getPath, pickFields, type RenderOptions } from "./fields.js";
import { loadYaml } from "./yaml.js";

export { type Column, getPath, pickFields, type RenderOptions };

export interface ListWriter {
  push(items: JsonObject[]): Promise<void>;
  end(): Promise<void>;
}

/**
 * One entry for every output format. Results go to stdout; everything for
 * humans goes to stderr through `Messages`.
 *
 * - json: a list prints the array of items; a single record prints the object.
 * - ndjson and csv stream: each `push` prints its rows at once.
 * - table and yaml (and json) collect and print at `end`.
 * - `fields` selects and orders columns / keys.
 */

function columnsFor(items: JsonObject[], opts: RenderOptions): Column[] {
  if (opts.fields) return opts.fields.map((key) => ({ key }));
  if (opts.columns) return opts.columns;
  const keys: string[] = [];
  for (const item of items) for (const k of Object.keys(item)) if (!keys.includes(k)) keys.push(k);
  return keys.map((key) => ({ key }));
}

function write(io: IO, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (io.stdout.write(text)) resolve();
    else io.stdout.once("drain", () => resolve());
  });
}

export function createListWriter(opts: RenderOptions): ListWriter {
  const { io, format } = opts;
  const buffered: JsonObject[] = [];
  let csvColumns: Column[] | undefined;
  return {
    async push(items) {
      if (format === "ndjson") {
        await write(io, items.map((i) => `${JSON.stringify(pickFields(i, opts.fields))}\n`).join(""));
      } else if (format === "csv") {
        let text = "";
        if (!csvColumns) {
          csvColumns = opts.fields ? opts.fields.map((key) => ({ key })) : (opts.columns ?? columnsFor(items, opts));
          text += csvRow(csvColumns.map((c) => c.key));
        }
        for (const item of items) text += csvRow(csvColumns.map((c) => getPath(item, c.key)));
        await write(io, text);
      } else buffered.push(...items);
    },
    async end() {
      if (format === "ndjson") return;
      if (format === "csv") {
        if (!csvColumns && (opts.fields || opts.columns)) {
          const cols = opts.fields ? opts.fields.map((key) => ({ key })) : opts.columns!;
          await write(io, csvRow(cols.map((c) => c.key)));
        }
        return;
      }
      if (format === "json")
        await write(
          io,
          `${JSON.stringify(
            buffered.map((i) => pickFields(i, opts.fields)),
            null,
            2,
          )}\n`,
        );
      else if (format === "yaml") {
        const { stringify } = await loadYaml();
        await write(io, buffered.length ? stringify(buffered.map((i) => pickFields(i, opts.fields))) : "[]\n");
      } else {
        if (buffered.length === 0) return;
        const { renderTable } = await import("./table.js");
        await write(io, renderTable(buffered, columnsFor(buffered, opts), opts));
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
  const value =
    typeof record === "object" && record !== null && !Array.isArray(record) ? pickFields(record, opts.fields) : record;
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
    return write(io, csvRow(keys) + csvRow(keys.map((k) => value[k])));
  }
  const { renderKeyValue } = await import("./table.js");
  return write(io, renderKeyValue(value, opts));
}

/** Print identifiers one per line (`-q`). */
export function renderIds(io: IO, ids: Array<number | string>): Promise<void> {
  return ids.length ? write(io, ids.map((i) => `${i}\n`).join("")) : Promise.resolve();
}
