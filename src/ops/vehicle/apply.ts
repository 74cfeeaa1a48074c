import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { checkConcurrency } from "../../base/concurrency.js";
import { PartialFailureError, UsageError } from "../../base/errors.js";
import { type BulkJobResult, bulkJobKey, bulkJobResult, openBulkJob } from "../../bulk/job.js";
import { hashFile, RowLog } from "../../bulk/row-log.js";
import type { BulkRow } from "../../bulk/runner.js";
import { sendChange, sendCreate, sendRemove } from "../../bulk/vehicle-rows.js";
import { identityOf } from "../../contract/identity.js";
import type { Deps } from "../../deps.js";
import type { FleetSource } from "../../files/source.js";
import { OWN_ENTRY, openBatch } from "../../gateway/index.js";
import type { UndoScope } from "../../gateway/undo.js";
import { existingExtrasRefs } from "../../plans/account-plan.js";
import {
  massRemovalError,
  massRemovalRefusal,
  type Plan,
  type PlanChange,
  type PlanCreate,
  type PlanRemove,
  planIsEmpty,
} from "../../plans/plan.js";
import { planJson, planSummary } from "../../plans/plan-print.js";
import {
  checkPlanTarget,
  checkStale,
  type SavedPlan,
  savedInput,
  touchedVehicles,
  vehicleFingerprints,
} from "../../plans/saved-plan.js";
import { listAccount, planFleet, readFleet, type SyncPlan } from "../../plans/sync.js";
import { type ApplyRowProgress, rowProgress } from "../account/apply.js";
import type { OpContext, OpOptions } from "../context.js";
import { type FleetFileSource, openFleetSource } from "./diff.js";

/**
 * Make the account match a fleet file (`vehicle apply`): the file read first (an invalid file is
 * exit 2 before anything is written), planned against the account as it is now, then the creates,
 * safe edits and removals run on the bulk job: locked, logged row by row (a rerun resumes), one
 * undo op. A saved plan (`vehicle diff --out`) runs only as it was reviewed (the stale check).
 */

export interface ApplyFleetInput {
  /** The fleet file; or `saved`, a plan `vehicle diff --out` saved (its input, prune and exact are its own). */
  source?: FleetFileSource;
  saved?: SavedPlan;
  prune?: boolean;
  exact?: boolean;
  /** Let a pruning plan remove more than half of the vehicles, or more than 20. */
  allowMassDelete?: boolean;
  /** Requests in flight at once (the one bound, src/base/concurrency.ts); default 4. */
  concurrency?: number;
  /** Ignore the row log of an interrupted apply of the same file. */
  restart?: boolean;
  /** Per-row results to this file (format by extension). */
  report?: string;
  /** false: no identity check after the creates. */
  dedupe?: boolean;
  /** When the front end's command started (the summary's time; default now). */
  started?: number;
}

/** One row's outcome as the apply learns it (as an account apply's). */
export type FleetRowProgress = ApplyRowProgress;

/** Rows per outcome (created, changed, removed, conflict, failed), the failed rows, the undo op of the whole apply. */
export type FleetApplyResult = BulkJobResult;

/** What a dry run answers: the plan that would run, and why the apply would refuse it (mass removal). */
export interface FleetApplyPreview {
  sync: SyncPlan;
  label: string;
  refusal?: string;
}

export interface ApplyFleetHooks {
  /** Show the plan before it runs (the CLI: on stderr). */
  show?(plan: Plan, label: string): void | Promise<void>;
  /** Ask before it runs (the CLI: confirm on a TTY, or --yes); throw to refuse. */
  confirm?(question: string): Promise<void>;
}

type Step = { kind: "create"; c: PlanCreate } | { kind: "change"; c: PlanChange } | { kind: "remove"; c: PlanRemove };

const ORDER = ["created", "changed", "removed", "conflict", "failed"] as const;

