import type { Writable } from "node:stream";
import { InputError } from "../../base/errors.js";
import { checkReportPath, openBulkJob } from "../../bulk/job.js";
import { bulkExitError, reportToFile, reportToStream } from "../../bulk/report.js";
import { hashFile } from "../../bulk/row-log.js";
import type { BulkRow, RowResult } from "../../bulk/runner.js";
import { IdentityIndex, identityOf } from "../../contract/identity.js";
import { recordId } from "../../contract/records.js";
import type { Deps } from "../../deps.js";
import * as depsModule from "../../deps.js";
import * as adapters from "../../files/adapters.js";
import * as formatModule from "../../files/format.js";
import * as resolverModule from "../../files/resolver.js";
import type { CheckedRow, FleetSource } from "../../files/source.js";
import * as sourceModule from "../../files/source.js";
import type { UndoScope } from "../../gateway/undo.js";
import { OWN_ENTRY, openBatch } from "../../gateway/undo.js";
import * as gateway from "../../gateway/vehicles.js";
import { withExtraHandles } from "../../ops/handles.js";
import { arg, flag } from "../flags.js";
import { defineVerb } from "../verb.js";
import { concurrencyFlag, DEFAULT_CONCURRENCY, noDedupeFlag } from "./concurrency.js";

export const verb = defineVerb({
  name: "import",
  description: "Create the vehicles of a fleet file: checked first, concurrent, resumable after any interruption",
  args: { file: arg.required("fleet file (.json, .ndjson, .yaml, .csv), or - for stdin with --format") },
  flags: {
    format: flag.string("--format <format>", "json, ndjson, yaml or csv (default: by extension)"),
    concurrency: concurrencyFlag("creates in flight at once, 1-16 (default 4)"),
    skipInvalid: flag.bool("--skip-invalid", "import the valid rows and report the others (exit 7)"),
    restart: flag.bool("--restart", "ignore the row log of an interrupted run of the same file"),
    report: flag.string("--report <file>", "write per-row results to FILE (format by extension)"),
    dedupe: noDedupeFlag(),
  },
  examples: [
    "rentctl vehicle import fleet.csv",
    "rentctl vehicle import fleet.yaml --dry-run",
    "rentctl vehicle import fleet.csv --concurrency 8 --report result.csv",
    "rentctl vehicle export -p staging | rentctl vehicle import - --format ndjson -p production",
  ],
  notes:
    "\nRows whose vehicle_reg_number already exists are skipped (exists). Interrupted? Run the same command again.\n",
  run: (deps, args, opts) => run(deps, args.file, opts),
});

/** What an import runs on. */
const load = async () => {
  return { ...depsModule, ...adapters, ...formatModule, ...resolverModule, ...sourceModule };
};
type Loaded = Awaited<ReturnType<typeof load>>;

export interface ImportOptions {
  format?: string;
  concurrency?: number;
  skipInvalid?: boolean;
  restart?: boolean;
  report?: string;
  /** false with --no-dedupe. */
  dedupe?: boolean;
}

const ORDER = ["created", "exists", "failed", "invalid"] as const;

/**
 * `vehicle import FILE`: check every row first (nothing sent if one is
 * invalid, unless --skip-invalid), list the account once, then create the
 * missing vehicles concurrently on the bulk engine, logged so that a rerun
 * after any interruption resumes with exactly one vehicle per row.
 */
export async function run(deps: Deps, file: string, opts: ImportOptions): Promise<void> {
  const m = await load();
  const format = m.formatFor(file, opts.format);
  const concurrency = opts.concurrency ?? DEFAULT_CONCURRENCY;
  const output = deps.settings().output;
  const source = await m.openSource(deps, file, format);
  try {
    await runImport(deps, m, source, { ...opts, workers: concurrency, output });
  } finally {
    await source.cleanup();
  }
}

/** Files up to this many rows are read once (their checked rows kept for sending); bigger ones twice. */
const KEEP_ROWS = 2_000;

