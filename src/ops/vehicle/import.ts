import { checkConcurrency } from "../../base/concurrency.js";
import { InputError } from "../../base/errors.js";
import { type BulkJobResult, bulkJobResult, openBulkJob } from "../../bulk/job.js";
import { hashFile } from "../../bulk/row-log.js";
import type { BulkRow, RowResult } from "../../bulk/runner.js";
import { requireUser } from "../../config/target.js";
import { IdentityIndex, identityOf } from "../../contract/identity.js";
import { recordId } from "../../contract/records.js";
import type { Deps } from "../../deps.js";
import { catalogPort, listVehicles } from "../../files/adapters.js";
import { createNameResolver } from "../../files/resolver.js";
import { type CheckedRow, checkedRows, type FleetSource } from "../../files/source.js";
import { OWN_ENTRY, openBatch, type UndoScope } from "../../gateway/undo.js";
import { createVehicle, uploadImages } from "../../gateway/vehicles.js";
import { withExtraHandles } from "../../plans/extra-names.js";
import type { OpContext, OpOptions } from "../context.js";
import { type FleetFileSource, openFleetSource } from "./diff.js";

/**
 * Create the vehicles of a fleet file (`vehicle import`): every row checked first (nothing sent if
 * one is invalid, unless `skipInvalid`), the account listed once, then the missing vehicles created
 * concurrently on the bulk job, logged so that a rerun after any interruption resumes with exactly
 * one vehicle per row; one undo op. Rows whose vehicle exists are `exists`.
 */

export interface ImportFleetInput {
  source: FleetFileSource;
  /** Creates in flight at once (the one bound, src/base/concurrency.ts); default 4. */
  concurrency?: number;
  /** Import the valid rows and report the others (`invalid`; the import then fails with exit 7). */
  skipInvalid?: boolean;
  /** Ignore the row log of an interrupted run of the same file. */
  restart?: boolean;
  /** Per-row results to this file (format by extension). */
  report?: string;
  /** false: no identity check after the creates. */
  dedupe?: boolean;
  /** When the front end's command started (the summary's time; default now). */
  started?: number;
}

/** A row's outcome as the import learns it (as it finishes: not in file order). */
export interface ImportRowProgress extends RowResult {
  done: number;
  total: number;
}

/** Rows per outcome (created, exists, failed, invalid), the failed rows, the undo op that removes the created vehicles. */
export type ImportResult = BulkJobResult;

/** A row of a dry run: what the import would do with it (`would create`, `exists`, `invalid`). */
export interface ImportPreviewRow extends RowResult {
  /** Image files the row would upload. */
  imageFiles: number;
}

export interface ImportPreview {
  counts: { "would create": number; exists: number; invalid: number };
}

const ORDER = ["created", "exists", "failed", "invalid"] as const;

/** Files up to this many rows are read once (their checked rows kept for sending); bigger ones twice. */
const KEEP_ROWS = 2_000;

/** The account's vehicles by identity. */
async function listIdentities(ctx: OpContext): Promise<IdentityIndex<number>> {
  const index = new IdentityIndex<number>();
  for await (const page of listVehicles(ctx, { warn: (m) => ctx.msg.warn(m), raw: true })) {
    for (const v of page) {
      const identity = identityOf(v as Record<string, unknown>);
      const id = recordId(v, "vehicle");
      if (identity && id !== undefined) index.add(identity, id);
    }
  }
  return index;
}

interface Checked {
  source: FleetSource;
  total: number;
  invalid: RowResult[];
  /** The valid rows, in file order (read again when the file is big). */
  valid(): AsyncGenerator<BulkRow<CheckedRow>>;
  /** The account as listed while the file was checked. */
  account: Promise<IdentityIndex<number>>;
}

/**
 * Pass 1: every row checked; all problems listed by row and field (one InputError unless
 * skipInvalid; then they are warned). A small file's rows are kept for pass 2 (memory stays
 * bounded); a bigger one is read again. The account is listed meanwhile.
 */
