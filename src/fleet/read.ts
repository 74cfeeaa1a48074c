import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { InputError } from "../errors.js";
import type { FleetFormat } from "./format.js";

/** One row of a fleet file as written: its 1-based number and its members. */
export interface RawRow {
  row: number;
  data: Record<string, unknown>;
  /** csv: every value is text (arrays `|`-joined, empty = absent). */
  textual: boolean;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function notObject(row: number, v: unknown): InputError {
  return new InputError(`row ${row}: expected an object of fields, got ${Array.isArray(v) ? "a list" : typeof v}`);
}

/**
 * Read the rows of a fleet file. ndjson and csv are streamed (memory stays
 * flat whatever the size); json and yaml documents are parsed whole. A file
 * that cannot be parsed is an InputError (exit 2) naming the row or line.
 */
export async function* readRows(path: string, format: FleetFormat): AsyncGenerator<RawRow> {
  if (format === "ndjson") {
    // Lines are split by hand: readline's async iterator queues lines ahead of a slow
    // consumer, pulling stream chunks keeps back-pressure (memory flat on big files).
    let n = 0;
    let line = 0;
    let rest = "";
    const parse = (text: string): RawRow | undefined => {
      line++;
      const t = (line === 1 ? text.replace(/^\uFEFF/, "") : text).replace(/\r$/, "");
      if (!t.trim()) return undefined;
      n++;
      let v: unknown;
      try {
        v = JSON.parse(t);
      } catch (e) {
        throw new InputError(`line ${line}: not JSON: ${(e as Error).message}`);
      }
      if (!isPlainObject(v)) throw notObject(n, v);
      return { row: n, data: v, textual: false };
    };
    for await (const chunk of createReadStream(path, { encoding: "utf8" })) {
      const parts = (rest + (chunk as string)).split("\n");
      rest = parts.pop() ?? "";
      for (const text of parts) {
        const r = parse(text);
        if (r) yield r;
      }
    }
    const last = rest ? parse(rest) : undefined;
    if (last) yield last;
    return;
  }
  if (format === "csv") {
    const { parse } = await import("csv-parse");
    const delimiter = await csvDelimiter(path);
    const parser = createReadStream(path).pipe(
      parse({
        columns: (h: string[]) => h.map((c) => c.trim()),
        bom: true,
        skip_empty_lines: true,
        trim: false,
        delimiter,
      }),
    );
    let n = 0;
    try {
      for await (const rec of parser) {
        n++;
        yield { row: n, data: rec as Record<string, unknown>, textual: true };
      }
    } catch (e) {
      if (e instanceof InputError) throw e;
      throw new InputError(`csv: ${(e as Error).message}`);
    }
    return;
  }
  const text = (await readFile(path, "utf8")).replace(/^\uFEFF/, "");
  let doc: unknown;
  try {
    if (format === "json") doc = JSON.parse(text);
    else {
      const { parse } = await (await import("../output/yaml.js")).loadYaml();
      doc = parse(text);
    }
  } catch (e) {
    throw new InputError(`not valid ${format}: ${(e as Error).message}`);
  }
  if (isPlainObject(doc) && Array.isArray(doc.vehicles)) doc = doc.vehicles;
  if (doc === null || doc === undefined) doc = [];
  if (!Array.isArray(doc))
    throw new InputError(`expected a list of vehicles${format === "yaml" ? " (or a `vehicles:` list)" : ""}`);
  let n = 0;
  for (const v of doc) {
    n++;
    if (!isPlainObject(v)) throw notObject(n, v);
    yield { row: n, data: v, textual: false };
  }
}

/**
 * The separator of a csv file, from its header line: `,` when the header has
 * one; else `;` (what spreadsheet programs write in many locales) or a tab
 * when the header has those. A header names fields, which hold no separators,
 * so this cannot misread a file that reads as comma-separated.
 */
export async function csvDelimiter(path: string): Promise<string> {
  const { open } = await import("node:fs/promises");
  let head = "";
  try {
    const fh = await open(path, "r");
    try {
      const buf = Buffer.alloc(64 * 1024);
      const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
      head = buf.subarray(0, bytesRead).toString("utf8");
    } finally {
      await fh.close();
    }
  } catch {
    return ","; // the parser's own read says what is wrong with the file
  }
  const line = head.replace(/^\uFEFF/, "").split(/\r?\n/, 1)[0] ?? "";
  if (line.includes(",")) return ",";
  if (line.includes(";")) return ";";
  if (line.includes("\t")) return "\t";
  return ",";
}
