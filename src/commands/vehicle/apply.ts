import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import type { Writable } from "node:stream";
import type { BulkRow, ReportSink, RowResult } from "../../bulk/index.js";
import type { JsonObject } from "../../contract/records.js";
import type { WireRecord } from "../../contract/validate.js";
import type { Deps } from "../../deps.js";
import { requireUser } from "../../deps.js";
import { InputError, PartialFailureError, UsageError } from "../../errors.js";
import type { PlanChange, PlanCreate, PlanRemove } from "../../fleet/plan.js";
import { planColors } from "./diff.js";
import { parseConcurrency } from "./import.js";

export interface ApplyOptions {
  file?: string;
  format?: string;
  prune?: boolean;
  exact?: boolean;
  allowMassDelete?: boolean;
  concurrency?: string;
  restart?: boolean;
  report?: string;
}

type Step = { kind: "create"; c: PlanCreate } | { kind: "change"; c: PlanChange } | { kind: "remove"; c: PlanRemove };

const ORDER = ["created", "changed", "removed", "conflict", "failed"] as const;

/** Do two input records (wire-typed) compare equal field by field under the contract's types? */
async function sameInput(a: WireRecord, b: WireRecord): Promise<string[]> {
  const { sameValue, PLAN_FIELDS } = await import("../../fleet/plan.js");
  const moved: string[] = [];
  for (const spec of PLAN_FIELDS) if (!sameValue(spec, a[spec.name], b[spec.name])) moved.push(spec.name);
  return moved;
}

/**
 * `vehicle apply -f FILE`: plan as `vehicle diff` does, print the plan on
 * stderr, confirm (TTY) or --yes, then run the creates, safe edits and
 * removals on the bulk engine, journaled for crash safety and recorded in the
 * undo journal as one batch (`rentctl undo OP` restores the previous fleet).
 */
export async function run(deps: Deps, opts: ApplyOptions): Promise<void> {
  if (!opts.file) throw new UsageError("missing -f FILE (a fleet file, or - for stdin with --format)");
  const workers = parseConcurrency(opts.concurrency);
  const { formatFor } = await import("../../fleet/format.js");
  const { openSource } = await import("../../fleet/source.js");
  const source = await openSource(deps, opts.file, formatFor(opts.file, opts.format));
  try {
    await runApply(deps, source, opts, workers);
  } finally {
    await source.cleanup();
  }
}

