import { createWriteStream } from "node:fs";
import { mkdir, stat, unlink } from "node:fs/promises";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { pipeline } from "node:stream/promises";
import type { EncodableRecord } from "../api/encode.js";
import { InputError } from "../base/errors.js";
import { type Identity, identityOf, showIdentity } from "../contract/identity.js";
import type { CoreDeps, Deps } from "../deps.js";
import { checkVehicle } from "./adapters.js";
import { mapRow, type RowProblem } from "./fields.js";
import type { FleetFormat } from "./format.js";
import { readRows } from "./read.js";
import { localRowProblems, type NameResolver, resolveRowNames } from "./resolver.js";

/**
 * A fleet file ready to be read (twice: once to check every row, once to
 * send). stdin is spooled to a private temp file first, so both passes and
 * the journal's content hash see the same bytes.
 */
export interface FleetSource {
  path: string;
  /** Image paths are relative to this directory (the data file's; the working directory for stdin). */
  baseDir: string;
  format: FleetFormat;
  label: string;
  cleanup(): Promise<void>;
}

/** Open a fleet or account file; `-` is stdin (spooled to the data dir), for a front end that has one (`io`). */
export async function openSource(
  deps: CoreDeps & Partial<Pick<Deps, "io">>,
  file: string,
  format: FleetFormat,
): Promise<FleetSource> {
  if (file !== "-") {
    const s = await stat(file).catch(() => undefined);
    if (!s?.isFile()) throw new InputError(`cannot read ${file}: ${s ? "not a regular file" : "no such file"}`);
    return { path: file, baseDir: dirname(resolve(file)), format, label: file, cleanup: async () => {} };
  }
  if (!deps.io) throw new InputError("- (stdin) is the command line's: give a file path or a document");
  const dir = join(deps.paths.dataDir, "bulk");
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, `stdin-${process.pid}-${Date.now()}.tmp`);
  await pipeline(deps.io.stdin, createWriteStream(path, { mode: 0o600 }));
  return { path, baseDir: process.cwd(), format, label: "stdin", cleanup: () => unlink(path).catch(() => {}) };
}

export interface CheckedRow {
  row: number;
  /** The registration number as written (reports). */
  key: string;
  identity?: Identity;
  /** The record to send (owner, locale and catalog ids filled in); absent when invalid. */
  record?: EncodableRecord;
  /** Absolute image file paths to upload. */
  images: string[];
  problems: RowProblem[];
}

async function imageProblems(files: string[]): Promise<RowProblem[]> {
  const out: RowProblem[] = [];
  for (const f of files) {
    const s = await stat(f).catch(() => undefined);
    if (!s) out.push({ field: "images", message: `${f} does not exist` });
    else if (!s.isFile()) out.push({ field: "images", message: `${f} is not a regular file` });
    else if (s.size === 0) out.push({ field: "images", message: `${f} is empty` });
  }
  return out;
}

const YIELD_EVERY = 32;

/** Every row, mapped, names resolved (memoised) and checked as `vehicle create` checks. */
export async function* checkedRows(
  deps: CoreDeps,
  source: FleetSource,
  resolver: NameResolver,
  opts: { checkImages: boolean },
): AsyncGenerator<CheckedRow> {
  let n = 0;
  for await (const raw of readRows(source.path, source.format, source.label)) {
    // Checking rows is all CPU: let I/O in now and then, so that work running
    // beside it (import lists the account meanwhile) keeps its requests going.
    if (++n % YIELD_EVERY === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const mapped = mapRow(raw.data);
    const problems = [...mapped.problems];
    // the checks that need no server first (src/contract/refs.ts): a row with a local mistake reads no catalog
    const local = localRowProblems(resolver, mapped.values, true);
    if (local.length) problems.push(...local.filter((p) => !problems.some((q) => q.field === p.field)));
    else problems.push(...(await resolveRowNames(resolver, mapped.values)));
    const images = mapped.images.map((p) => (isAbsolute(p) ? p : resolve(source.baseDir, p)));
    if (opts.checkImages) problems.push(...(await imageProblems(images)));
    let record: EncodableRecord | undefined;
    if (local.length) {
      // every local problem is listed already; the rest waits until those are fixed
    } else if (!problems.some((p) => !p.field.startsWith("images"))) {
      const checked = await checkVehicle(deps, mapped.values);
      problems.push(...checked.problems);
      record = checked.record;
    } else {
      // still report the contract problems of the fields that did map
      problems.push(
        ...(await checkVehicle(deps, mapped.values)).problems.filter((p) => !problems.some((q) => q.field === p.field)),
      );
    }
    yield {
      row: raw.row,
      key: showIdentity(mapped.values),
      identity: identityOf(mapped.values),
      record: problems.length ? undefined : record,
      images,
      problems,
    };
  }
}
