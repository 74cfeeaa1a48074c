import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { PartialFailureError, UsageError } from "../../base/errors.js";
import { bulkJobKey, openBulkJob } from "../../bulk/job.js";
import { hashFile, RowLog } from "../../bulk/row-log.js";
import type { BulkRow } from "../../bulk/runner.js";
import * as vehicleRows from "../../bulk/vehicle-rows.js";
import { identityOf } from "../../contract/identity.js";
import type { Deps } from "../../deps.js";
import { formatFor } from "../../files/format.js";
import { openSource } from "../../files/source.js";
import * as gateway from "../../gateway/index.js";
import type { UndoScope } from "../../gateway/undo.js";
import { existingExtrasRefs } from "../../plans/account-plan.js";
import type { PlanChange, PlanCreate, PlanRemove } from "../../plans/plan.js";
import { massRemovalError, massRemovalRefusal, planIsEmpty } from "../../plans/plan.js";
import { planJson, planLines, planSummary } from "../../plans/plan-print.js";
import type { SavedPlan } from "../../plans/saved-plan.js";
import * as sp from "../../plans/saved-plan.js";
import * as sync from "../../plans/sync.js";
import { confirmDestructive } from "../confirm.js";
import { flag } from "../flags.js";
import { defineVerb } from "../verb.js";
import { applyRunFlags, DEFAULT_CONCURRENCY } from "./concurrency.js";
import { fleetFileFlags, planColors } from "./diff.js";

export const verb = defineVerb({
  name: "apply",
  description: "Make the account match a fleet file: plan, confirm, then create / safe-edit / remove (resumable)",
  flags: {
    ...fleetFileFlags,
    file: flag.string("-f, --file <file>", "fleet file (.json, .ndjson, .yaml, .csv), or - for stdin with --format"),
    plan: flag.string("--plan <file>", "apply exactly the plan `vehicle diff --out FILE` saved (refused when stale)"),
    ...applyRunFlags(),
  },
  examples: [
    "rentctl vehicle apply -f fleet.yaml",
    "rentctl vehicle apply -f fleet.yaml --dry-run",
    "rentctl vehicle apply -f fleet.csv --prune --yes --report result.csv",
    "rentctl vehicle export fleet.yaml --names -p staging && rentctl vehicle apply -f fleet.yaml -p production",
    "rentctl vehicle diff -f fleet.yaml --out plan.json && rentctl vehicle apply --plan plan.json --yes",
  ],
  notes: "\nThe plan goes to stderr; per-row results to stdout with -o. Undo with `rentctl undo OP`.\n",
  run: (deps, _args, opts) => run(deps, opts),
});

export interface ApplyOptions {
  file?: string;
  /** --plan FILE: a saved plan (plans/saved-plan.ts) instead of -f. */
  plan?: string;
  format?: string;
  prune?: boolean;
  exact?: boolean;
  allowMassDelete?: boolean;
  concurrency?: number;
  restart?: boolean;
  report?: string;
  /** false with --no-dedupe. */
  dedupe?: boolean;
}

type Step = { kind: "create"; c: PlanCreate } | { kind: "change"; c: PlanChange } | { kind: "remove"; c: PlanRemove };

const ORDER = ["created", "changed", "removed", "conflict", "failed"] as const;

/**
 * `vehicle apply -f FILE`: plan as `vehicle diff` does, print the plan on
 * stderr, confirm (TTY) or --yes, then run the creates, safe edits and
 * removals on the bulk engine, logged for crash safety and recorded in the
 * undo journal as one batch (`rentctl undo OP` restores the previous fleet).
 */
export async function run(deps: Deps, opts: ApplyOptions): Promise<void> {
  const workers = opts.concurrency ?? DEFAULT_CONCURRENCY;
  if (opts.plan) {
    if (opts.file) throw new UsageError("give -f FILE or --plan PLAN, not both (a saved plan holds its input)");
    const plan = await sp.readSavedPlan(opts.plan, "vehicle");
    await sp.checkPlanTarget(deps, plan);
    const source = await sp.savedInput(deps, plan);
    try {
      await runApply(deps, source, { ...opts, prune: plan.input.prune, exact: plan.input.exact }, workers, plan);
    } finally {
      await source.cleanup();
    }
    return;
  }
  if (!opts.file) throw new UsageError("missing -f FILE (a fleet file, or - for stdin with --format) or --plan PLAN");
  const source = await openSource(deps, opts.file, formatFor(opts.file, opts.format));
  try {
    await runApply(deps, source, opts, workers);
  } finally {
    await source.cleanup();
  }
}

