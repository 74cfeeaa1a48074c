import type { Writable } from "node:stream";
import type { BulkRow, ReportSink, RowResult } from "../../bulk/index.js";
import { IdentityIndex, identityOf } from "../../contract/identity.js";
import { recordId } from "../../contract/records.js";
import type { Deps } from "../../deps.js";
import { requireUser } from "../../deps.js";
import { InputError, UsageError } from "../../errors.js";
import { catalogPort, listVehicles, sendCreate, uploadFiles } from "../../fleet/adapters.js";
import { formatFor } from "../../fleet/format.js";
import { createNameResolver } from "../../fleet/resolver.js";
import { type CheckedRow, checkedRows, openSource } from "../../fleet/source.js";

export interface ImportOptions {
  format?: string;
  concurrency?: string;
  skipInvalid?: boolean;
  restart?: boolean;
  report?: string;
}

const ORDER = ["created", "exists", "failed", "invalid"] as const;

export function parseConcurrency(v: string | undefined): number {
  if (v === undefined) return 4;
  const n = Number(v);
  if (!/^\d+$/.test(v.trim()) || n < 1 || n > 16)
    throw new UsageError(`--concurrency: expected a whole number from 1 to 16, got ${JSON.stringify(v)}`);
  return n;
}

/**
 * `vehicle import FILE`: check every row first (nothing sent if one is
 * invalid, unless --skip-invalid), list the account once, then create the
 * missing vehicles concurrently on the bulk engine, journaled so that a rerun
 * after any interruption resumes with exactly one vehicle per row.
 */
export async function run(deps: Deps, file: string, opts: ImportOptions): Promise<void> {
  const format = formatFor(file, opts.format);
  const concurrency = parseConcurrency(opts.concurrency);
  const output = deps.settings().output;
  const source = await openSource(deps, file, format);
  try {
    await runImport(deps, source, { ...opts, workers: concurrency, output });
  } finally {
    await source.cleanup();
  }
}

/** Files up to this many rows are read once (their checked rows kept for sending); bigger ones twice. */
const KEEP_ROWS = 2_000;