/** The input's source and options: a saved plan's own, or the file's. */
async function openInput(
  ctx: OpContext,
  input: ApplyFleetInput,
): Promise<{ source: FleetSource; prune: boolean; exact: boolean }> {
  if (input.saved) {
    if (input.source) throw new UsageError("give -f FILE or --plan PLAN, not both (a saved plan holds its input)");
    await checkPlanTarget(ctx, input.saved);
    return {
      source: await savedInput(ctx, input.saved),
      prune: input.saved.input.prune,
      exact: input.saved.input.exact,
    };
  }
  if (!input.source?.path)
    throw new UsageError("missing -f FILE (a fleet file, or - for stdin with --format) or --plan PLAN");
  return { source: await openFleetSource(ctx, input.source), prune: Boolean(input.prune), exact: Boolean(input.exact) };
}

/** The plan an apply would run now, and its refusal; nothing sent (`vehicle apply --dry-run`). */
export async function previewFleetApply(
  ctx: OpContext,
  input: ApplyFleetInput,
  opts: { listUnchanged?: boolean } = {},
): Promise<FleetApplyPreview> {
  const { source, prune, exact } = await openInput(ctx, input);
  try {
    const listing = listAccount(ctx);
    listing.catch(() => {});
    const rows = await readFleet(ctx, source, undefined, existingExtrasRefs(ctx));
    const { sync, refusal } = await planNow(ctx, source.label, rows, await listing, {
      ...input,
      prune,
      exact,
      listUnchanged: opts.listUnchanged,
    });
    return { sync, label: source.label, ...(refusal ? { refusal } : {}) };
  } finally {
    await source.cleanup();
  }
}

/** Plan the rows against the account as listed; a saved plan checked as stale; the mass-removal refusal. */
async function planNow(
  ctx: OpContext,
  label: string,
  rows: Awaited<ReturnType<typeof readFleet>>,
  account: Awaited<ReturnType<typeof listAccount>>,
  o: ApplyFleetInput & { prune: boolean; exact: boolean; listUnchanged?: boolean },
): Promise<{ sync: SyncPlan; refusal?: string }> {
  // a fleet file: --exact leaves the account-bound extras ids alone, as images
  const sync = await planFleet(ctx, label, rows, account, {
    prune: o.prune,
    exact: o.exact,
    ...(o.listUnchanged !== undefined ? { listUnchanged: o.listUnchanged } : {}),
    keepExtras: true,
  });
  if (o.saved) {
    // A saved plan runs only as it was reviewed: the records it touches unchanged, the plan made now the same.
    checkStale(o.saved, {
      plan: planJson(sync.plan),
      fingerprints: { vehicle: vehicleFingerprints(account) },
      touched: touchedVehicles(o.saved.plan),
    });
  }
  const refusal = massRemovalRefusal({
    removals: sync.plan.remove.length,
    accountSize: sync.accountSize,
    rows: sync.rows,
    prune: o.prune,
    allowMassDelete: o.allowMassDelete,
  });
  return { sync, ...(refusal ? { refusal } : {}) };
}

/**
 * Apply a fleet file (or a saved plan of one). `show` / `confirm` are the front end's (the CLI's
 * plan on stderr and its question); `signal` stops it as Ctrl-C does (the rows in flight finish
 * and are logged; then InterruptedError); `onProgress` hears each row's outcome.
 *
 * The context is the full Deps while the bulk job (src/bulk) takes it, as applyAccountPlan's.
 */