async function runApply(
  deps: Deps,
  source: Awaited<ReturnType<typeof openSource>>,
  opts: ApplyOptions,
  workers: number,
  saved?: SavedPlan,
): Promise<void> {
  const started = Date.now();
  const target = await deps.target();
  const dryRun = Boolean(deps.flags.dryRun);

  // The job's key: the same file and options find an interrupted run's rows.
  const fileHash = await hashFile(source.path);
  const contentHash = createHash("sha256")
    .update(`${fileHash}|prune=${Boolean(opts.prune)}|exact=${Boolean(opts.exact)}`)
    .digest("hex");
  const key = { job: "vehicle.apply", contentHash };
  // With no interrupted run to wait for, the account is listed while the file is read.
  let early =
    dryRun || opts.restart || !existsSync(RowLog.fileFor(deps.paths.dataDir, await bulkJobKey(deps, key)))
      ? sync.listAccount(deps)
      : undefined;
  early?.catch(() => {});

  // The file first: an invalid file is exit 2 before anything is written.
  const rows = await sync.readFleet(deps, source, undefined, existingExtrasRefs(deps));
  const planFrom = async () => {
    const account = await (early ?? sync.listAccount(deps));
    // a fleet file: --exact leaves the account-bound extras ids alone, as images
    const planned = await sync.planFleet(deps, source.label, rows, account, { ...opts, keepExtras: true });
    if (saved) {
      // A saved plan runs only as it was reviewed: the records it touches unchanged, the plan made now the same.
      const now = planJson(planned.plan);
      sp.checkStale(saved, {
        plan: now,
        fingerprints: { vehicle: sp.vehicleFingerprints(account) },
        touched: sp.touchedVehicles(saved.plan),
      });
    }
    const refusal = massRemovalRefusal({
      removals: planned.plan.remove.length,
      accountSize: planned.accountSize,
      rows: planned.rows,
      prune: Boolean(opts.prune),
      allowMassDelete: opts.allowMassDelete,
    });
    return { planned, refusal };
  };

  if (dryRun) {
    const { planned, refusal } = await planFrom();
    if (deps.settings().output === "table") {
      for (const line of planLines(planned.plan, {
        color: planColors(deps.outColor),
        verbose: Boolean(deps.flags.verbose),
      }))
        deps.io.stdout.write(`${line}\n`);
    } else await deps.out.record(planJson(planned.plan));
    if (refusal) deps.msg.warn(`${refusal}: apply would refuse without --allow-mass-delete`);
    deps.msg.info("dry run: nothing was sent");
    return;
  }

  const job = await openBulkJob(deps, {
    ...key,
    restart: opts.restart,
    what: `apply of ${source.label}`,
    report: opts.report,
  });
  try {
    // The same apply ran meanwhile (this one waited for it): list the account as it is now.
    if (job.waited) early = undefined;
    // Writes of a stopped run may still be on their way: let them land (or time out) before listing.
    await job.settle();
    const { planned, refusal } = await planFrom();
    const { plan } = planned;
    if (refusal) throw massRemovalError(refusal);
    for (const line of planLines(plan, { color: planColors(deps.color), verbose: Boolean(deps.flags.verbose) }))
      deps.io.stderr.write(`${line}\n`);
    if (planIsEmpty(plan)) {
      deps.msg.success(`${source.label}: the account already matches the file; nothing to do`);
      await job.finish();
      return;
    }
    await confirmDestructive(deps, `Apply this plan on ${target.env}?`, "apply the plan");

    // Undo: one batch entry, each row's previous record under it (written by the gateway as the row is sent).
    const batch = await gateway.openBatch(deps, "vehicle.apply", {
      file: source.label,
      create: plan.create.length,
      change: plan.change.length,
      remove: plan.remove.length,
      // An undo waits for this apply (if it still runs) and for its writes in flight (if it was killed).
      log: job.log.file,
    });
    const undo: UndoScope = batch ? { kind: "batch", batch } : gateway.OWN_ENTRY;

    const steps: BulkRow<Step>[] = [
      ...plan.create.map((c) => ({ row: c.row, key: c.reg, item: { kind: "create" as const, c } })),
      ...plan.change.map((c) => ({ row: c.row ?? 0, key: c.reg, item: { kind: "change" as const, c } })),
      ...plan.remove.map((c) => ({ row: -c.vehicle_id, key: c.reg, item: { kind: "remove" as const, c } })),
    ];
    async function* planned_(): AsyncGenerator<BulkRow<Step>> {
      yield* steps;
    }

    await job.run<Step>({
      rows: planned_(),
      total: steps.length,
      concurrency: workers,
      label: "applying",
      acting: `applying ${source.label}: ${planSummary(plan)
        .replace(/^Plan: /, "")
        .replace(/\.$/, "")}`,
      order: ORDER,
      quietIds: ["created", "changed", "removed"],
      report: opts.report,
      startedAt: started,
      // Rows an earlier run finished are no longer in this run's plan (it is made from the account as it is now).
      doneEarlier: [...job.log.previous.values()].filter((r) => r.state === "done").length,
      // A planned row is not done, whatever an earlier run noted (the account moved since: an undo, a person).
      skipDone: false,
      shown: (r) => (r.row < 0 ? { ...r, row: 0 } : r), // removals are not rows of the file
      identityCheck:
        opts.dedupe === false
          ? undefined
          : {
              statuses: ["created"],
              identity: (row) =>
                row.item.kind === "create" ? identityOf(planned.createRecords.get(row.row) ?? {}) : undefined,
            },
      send: async ({ row, item }, ctx) => {
        const w = { undo, beforeWrite: ctx.beforeWrite, signal: ctx.signal };
        const files = planned.uploads.get(row);
        if (item.kind === "create") return vehicleRows.sendCreate(deps, planned.createRecords.get(row)!, files, ctx, w);
        if (item.kind === "change") return vehicleRows.sendChange(deps, item.c, item.c.after, files, ctx, w);
        return vehicleRows.sendRemove(deps, item.c, w);
      },
      after: (summary) => {
        if (batch && (summary.counts.get("created") || summary.counts.get("changed") || summary.counts.get("removed")))
          deps.msg.info(`undo with: rentctl undo ${batch.op}`);
      },
      verdict: (summary) => {
        const conflicts = summary.counts.get("conflict") ?? 0;
        if (!conflicts) return undefined;
        return new PartialFailureError(
          `${conflicts} vehicle${conflicts === 1 ? " was" : "s were"} changed by someone else since the plan was made and ${conflicts === 1 ? "was" : "were"} left as they are`,
          { hint: `run \`rentctl vehicle diff -f ${opts.file}\` again to see the new plan, then apply it` },
        );
      },
    });
  } finally {
    await job.close();
  }
}