async function runImport(
  deps: Deps,
  source: Awaited<ReturnType<typeof openSource>>,
  opts: ImportOptions & { workers: number; output: string },
): Promise<void> {
  const started = Date.now();
  const target = await deps.target();
  const owner = await requireUser(deps);
  const resolver = createNameResolver(await catalogPort(deps));

  // The account, listed once while the file is checked (again only to
  // reconcile an interrupted run; see beforeReconcile below).
  const listAccount = async () => {
    const index = new IdentityIndex<number>();
    for await (const page of listVehicles(deps, { warn: (m) => deps.msg.warn(m), raw: true })) {
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
  for await (const r of checkedRows(deps, source, resolver, { checkImages: true })) {
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

  // Reports: per-row results on stdout (-o) and/or in a file (--report); ids with -q.
  const {
    reportToFile,
    reportToStream,
    createProgress,
    runBulk,
    summaryLine,
    bulkExitError,
    RowLog,
    hashFile,
    interruptOnCtrlC,
    settleInFlight,
  } = await import("../../bulk/index.js");
  const sinks: ReportSink[] = [];
  const quiet = Boolean(deps.flags.quiet);
  if (!quiet && opts.output !== "table")
    sinks.push(
      await reportToStream(deps.io.stdout as Writable, formatFor("-", opts.output === "yaml" ? "yaml" : opts.output)),
    );
  if (opts.report) sinks.push(await reportToFile(opts.report));
  const emit = async (r: RowResult) => {
    for (const s of sinks) await s.add(r);
    if (quiet && r.status === "created" && r.id !== undefined) deps.io.stdout.write(`${r.id}\n`);
  };
  for (const r of invalid.values())
    await emit({
      row: r.row,
      key: r.key,
      status: "invalid",
      error: r.problems.map((p) => `${p.field}: ${p.message}`).join("; "),
    });

  // Pass 2: the valid rows, streamed into the engine.
  async function* valid(): AsyncGenerator<BulkRow<CheckedRow>> {
    const rows = kept ?? checkedRows(deps, source, resolver, { checkImages: false });
    for await (const r of rows) {
      if (invalid.has(r.row) || !r.record) continue;
      yield { row: r.row, key: r.key, item: r };
    }
  }

  if (deps.flags.dryRun) {
    const counts = { "would create": 0, exists: 0 };
    for await (const { item } of valid()) {
      const found = item.identity ? account.find(item.identity) : [];
      if (found.length) counts.exists++;
      else counts["would create"]++;
      const status = found.length ? "exists" : "would create";
      if (opts.output === "table" && !quiet)
        deps.io.stdout.write(
          `${found.length ? "=" : "+"} ${item.key}${found.length ? ` (exists: vehicle ${found[0]})` : ""}${item.images.length ? ` (+${item.images.length} images)` : ""}\n`,
        );
      await emit({ row: item.row, key: item.key, status, id: found[0] });
    }
    for (const s of sinks) await s.close();
    deps.io.stderr.write(
      `dry run: would create ${counts["would create"]}, exists ${counts.exists}, invalid ${invalid.size} (in ${((Date.now() - started) / 1000).toFixed(1)} s); nothing was sent\n`,
    );
    if (invalid.size)
      throw bulkExitError(
        {
          counts: new Map(),
          failed: [],
          fromJournal: 0,
          reconciled: 0,
          resumed: false,
          interrupted: false,
          elapsedMs: 0,
        },
        invalid.size,
      )!;
    return;
  }

  const journal = await RowLog.open(
    deps.paths.dataDir,
    {
      job: "vehicle.import",
      env: target.env,
      baseUrl: target.baseUrl,
      owner,
      contentHash: await hashFile(source.path),
    },
    { restart: opts.restart },
  );
  if (journal.resumed) deps.msg.info(`resuming an interrupted import of ${source.label} (--restart to start afresh)`);
  deps.msg.acting(
    target,
    `importing ${total - invalid.size} vehicle${total - invalid.size === 1 ? "" : "s"} from ${source.label}`,
  );
  const progress = await createProgress(deps.io.stderr, deps.io.stderrTTY && !quiet, total - invalid.size, "importing");
  (await deps.client()).limitConnections(opts.workers);
  const control = interruptOnCtrlC(deps.io.stderr);
  let summary: Awaited<ReturnType<typeof runBulk>>;
  try {
    summary = await runBulk<CheckedRow>({
      rows: valid(),
      total: total - invalid.size,
      concurrency: opts.workers,
      journal,
      control,
      beforeReconcile: async (inFlight) => {
        // A create of the killed run may still be on its way: let it land (or time out) before looking.
        await settleInFlight(inFlight, deps.settings().timeoutMs, (m) => deps.msg.info(m));
        account = await listAccount();
      },
      willWrite: (row) => !(row.item.identity && account.find(row.item.identity).length),
      reconcile: async (row) => {
        const found = row.item.identity ? account.find(row.item.identity) : [];
        return found.length ? { status: "created", id: found[0] } : undefined;
      },
      task: async (row, ctx) => {
        const item = row.item;
        const found = item.identity ? account.find(item.identity) : [];
        if (found.length) return { status: "exists", id: found[0] };
        let record = item.record!;
        if (item.images.length) {
          const ids = await uploadFiles(deps, item.images, ctx.signal);
          const given = Array.isArray(record.vehicle_images) ? (record.vehicle_images as number[]) : [];
          record = { ...record, vehicle_images: [...given, ...ids] };
        }
        await ctx.beforeWrite();
        const id = await sendCreate(deps, record, ctx.signal);
        return { status: "created", id };
      },
      onResult: async (r) => {
        progress.tick();
        await emit(r);
      },
    });
  } finally {
    control.uninstall();
    progress.stop();
  }
  for (const s of sinks) await s.close();
  if (invalid.size) summary.counts.set("invalid", invalid.size);
  summary.elapsedMs = Date.now() - started;
  deps.io.stderr.write(`${summaryLine(summary, ORDER)}\n`);
  const err = bulkExitError(summary, invalid.size);
  if (!summary.interrupted && !summary.stoppedBy && summary.failed.length === 0) await journal.finish();
  else await journal.close();
  if (err) throw err;
}