export async function applyFleet(
  ctx: Deps,
  input: ApplyFleetInput,
  opts: OpOptions<FleetRowProgress> & ApplyFleetHooks = {},
): Promise<FleetApplyResult> {
  const workers = checkConcurrency(input.concurrency);
  const started = input.started ?? Date.now();
  const { source, prune, exact } = await openInput(ctx, input);
  try {
    const target = await ctx.target();
    // The job's key: the same file and options find an interrupted run's rows.
    const fileHash = await hashFile(source.path);
    const contentHash = createHash("sha256").update(`${fileHash}|prune=${prune}|exact=${exact}`).digest("hex");
    const key = { job: "vehicle.apply", contentHash };
    // With no interrupted run to wait for, the account is listed while the file is read.
    let early =
      input.restart || !existsSync(RowLog.fileFor(ctx.paths.dataDir, await bulkJobKey(ctx, key)))
        ? listAccount(ctx)
        : undefined;
    early?.catch(() => {});
    // The file first: an invalid file is exit 2 before anything is written.
    const rows = await readFleet(ctx, source, undefined, existingExtrasRefs(ctx));

    const job = await openBulkJob(ctx, {
      ...key,
      restart: input.restart,
      what: `apply of ${source.label}`,
      report: input.report,
    });
    try {
      // The same apply ran meanwhile (this one waited for it): list the account as it is now.
      if (job.waited) early = undefined;
      // Writes of a stopped run may still be on their way: let them land (or time out) before listing.
      await job.settle();
      const planned = await planNow(ctx, source.label, rows, await (early ?? listAccount(ctx)), {
        ...input,
        prune,
        exact,
      });
      const sync = planned.sync;
      const { plan } = sync;
      if (planned.refusal) throw massRemovalError(planned.refusal);
      await opts.show?.(plan, source.label);
      if (planIsEmpty(plan)) {
        ctx.msg.success(`${source.label}: the account already matches the file; nothing to do`);
        await job.finish();
        return { counts: {}, failed: [] };
      }
      await opts.confirm?.(`Apply this plan on ${target.env}?`);

      // Undo: one batch entry, each row's previous record under it (written by the gateway as the row is sent).
      const batch = await openBatch(ctx, "vehicle.apply", {
        file: source.label,
        create: plan.create.length,
        change: plan.change.length,
        remove: plan.remove.length,
        // An undo waits for this apply (if it still runs) and for its writes in flight (if it was killed).
        log: job.log.file,
      });
      const undo: UndoScope = batch ? { kind: "batch", batch } : OWN_ENTRY;

      const steps: BulkRow<Step>[] = [
        ...plan.create.map((c) => ({ row: c.row, key: c.reg, item: { kind: "create" as const, c } })),
        ...plan.change.map((c) => ({ row: c.row ?? 0, key: c.reg, item: { kind: "change" as const, c } })),
        ...plan.remove.map((c) => ({ row: -c.vehicle_id, key: c.reg, item: { kind: "remove" as const, c } })),
      ];
      async function* planRows(): AsyncGenerator<BulkRow<Step>> {
        yield* steps;
      }
      const summary = await job.run<Step>({
        rows: planRows(),
        total: steps.length,
        concurrency: workers,
        label: "applying",
        acting: `applying ${source.label}: ${planSummary(plan)
          .replace(/^Plan: /, "")
          .replace(/\.$/, "")}`,
        order: ORDER,
        quietIds: ["created", "changed", "removed"],
        report: input.report,
        startedAt: started,
        ...(opts.signal ? { signal: opts.signal } : {}),
        onProgress: rowProgress(opts.onProgress),
        // Rows an earlier run finished are no longer in this run's plan (it is made from the account as it is now).
        doneEarlier: [...job.log.previous.values()].filter((r) => r.state === "done").length,
        // A planned row is not done, whatever an earlier run noted (the account moved since: an undo, a person).
        skipDone: false,
        shown: (r) => (r.row < 0 ? { ...r, row: 0 } : r), // removals are not rows of the file
        identityCheck:
          input.dedupe === false
            ? undefined
            : {
                statuses: ["created"],
                identity: (row) =>
                  row.item.kind === "create" ? identityOf(sync.createRecords.get(row.row) ?? {}) : undefined,
              },
        send: async ({ row, item }, tctx) => {
          const w = { undo, beforeWrite: tctx.beforeWrite, signal: tctx.signal };
          const files = sync.uploads.get(row);
          if (item.kind === "create") return sendCreate(ctx, sync.createRecords.get(row)!, files, tctx, w);
          if (item.kind === "change") return sendChange(ctx, item.c, item.c.after, files, tctx, w);
          return sendRemove(ctx, item.c, w);
        },
        after: (s) => {
          if (batch && (s.counts.get("created") || s.counts.get("changed") || s.counts.get("removed")))
            ctx.msg.info(`undo with: rentctl undo ${batch.op}`);
        },
        verdict: (s) => {
          const conflicts = s.counts.get("conflict") ?? 0;
          if (!conflicts) return undefined;
          return new PartialFailureError(
            `${conflicts} vehicle${conflicts === 1 ? " was" : "s were"} changed by someone else since the plan was made and ${conflicts === 1 ? "was" : "were"} left as they are`,
            { hint: `run \`rentctl vehicle diff -f ${source.label}\` again to see the new plan, then apply it` },
          );
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