async function runApply(
  deps: Deps,
  source: Awaited<ReturnType<typeof import("../../fleet/source.js").openSource>>,
  opts: ApplyOptions,
  workers: number,
): Promise<void> {
  const started = Date.now();
  const target = await deps.target();
  const owner = await requireUser(deps);
  const sync = await import("../../fleet/sync.js");
  const { planIsEmpty, massRemovalRefusal } = await import("../../fleet/plan.js");
  const { planJson, planLines, planSummary } = await import("../../fleet/plan-print.js");
  const bulk = await import("../../bulk/index.js");
  const adapters = await import("../../fleet/adapters.js");
  const dryRun = Boolean(deps.flags.dryRun);

  // The job's journal key: the same file and options find an interrupted run's rows.
  const fileHash = await bulk.hashFile(source.path);
  const contentHash = createHash("sha256")
    .update(`${fileHash}|prune=${Boolean(opts.prune)}|exact=${Boolean(opts.exact)}`)
    .digest("hex");
  const journalKey = { job: "vehicle.apply", env: target.env, baseUrl: target.baseUrl, owner, contentHash };
  // With no interrupted run to wait for, the account is listed while the file is read.
  const early =
    dryRun || opts.restart || !existsSync(bulk.RowLog.fileFor(deps.paths.dataDir, journalKey))
      ? sync.listAccount(deps)
      : undefined;
  early?.catch(() => {});

  // The file first: an invalid file is exit 2 before anything is written.
  const rows = await sync.readFleet(deps, source);

  const journal = dryRun
    ? undefined
    : await bulk.RowLog.open(deps.paths.dataDir, journalKey, { restart: opts.restart });
  let finished = false;
  try {
    // Writes of a killed run may still be on their way: let them land (or time out) before listing.
    await bulk.settleInFlight(journal?.inFlight() ?? [], deps.settings().timeoutMs, (m) => deps.msg.info(m));
    if (journal?.resumed) deps.msg.info(`resuming an interrupted apply of ${source.label} (--restart to start afresh)`);

    const account = await (early ?? sync.listAccount(deps));
    const planned = await sync.planFleet(deps, source.label, rows, account, opts);
    const { plan } = planned;
    const refusal = massRemovalRefusal({
      removals: plan.remove.length,
      accountSize: planned.accountSize,
      rows: planned.rows,
      prune: Boolean(opts.prune),
      allowMassDelete: opts.allowMassDelete,
    });

    if (dryRun) {
      if (deps.settings().output === "table") {
        for (const line of planLines(plan, { color: planColors(deps.outColor), verbose: Boolean(deps.flags.verbose) }))
          deps.io.stdout.write(`${line}\n`);
      } else await deps.out.record(planJson(plan));
      if (refusal) deps.msg.warn(`${refusal}: apply would refuse without --allow-mass-delete`);
      deps.msg.info("dry run: nothing was sent");
      finished = true;
      return;
    }
    if (refusal) {
      throw new UsageError(`refusing to apply: ${refusal}; nothing was sent`, {
        hint: "check the file (and --prune); pass --allow-mass-delete if these removals are intended",
      });
    }
    for (const line of planLines(plan, { color: planColors(deps.color), verbose: Boolean(deps.flags.verbose) }))
      deps.io.stderr.write(`${line}\n`);
    if (planIsEmpty(plan)) {
      deps.msg.success(`${source.label}: the account already matches the file; nothing to do`);
      await journal?.finish();
      finished = true;
      return;
    }
    const { confirmDestructive } = await import("../confirm.js");
    await confirmDestructive(deps, `Apply this plan on ${target.env}?`, "apply the plan");

    // Undo: one batch entry, the rows' previous records under it.
    // (nothing for a throw-away in-memory sandbox, which is gone when the command ends)
    const { historyFor, historyTarget } = await import("../../history/history.js");
    const undo = historyFor(deps.paths.dataDir, target);
    const where = historyTarget(target);
    const batch = undo?.record(
      {
        action: "vehicle.apply",
        id: 0,
        ...where,
        before: {
          file: source.label,
          create: plan.create.length,
          change: plan.change.length,
          remove: plan.remove.length,
        },
      },
      deps.now(),
    );
    let seq = 0;
    const remember = (action: "vehicle.create" | "vehicle.edit" | "vehicle.remove", id: number, before: JsonObject) =>
      batch ? undo?.recordInBatch(batch.op, ++seq, { action, id, ...where, before }, deps.now()) : undefined;

    // Reports: per-row results on stdout (-o) and/or a file (--report); ids with -q.
    const quiet = Boolean(deps.flags.quiet);
    const output = deps.settings().output;
    const sinks: ReportSink[] = [];
    if (!quiet && output !== "table")
      sinks.push(
        await bulk.reportToStream(
          deps.io.stdout as Writable,
          (await import("../../fleet/format.js")).formatFor("-", output === "yaml" ? "yaml" : output),
        ),
      );
    if (opts.report) sinks.push(await bulk.reportToFile(opts.report));
    const emit = async (r: RowResult) => {
      const shown = r.row < 0 ? { ...r, row: 0 } : r; // removals are not rows of the file
      for (const s of sinks) await s.add(shown);
      if (quiet && r.id !== undefined && r.status !== "conflict") deps.io.stdout.write(`${r.id}\n`);
    };

    const steps: BulkRow<Step>[] = [
      ...plan.create.map((c) => ({ row: c.row, key: c.reg, item: { kind: "create" as const, c } })),
      ...plan.change.map((c) => ({ row: c.row ?? 0, key: c.reg, item: { kind: "change" as const, c } })),
      ...plan.remove.map((c) => ({ row: -c.vehicle_id, key: c.reg, item: { kind: "remove" as const, c } })),
    ];
    async function* source_(): AsyncGenerator<BulkRow<Step>> {
      yield* steps;
    }

    const conflictOf = async (id: number, planned: WireRecord) => {
      const { currentInput } = await import("../../fleet/plan.js");
      const fresh = await adapters.fetchVehicle(deps, id);
      const moved = await sameInput(currentInput(fresh), planned);
      return { fresh, moved };
    };
    const conflict = (moved: string[]) => ({
      status: "conflict",
      error: `changed since the plan was made (${moved.join(", ")}); nothing was sent`,
    });

    deps.msg.acting(
      target,
      `applying ${source.label}: ${planSummary(plan)
        .replace(/^Plan: /, "")
        .replace(/\.$/, "")}`,
    );
    const progress = await bulk.createProgress(deps.io.stderr, deps.io.stderrTTY && !quiet, steps.length, "applying");
    const control = new bulk.Interrupter((second) => {
      deps.io.stderr.write(
        second
          ? "\nabandoning the requests in flight (a rerun reconciles them)\n"
          : "\nstopping: waiting for the requests in flight (Ctrl-C again to abandon them)\n",
      );
    }).install();
    (await deps.client()).limitConnections(workers);
    let summary: Awaited<ReturnType<typeof bulk.runBulk>>;
    try {
      summary = await bulk.runBulk<Step>({
        rows: source_(),
        total: steps.length,
        concurrency: workers,
        journal,
        control,
        task: async ({ row, item }, ctx) => {
          if (item.kind === "create") {
            const record = { ...planned.createRecords.get(row)! };
            const files = planned.uploads.get(row);
            if (files?.length) {
              const ids = await adapters.uploadFiles(deps, files, ctx.signal);
              const given = Array.isArray(record.vehicle_images) ? (record.vehicle_images as number[]) : [];
              record.vehicle_images = [...given, ...ids];
            }
            await ctx.beforeWrite();
            const id = await adapters.sendCreate(deps, record, ctx.signal);
            remember("vehicle.create", id, record as JsonObject);
            return { status: "created", id };
          }
          if (item.kind === "change") {
            const ch = item.c;
            const { fresh, moved } = await conflictOf(ch.vehicle_id, ch.before);
            if (moved.length) return conflict(moved);
            const after: Record<string, unknown> = { ...ch.after };
            const files = planned.uploads.get(row);
            if (files?.length) after.vehicle_images = await adapters.uploadFiles(deps, files, ctx.signal);
            const checked = await adapters.checkVehicle(deps, after);
            if (!checked.record)
              throw new InputError(
                `the changed record is invalid: ${checked.problems.map((p) => `${p.field}: ${p.message}`).join("; ")}`,
              );
            remember("vehicle.edit", ch.vehicle_id, fresh);
            await ctx.beforeWrite();
            await adapters.sendEdit(deps, ch.vehicle_id, checked.record, ctx.signal);
            return { status: "changed", id: ch.vehicle_id };
          }
          const rm = item.c;
          const { currentInput } = await import("../../fleet/plan.js");
          const { fresh, moved } = await conflictOf(rm.vehicle_id, currentInput(rm.record));
          if (moved.length) return conflict(moved);
          remember("vehicle.remove", rm.vehicle_id, fresh);
          await ctx.beforeWrite();
          await adapters.sendRemove(deps, rm.vehicle_id, ctx.signal);
          return { status: "removed", id: rm.vehicle_id };
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
    summary.elapsedMs = Date.now() - started;
    // Rows an earlier run finished are no longer in this run's plan (it is made from the account as it is now).
    const doneEarlier = [...(journal?.previous.values() ?? [])].filter((r) => r.state === "done").length;
    summary.fromJournal = Math.max(summary.fromJournal, doneEarlier);
    deps.io.stderr.write(`${bulk.summaryLine(summary, ORDER)}\n`);
    if (batch && (summary.counts.get("created") || summary.counts.get("changed") || summary.counts.get("removed")))
      deps.msg.info(`undo with: rentctl undo ${batch.op}`);
    const err = bulk.bulkExitError(summary);
    const conflicts = summary.counts.get("conflict") ?? 0;
    if (!err && !conflicts) {
      await journal?.finish();
      finished = true;
      return;
    }
    if (err) throw err;
    throw new PartialFailureError(
      `${conflicts} vehicle${conflicts === 1 ? " was" : "s were"} changed by someone else since the plan was made and ${conflicts === 1 ? "was" : "were"} left as they are`,
      {
        hint: `run \`rentctl vehicle diff -f ${opts.file}\` again to see the new plan, then apply it`,
      },
    );
  } finally {
    if (!finished) await journal?.close();
  }
}