async function runImport(
  deps: Deps,
  m: Loaded,
  source: FleetSource,
  opts: ImportOptions & { workers: number; output: string },
): Promise<void> {
  const started = Date.now();
  // The owner first: without one nothing else is worth reading.
  await m.requireUser(deps);
  // vehicle_extras by option name too, as wherever an extra is taken (src/ops/handles.ts)
  const resolver = withExtraHandles(deps, m.createNameResolver(await m.catalogPort(deps)));

  // The account, listed once while the file is checked (again only to
  // reconcile an interrupted run; see beforeReconcile below).
  const listAccount = async () => {
    const index = new IdentityIndex<number>();
    for await (const page of m.listVehicles(deps, { warn: (m) => deps.msg.warn(m), raw: true })) {
      for (const v of page) {
        const identity = identityOf(v as Record<string, unknown>);
        const id = recordId(v, "vehicle");
        if (identity && id !== undefined) index.add(identity, id);
      }
    }
    return index;
  };
  const firstListing = listAccount();
  firstListing.catch(() => {}); // an invalid file is reported first (awaited below)

  // Pass 1: every row checked; all problems listed by row and field. A small
  // file's rows are kept for pass 2 (memory stays bounded); a bigger one is
  // read again.
  const problems: Array<{ field: string; message: string }> = [];
  const invalid = new Map<number, CheckedRow>();
  let seen: IdentityIndex<number> | undefined = new IdentityIndex<number>();
  let kept: CheckedRow[] | undefined = [];
  let total = 0;
  for await (const r of m.checkedRows(deps, source, resolver, { checkImages: true })) {
    total++;
    if (kept && kept.length < KEEP_ROWS) kept.push(r);
    else kept = undefined;
    if (r.identity) {
      const dup = seen.find(r.identity);
      if (dup.length)
        r.problems.push({ field: "vehicle_reg_number", message: `same vehicle as row ${dup[0]} (${r.key})` });
      else seen.add(r.identity, r.row);
    }
    if (r.problems.length) {
      invalid.set(r.row, { ...r, record: undefined, images: [] });
      for (const p of r.problems)
        problems.push({ field: `row ${r.row}${r.key ? ` (${r.key})` : ""} ${p.field}`, message: p.message });
    }
  }
  seen = undefined; // the file's identities are not needed any more (memory stays flat)
  if (total === 0) throw new InputError(`${source.label}: no vehicles in the file`);
  if (invalid.size && !opts.skipInvalid) {
    throw new InputError(
      `${source.label}: ${invalid.size} of ${total} row${total === 1 ? "" : "s"} invalid (nothing was sent)`,
      { details: problems, hint: "fix the rows, or pass --skip-invalid to import the valid ones" },
    );
  }
  if (invalid.size) for (const p of problems) deps.msg.warn(`${p.field}: ${p.message}`);

  let account = await firstListing;

  // Pass 2: the valid rows, streamed into the job.
  async function* valid(): AsyncGenerator<BulkRow<CheckedRow>> {
    const rows = kept ?? m.checkedRows(deps, source, resolver, { checkImages: false });
    for await (const r of rows) {
      if (invalid.has(r.row) || !r.record) continue;
      yield { row: r.row, key: r.key, item: r };
    }
  }
  const known: RowResult[] = [...invalid.values()].map((r) => ({
    row: r.row,
    key: r.key,
    status: "invalid",
    error: r.problems.map((p) => `${p.field}: ${p.message}`).join("; "),
  }));

  if (deps.flags.dryRun)
    return dryRun(deps, {
      valid: valid(),
      account,
      known,
      output: opts.output,
      report: opts.report,
      started,
      formatFor: m.formatFor,
    });

  const job = await openBulkJob(deps, {
    job: "vehicle.import",
    contentHash: await hashFile(source.path),
    restart: opts.restart,
    what: `import of ${source.label}`,
    report: opts.report,
  });
  const count = total - invalid.size;
  try {
    // The same import ran meanwhile (this one waited for it): the account listed before is out of date.
    if (job.waited) account = await listAccount();
    // Undo: one batch entry, each created vehicle under it (`rentctl undo OP` removes them).
    const batch = await openBatch(deps, "vehicle.import", { file: source.label, create: count, log: job.log.file });
    const undo: UndoScope = batch ? { kind: "batch", batch } : OWN_ENTRY;
    await job.run<CheckedRow>({
      rows: valid(),
      total: count,
      concurrency: opts.workers,
      label: "importing",
      acting: `importing ${count} vehicle${count === 1 ? "" : "s"} from ${source.label}`,
      order: ORDER,
      quietIds: ["created"],
      report: opts.report,
      known,
      startedAt: started,
      // The account again, once the stopped run's creates have landed or timed out.
      beforeReconcile: async () => {
        account = await listAccount();
      },
      willWrite: (row) => !(row.item.identity && account.find(row.item.identity).length),
      identityCheck:
        opts.dedupe === false ? undefined : { statuses: ["created"], identity: (row) => row.item.identity },
      reconcile: async (row) => {
        const found = row.item.identity ? account.find(row.item.identity) : [];
        // Two with its identity (another run created it too): the newer one is the lost answer's
        // vehicle, and the identity check then keeps the older.
        return found.length ? { status: "created", id: Math.max(...found) } : undefined;
      },
      send: async (row, ctx) => {
        const item = row.item;
        const found = item.identity ? account.find(item.identity) : [];
        if (found.length) return { status: "exists", id: found[0] };
        let record = item.record!;
        if (item.images.length) {
          // Journaled before the create: a create that fails leaves them listed, and the rerun reuses them.
          const ids = await ctx.uploadOnce(item.images, (files) => gateway.uploadImages(deps, files, ctx.signal));
          const given = Array.isArray(record.vehicle_images) ? (record.vehicle_images as number[]) : [];
          record = { ...record, vehicle_images: [...given, ...ids] };
        }
        const id = await gateway.createVehicle(deps, record, {
          undo,
          beforeWrite: ctx.beforeWrite,
          signal: ctx.signal,
        });
        return { status: "created", id };
      },
      after: (summary) => {
        if (batch && summary.counts.get("created")) deps.msg.info(`undo with: rentctl undo ${batch.op}`);
      },
    });
  } finally {
    await job.close();
  }
}

