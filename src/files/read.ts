import { createReadStream } from "node:fs";
import { open, readFile, stat } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import { InputError } from "../base/errors.js";
import { unguardCell } from "../output/csv.js";
import { readDocument, WHOLE_FILE_BYTES } from "./doc-stream.js";
import type { FleetFormat } from "./format.js";
import { checkJson, decodeUtf8, MAX_ROW_BYTES, rowTooLarge, Utf8Check } from "./input-limits.js";
import { parseYaml } from "./yaml.js";

/** The file as checked UTF-8 text chunks (errors of the read and of the check both end the loop). */
function checkedText(path: string): AsyncIterable<string> {
  const check = new Utf8Check("ndjson");
  pipeline(createReadStream(path), check).catch(() => {
    // check is destroyed with the error: its reader sees it
  });
  check.setEncoding("utf8");
  return check as AsyncIterable<string>;
}

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
  return new InputError(
    `row ${row}: expected an object of fields, got ${Array.isArray(v) ? "a list" : v === null ? "null" : typeof v}`,
  );
}

/**
 * Read the rows of a fleet file. ndjson and csv are streamed (memory stays
 * flat whatever the size); json and yaml documents are parsed whole up to
 * WHOLE_FILE_BYTES, larger ones streamed item by item. A file
 * that cannot be parsed is an InputError (exit 2) naming the row or line.
 */
export async function* readRows(path: string, format: FleetFormat, label = path): AsyncGenerator<RawRow> {
  try {
    yield* rowsOf(path, format);
  } catch (e) {
    throw fileError(e, label);
  }
}

/** Every error of a file names the file (then the row or line, then the column or member): `x.yaml: not valid yaml: …`. */
export function fileError(e: unknown, label: string): unknown {
  if (e instanceof InputError && !e.message.startsWith(label)) e.message = `${label}: ${e.message}`;
  return e;
}

async function* rowsOf(path: string, format: FleetFormat): AsyncGenerator<RawRow> {
  if (format === "ndjson") {
    // Lines are split by hand: readline's async iterator queues lines ahead of a slow
    // consumer, pulling stream chunks keeps back-pressure (memory flat on big files).
    // A line's pieces are joined once, at its end (linear in its length), and a line
    // longer than the row limit is refused as soon as it is (memory bounded).
    let n = 0;
    let line = 0;
    let pieces: string[] = [];
    let pending = 0;
    const parse = (text: string): RawRow | undefined => {
      line++;
      const t = (line === 1 ? text.replace(/^\uFEFF/, "") : text).replace(/\r$/, "");
      if (!t.trim()) return undefined;
      n++;
      let v: unknown;
      try {
        v = (checkJson(t, () => `line ${line}`) ?? { value: JSON.parse(t) }).value;
      } catch (e) {
        if (e instanceof InputError) throw e;
        throw new InputError(`line ${line}: not JSON: ${(e as Error).message}`);
      }
      if (!isPlainObject(v)) throw notObject(n, v);
      return { row: n, data: v, textual: false };
    };
    for await (const chunk of checkedText(path)) {
      let from = 0;
      for (let nl = chunk.indexOf("\n"); nl >= 0; nl = chunk.indexOf("\n", from)) {
        pieces.push(chunk.slice(from, nl));
        if (pending + nl - from > MAX_ROW_BYTES) throw rowTooLarge(`line ${line + 1}`, n + 1);
        const r = parse(pieces.join(""));
        pieces = [];
        pending = 0;
        from = nl + 1;
        if (r) yield r;
      }
      if (from < chunk.length) {
        pieces.push(chunk.slice(from));
        pending += chunk.length - from;
        if (pending > MAX_ROW_BYTES) throw rowTooLarge(`line ${line + 1}`, n + 1);
      }
    }
    if (pending > MAX_ROW_BYTES) throw rowTooLarge(`line ${line + 1}`, n + 1);
    const last = pieces.length ? parse(pieces.join("")) : undefined;
    if (last) yield last;
    return;
  }
  if (format === "csv") {
    // a seam: the csv reader (csv-parse) loads only for a csv file
    const { parse } = await import("csv-parse");
    const delimiter = await csvDelimiter(path);
    const parser = parse({
      columns: (h: string[]) => {
        const names = h.map((c) => c.trim());
        const twice = names.find((c, i) => c !== "" && names.indexOf(c) !== i);
        // the last one would win silently
        if (twice !== undefined)
          throw new InputError(`csv: column ${JSON.stringify(twice)} appears twice in the header`);
        return names;
      },
      bom: true,
      skip_empty_lines: true,
      trim: false,
      delimiter,
      max_record_size: MAX_ROW_BYTES,
      // an unquoted cell is trimmed (`AB-1, 50` as people type it); a quoted one is kept as written
      // (the export quotes a value with whitespace at either end, so it reads back the same)
      // and the formula guard the csv writer puts before `=`, `+`, `-`, `@` (src/output/csv.ts) comes off
      cast: (value, ctx) => (ctx.header ? value : unguardCell(ctx.quoting ? value : value.trim())),
    });
    pipeline(createReadStream(path), new Utf8Check("csv"), parser).catch(() => {
      // the parser is destroyed with the error: the loop below reports it
    });
    let n = 0;
    try {
      for await (const rec of parser) {
        n++;
        yield { row: n, data: rec as Record<string, unknown>, textual: true };
      }
    } catch (e) {
      if (e instanceof InputError) throw e;
      const code = (e as { code?: string }).code;
      if (code === "CSV_MAX_RECORD_SIZE") throw rowTooLarge("csv", n + 1);
      // an error thrown by the header check comes back wrapped by the parser
      if ((e as { cause?: unknown }).cause instanceof InputError) throw (e as { cause: InputError }).cause;
      throw new InputError(`csv: ${(e as Error).message}`);
    }
    return;
  }
  if ((await stat(path)).size > WHOLE_FILE_BYTES) {
    yield* streamedRows(path, format);
    return;
  }
  const text = decodeUtf8(await readFile(path), format).replace(/^\uFEFF/, "");
  let doc: unknown;
  try {
    if (format === "json") {
      doc = (
        checkJson(text, (i) => (/^\s*\[/.test(text) ? `row ${i + 1}` : "the document")) ?? { value: JSON.parse(text) }
      ).value;
    } else {
      doc = parseYaml(text);
    }
  } catch (e) {
    if (e instanceof InputError) throw e;
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

/** The rows of a large json or yaml file, each parsed as it is read: the same rows as a whole parse. */
async function* streamedRows(path: string, format: "json" | "yaml"): AsyncGenerator<RawRow> {
  let shape: string | undefined;
  let listed = false;
  for await (const e of readDocument(path, format, ["vehicles"])) {
    if (e.type === "shape") shape = e.shape;
    else if (e.type === "open") listed = true;
    else if (e.type === "item") {
      if (!isPlainObject(e.value)) throw notObject(e.index, e.value);
      yield { row: e.index, data: e.value, textual: false };
    }
  }
  if (shape === "mapping" && !listed)
    throw new InputError(`expected a list of vehicles${format === "yaml" ? " (or a `vehicles:` list)" : ""}`);
}

/**
 * The separator of a csv file, from its header line: `,` when the header has
 * one; else `;` (what spreadsheet programs write in many locales) or a tab
 * when the header has those. A header names fields, which hold no separators,
 * so this cannot misread a file that reads as comma-separated.
 */
export async function csvDelimiter(path: string): Promise<string> {
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