async function checkFile(ctx: OpContext, source: FleetSource, input: ImportFleetInput): Promise<Checked> {
  // The owner first: without one nothing else is worth reading.
  await requireUser(ctx);
  // vehicle_extras by option name too, as wherever an extra is taken (src/ops/handles.ts)
  const resolver = withExtraHandles(ctx, createNameResolver(await catalogPort(ctx)));
  const account = listIdentities(ctx);
  account.catch(() => {}); // an invalid file is reported first
  const problems: Array<{ field: string; message: string }> = [];
  const invalid = new Map<number, CheckedRow>();
  let seen: IdentityIndex<number> | undefined = new IdentityIndex<number>();
  let kept: CheckedRow[] | undefined = [];
  let total = 0;
  for await (const r of checkedRows(ctx, source, resolver, { checkImages: true })) {
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
  if (invalid.size && !input.skipInvalid) {
    throw new InputError(
      `${source.label}: ${invalid.size} of ${total} row${total === 1 ? "" : "s"} invalid (nothing was sent)`,
      { details: problems, hint: "fix the rows, or pass --skip-invalid to import the valid ones" },
    );
  }
  if (invalid.size) for (const p of problems) ctx.msg.warn(`${p.field}: ${p.message}`);
  const rows = kept;
  async function* valid(): AsyncGenerator<BulkRow<CheckedRow>> {
    for await (const r of rows ?? checkedRows(ctx, source, resolver, { checkImages: false })) {
      if (invalid.has(r.row) || !r.record) continue;
      yield { row: r.row, key: r.key, item: r };
    }
  }
  return {
    source,
    total,
    account,
    valid,
    invalid: [...invalid.values()].map((r) => ({
      row: r.row,
      key: r.key,
      status: "invalid",
      error: r.problems.map((p) => `${p.field}: ${p.message}`).join("; "),
    })),
  };
}

/**
 * What an import would do, row by row in file order (`onRow`), nothing sent (`vehicle import --dry-run`).
 * An invalid file is an InputError unless skipInvalid.
 */
export async function previewImport(
  ctx: OpContext,
  input: ImportFleetInput,
  opts: { onRow?: (row: ImportPreviewRow) => void | Promise<void> } = {},
): Promise<ImportPreview> {
  const source = await openFleetSource(ctx, input.source);
  try {
    const c = await checkFile(ctx, source, input);
    const account = await c.account;
    const counts = { "would create": 0, exists: 0, invalid: c.invalid.length };
    const invalid = [...c.invalid].sort((a, b) => a.row - b.row);
    let k = 0;
    const say = async (r: ImportPreviewRow) => {
      await opts.onRow?.(r);
    };
    for await (const { item } of c.valid()) {
      while (k < invalid.length && invalid[k]!.row < item.row) await say({ ...invalid[k++]!, imageFiles: 0 });
      const found = item.identity ? account.find(item.identity) : [];
      const status = found.length ? "exists" : "would create";
      counts[status]++;
      await say({
        row: item.row,
        key: item.key,
        status,
        ...(found.length ? { id: found[0] } : {}),
        imageFiles: item.images.length,
      });
    }
    while (k < invalid.length) await say({ ...invalid[k++]!, imageFiles: 0 });
    return { counts };
  } finally {
    await source.cleanup();
  }
}

/**
 * Import a fleet file. Per-row results are reported by the bulk job in file order (stdout with a
 * structured -o, `report`); `onProgress` hears each row as it finishes; `signal` stops it as
 * Ctrl-C does (the rows in flight finish and are logged; then InterruptedError).
 *
 * The context is the full Deps while the bulk job (src/bulk) takes it, as applyAccountPlan's.
 */
export async function importFleet(
  ctx: Deps,
  input: ImportFleetInput,
  opts: OpOptions<ImportRowProgress> = {},
): Promise<ImportResult> {
  const started = input.started ?? Date.now();
  const workers = checkConcurrency(input.concurrency);
  const source = await openFleetSource(ctx, input.source);
  try {
    const c = await checkFile(ctx, source, input);
    let account = await c.account;
    const job = await openBulkJob(ctx, {
      job: "vehicle.import",
      contentHash: await hashFile(source.path),
      restart: input.restart,
      what: `import of ${source.label}`,
      report: input.report,
    });
    const count = c.total - c.invalid.length;
    try {
      // The same import ran meanwhile (this one waited for it): the account listed before is out of date.
      if (job.waited) account = await listIdentities(ctx);
      // Undo: one batch entry, each created vehicle under it (`rentctl undo OP` removes them).
      const batch = await openBatch(ctx, "vehicle.import", { file: source.label, create: count, log: job.log.file });
      const undo: UndoScope = batch ? { kind: "batch", batch } : OWN_ENTRY;
      const onProgress = opts.onProgress;
      const summary = await job.run<CheckedRow>({
        rows: c.valid(),
        total: count,
        concurrency: workers,
        label: "importing",
        acting: `importing ${count} vehicle${count === 1 ? "" : "s"} from ${source.label}`,
        order: ORDER,
        quietIds: ["created"],
        report: input.report,
        known: c.invalid,
        // the report in the file's order, whatever order the creates finish in
        inFileOrder: true,
        startedAt: started,
        ...(opts.signal ? { signal: opts.signal } : {}),
        ...(onProgress
          ? { onProgress: (r: RowResult, done: number, total: number) => onProgress({ ...r, done, total }) }
          : {}),
        // The account again, once the stopped run's creates have landed or timed out.
        beforeReconcile: async () => {
          account = await listIdentities(ctx);
        },
        willWrite: (row) => !(row.item.identity && account.find(row.item.identity).length),
        identityCheck:
          input.dedupe === false ? undefined : { statuses: ["created"], identity: (row) => row.item.identity },
        reconcile: async (row) => {
          const found = row.item.identity ? account.find(row.item.identity) : [];
          // Two with its identity (another run created it too): the newer one is the lost answer's
          // vehicle, and the identity check then keeps the older.
          return found.length ? { status: "created", id: Math.max(...found) } : undefined;
        },
        send: async (row, tctx) => {
          const item = row.item;
          const found = item.identity ? account.find(item.identity) : [];
          if (found.length) return { status: "exists", id: found[0] };
          let record = item.record!;
          if (item.images.length) {
            // Journaled before the create: a create that fails leaves them listed, and the rerun reuses them.
            const ids = await tctx.uploadOnce(item.images, (files) => uploadImages(ctx, files, tctx.signal));
            const given = Array.isArray(record.vehicle_images) ? (record.vehicle_images as number[]) : [];
            record = { ...record, vehicle_images: [...given, ...ids] };
          }
          const id = await createVehicle(ctx, record, {
            undo,
            beforeWrite: tctx.beforeWrite,
            signal: tctx.signal,
          });
          return { status: "created", id };
        },
        after: (s) => {
          if (batch && s.counts.get("created")) ctx.msg.info(`undo with: rentctl undo ${batch.op}`);
        },
      });
      return bulkJobResult(summary, batch?.op);
    } finally {
      await job.close();
    }
  } finally {
    await source.cleanup();
  }
}