/** `vehicle import --dry-run`: what would be created and what exists, by row; nothing sent. */
async function dryRun(
  deps: Deps,
  d: {
    valid: AsyncIterable<BulkRow<CheckedRow>>;
    account: IdentityIndex<number>;
    known: RowResult[];
    output: string;
    report?: string;
    started: number;
    formatFor: Loaded["formatFor"];
  },
): Promise<void> {
  if (d.report) await checkReportPath(d.report);
  const quiet = Boolean(deps.flags.quiet);
  const sinks = [];
  if (!quiet && d.output !== "table")
    sinks.push(await reportToStream(deps.io.stdout as Writable, d.formatFor("-", d.output)));
  if (d.report) sinks.push(await reportToFile(d.report));
  for (const r of d.known) for (const s of sinks) await s.add(r);
  const counts = { "would create": 0, exists: 0 };
  for await (const { item } of d.valid) {
    const found = item.identity ? d.account.find(item.identity) : [];
    const status = found.length ? "exists" : "would create";
    counts[status]++;
    if (d.output === "table" && !quiet)
      deps.io.stdout.write(
        `${found.length ? "=" : "+"} ${item.key}${found.length ? ` (exists: vehicle ${found[0]})` : ""}${item.images.length ? ` (+${item.images.length} images)` : ""}\n`,
      );
    for (const s of sinks) await s.add({ row: item.row, key: item.key, status, id: found[0] });
  }
  for (const s of sinks) await s.close();
  deps.io.stderr.write(
    `dry run: would create ${counts["would create"]}, exists ${counts.exists}, invalid ${d.known.length} (in ${((Date.now() - d.started) / 1000).toFixed(1)} s); nothing was sent\n`,
  );
  const noRows = {
    counts: new Map(),
    failed: [],
    fromRowLog: 0,
    reconciled: 0,
    resumed: false,
    interrupted: false,
    elapsedMs: 0,
  };
  const err = bulkExitError(noRows, d.known.length);
  if (err) throw err;
}
