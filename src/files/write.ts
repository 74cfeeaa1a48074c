import { once } from "node:events";
import { stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import type { Writable } from "node:stream";
import { UsageError } from "../base/errors.js";
import { loadCsv } from "../output/csv.js";
import { loadYaml } from "../output/yaml.js";
import type { FleetFormat } from "./format.js";

/**
 * A streaming writer of flat records in any fleet format, with back-pressure:
 * `write` resolves when the stream can take more. csv needs its columns up
 * front (arrays are joined with `|`, absent values are empty cells); json
 * writes an array, yaml a `vehicles:`-less list, ndjson one object per line.
 */
export interface RecordWriter {
  write(record: Record<string, unknown>): Promise<void>;
  /** Finish the document (closing bracket, csv flush); does not close `out`. */
  end(): Promise<void>;
}

async function put(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await once(out, "drain");
}

/**
 * A document streamed to stdout and cut short by a failure: its last line
 * makes sure no reader takes it for complete (`%` starts no YAML value, no
 * JSON line and is a row of one cell where csv has several), and says why.
 * An unclosed json array is refused as it is. The failure itself still ends
 * the command with its exit code.
 */
export async function endIncomplete(format: string, out: Writable, what: string, e: unknown): Promise<void> {
  if (format === "json") return;
  const why = (e instanceof Error ? e.message : String(e)).replace(/\s+/g, " ");
  await put(out, `%INCOMPLETE rentctl ${what} failed: ${why}\n`).catch(() => {});
}

export async function createRecordWriter(
  format: FleetFormat,
  out: Writable,
  columns: readonly string[],
): Promise<RecordWriter> {
  if (format === "ndjson") {
    return { write: (r) => put(out, `${JSON.stringify(r)}\n`), end: async () => {} };
  }
  if (format === "json") {
    let first = true;
    return {
      write: (r) => {
        const text = `${first ? "[\n" : ",\n"}  ${JSON.stringify(r)}`;
        first = false;
        return put(out, text);
      },
      end: () => put(out, first ? "[]\n" : "\n]\n"),
    };
  }
  if (format === "yaml") {
    const { stringify } = await loadYaml();
    let none = true;
    return {
      write: (r) => {
        none = false;
        return put(out, stringify([r], { lineWidth: 0 }));
      },
      // no record: the empty list, as json's `[]` (a yaml reader gets a list, never null)
      end: () => (none ? put(out, "[]\n") : Promise.resolve()),
    };
  }
  const { row: csvRow } = await loadCsv();
  let header = false;
  return {
    write: (r) => {
      // absent values are empty cells; the quoting rule is the one csv writer's
      const text = csvRow(
        columns.map((c) => r[c]),
        "\n",
      );
      const head = header ? "" : csvRow(columns, "\n");
      header = true;
      return put(out, head + text);
    },
    end: () => (header ? Promise.resolve() : put(out, csvRow(columns, "\n"))),
  };
}

/**
 * The directory a file is to be written in must exist (a report, an export):
 * said before anything is read, planned or sent, as one clear line (exit 2).
 */
export async function checkTargetDir(path: string, what: string): Promise<void> {
  if (path.trim() === "")
    throw new UsageError(`${what}: the file name is empty`, { hint: "give a file name, or - for stdout" });
  const dir = dirname(resolve(path));
  const s = await stat(dir).catch(() => undefined);
  if (!s?.isDirectory())
    throw new UsageError(`${what}: ${s ? `${dir} is not a directory` : `directory ${dir} does not exist`}`, {
      hint: "create the directory first, or give the file another path",
    });
}

/** Write a whole file safely (temp file, fsync, rename): the one implementation, in src/base/temp-files.ts. */
export { writeFileAtomic } from "../base/temp-files.js";
