import { createHash } from "node:crypto";
import { InputError, PartialFailureError } from "../base/errors.js";
import { identityOf } from "../contract/identity.js";
import type { Deps } from "../deps.js";
import { catalogPort } from "../files/adapters.js";
import * as gateway from "../gateway/index.js";
import type { UndoScope } from "../gateway/undo.js";
import type { ExtraCreate, ExtraDelete, ExtraSwitch, ExtraUpdate } from "../plans/account-extras.js";
import { extraState } from "../plans/account-extras.js";
import type { AccountPlan } from "../plans/account-plan.js";
import { accountPlanIsEmpty, extraLabeller, isPlaceholder, PLACEHOLDER_BASE } from "../plans/account-plan.js";
import * as print from "../plans/account-print.js";
import { replanSaved } from "../plans/account-replan.js";
import type { PlanChange, PlanCreate, PlanRemove } from "../plans/plan.js";
import { massRemovalError, massRemovalRefusal } from "../plans/plan.js";
import type { SavedPlan } from "../plans/saved-plan.js";
import * as sp from "../plans/saved-plan.js";
import * as converge from "./converge.js";
import { CREATE_ROW, EXTRA_ROW, extraCreateKey, fileRow } from "./converge.js";
import type { BulkJobHandle } from "./job.js";
import { openBulkJob } from "./job.js";
import { ACCOUNT_REPORT_COLUMNS } from "./report.js";
import type { RowRecord } from "./row-log.js";
import type { BulkRow, RowResult } from "./runner.js";
import * as vehicleRows from "./vehicle-rows.js";

/**
 * The account apply, the one code path of `rentctl account apply` (-f FILE
 * and --plan PLAN) and of the library's `fleet.apply`: a made plan runs as
 * one bulk job in three phases (extras, vehicles, extra deletions), locked,
 * logged row by row and for undo as one op. The callers add what is
 * theirs: the CLI prints the plan and asks; the library passes an
 * AbortSignal and a progress callback.
 */

export interface AccountApplyRun {
  prune?: boolean;
  exact?: boolean;
  allowMassDelete?: boolean;
  /** Rows in flight at once (1..16). */
  concurrency: number;
  restart?: boolean;
  report?: string;
  /** false: no identity check after the creates (--no-dedupe). */
  dedupe?: boolean;
  /** When the command started (the summary's time). */
  started: number;
  /** Show the plan before it runs (the CLI: on stderr). */
  show?(plan: AccountPlan): void | Promise<void>;
  /** Ask before it runs (the CLI: confirm on a TTY, or --yes); throw to refuse. */
  confirm?(question: string): Promise<void>;
  /** Stop as on Ctrl-C when it aborts (the library). */
  signal?: AbortSignal;
  /** What a rerun's identity check did before the plan was made (runAccountJob): reported first. */
  converged?: RowResult[];
  onProgress?(result: RowResult, done: number, total: number): void;
}

export interface AccountApplyResult {
  /** Rows per outcome: created, changed, switched, removed, deleted, unchanged, conflict, failed. */
  counts: Record<string, number>;
  failed: RowResult[];
  /** The undo history's op of the whole apply (`rentctl undo OP`), when the target keeps one. */
  undoOp?: string;
}

type Step =
  | { kind: "extra"; create?: ExtraCreate; update?: ExtraUpdate; switch?: ExtraSwitch }
  | { kind: "create"; c: PlanCreate }
  | { kind: "change"; c: PlanChange }
  | { kind: "remove"; c: PlanRemove }
  | { kind: "extra-delete"; d: ExtraDelete };

/** Extras are created, updated, switched, deleted; vehicles created, changed, removed (the plan's own words). */
const ORDER = ["created", "updated", "changed", "switched", "removed", "deleted", "conflict", "failed"] as const;
const WROTE = ["created", "updated", "changed", "removed", "switched", "deleted"];

/** The job's key: the same input and options find an interrupted run's rows (from -f or from a saved plan alike). */
export async function accountJobHash(fileHash: string, opts: { prune?: boolean; exact?: boolean }): Promise<string> {
  return createHash("sha256")
    .update(`${fileHash}|prune=${Boolean(opts.prune)}|exact=${Boolean(opts.exact)}`)
    .digest("hex");
}

/**
 * Apply a saved plan (`account apply --plan`, the library's fleet.apply):
 * refused when the target differs; its input planned again under the job's
 * lock and refused as stale (nothing sent) when a record it read changed or
 * the plan made now is not the saved one.
 */
export async function applySavedAccountPlan(
  deps: Deps,
  saved: SavedPlan,
  opts: AccountApplyRun,
): Promise<AccountApplyResult> {
  await sp.checkPlanTarget(deps, saved);
  const o = { ...opts, prune: saved.input.prune, exact: saved.input.exact };
  const source = await sp.savedInput(deps, saved);
  try {
    const job = await openBulkJob(deps, {
      job: "account.apply",
      contentHash: await accountJobHash(saved.input.sha256, o),
      restart: opts.restart,
      what: `account apply of ${saved.input.label}`,
      report: opts.report,
    });
    try {
      return await runAccountJob(
        deps,
        job,
        saved.input.label,
        () => replanSaved(deps, source, saved, o, job.resumed),
        o,
      );
    } finally {
      await job.close();
    }
  } finally {
    await source.cleanup();
  }
}

/**
 * An account apply on its open job, in order: a rerun's identity check (the
 * copies a stopped run of this job created removed before anything can
 * refuse the file, ./converge.ts), the plan (`makePlan`), the wait for the
 * stopped run's requests the plan does not show as done (then both again),
 * the apply.
 */
export async function runAccountJob(
  deps: Deps,
  job: BulkJobHandle,
  label: string,
  makePlan: () => Promise<AccountPlan>,
  opts: AccountApplyRun,
): Promise<AccountApplyResult> {
  const check = async () => (opts.dedupe === false ? [] : await rerunIdentityCheck(deps, job, label));
  const converged = await check();
  let plan = await makePlan();
  // Resume without the wait: a row the stopped run left in flight whose write the plan already shows
  // (not planned again) is done; only those still planned wait, each until its own deadline, and then
  // the account is read again.
  const planned = new Set(planPhases(plan).flatMap((p) => p.map((r) => r.row)));
  const legacy = (r: RowRecord) => r.row > 0 && r.row < CREATE_ROW && planned.has(CREATE_ROW + r.row);
  if (await job.settle((r) => planned.has(r.row) || legacy(r))) {
    converged.push(...(await check()));
    plan = await makePlan();
  }
  return applyAccountPlan(deps, job, plan, { ...opts, converged: [...(opts.converged ?? []), ...converged] });
}

/** ./converge.ts resumeIdentityCheck on a resumed job; its removals are one undo op of their own. */
async function rerunIdentityCheck(deps: Deps, job: BulkJobHandle, label: string): Promise<RowResult[]> {
  if (!job.resumed) return [];
  const { results } = await converge.resumeIdentityCheck(
    deps,
    job.log,
    async (account) => extraLabeller(await catalogPort(deps), account, new Map()),
    async () => {
      const batch = await gateway.openBatch(deps, "vehicle.apply", {
        file: label,
        account: true,
        dedupe: true,
        log: job.log.file,
      });
      return batch ? { kind: "batch", batch } : gateway.OWN_ENTRY;
    },
  );
  return results;
}

/** Run a made (and, for a saved plan, checked) account plan on an open bulk job. */
export async function applyAccountPlan(
  deps: Deps,
  job: BulkJobHandle,
  plan: AccountPlan,
  opts: AccountApplyRun,
): Promise<AccountApplyResult> {
  const workers = opts.concurrency;
  const started = opts.started;
  const target = await deps.target();
  const v = plan.vehicles.plan;
  const e = plan.extras;
  const refusal = massRemovalRefusal({
    removals: v.remove.length,
    accountSize: plan.vehicles.accountSize,
    rows: plan.vehicles.rows,
    prune: Boolean(opts.prune),
    allowMassDelete: opts.allowMassDelete,
    // pruned extras count too (a file whose extras section lost its rows)
    extras: e.managed
      ? { removals: e.delete.length, accountSize: plan.accountExtras.length, rows: e.matched.size }
      : undefined,
  });
  if (refusal) throw massRemovalError(refusal);
  await opts.show?.(plan);
  const empty = accountPlanIsEmpty(plan);
  if (empty) {
    deps.msg.success(`${plan.label}: the account already matches the file; nothing to do`);
    // (a rerun that removed a stopped run's copies first still reports them, below)
    if (!opts.converged?.length) {
      await job.finish();
      return { counts: {}, failed: [] };
    }
  } else await opts.confirm?.(`Apply this plan on ${target.env}?`);

  const batch = empty
    ? undefined
    : await gateway.openBatch(deps, "vehicle.apply", {
        file: plan.label,
        account: true,
        create: v.create.length + e.create.length,
        change: v.change.length + e.update.length + e.switch.length,
        remove: v.remove.length + e.delete.length,
        log: job.log.file,
      });
  const undo: UndoScope = batch ? { kind: "batch", batch } : gateway.OWN_ENTRY;

  // The three phases, in order.
  const phases = planPhases(plan);
  const total = phases.reduce((n, p) => n + p.length, 0);
  // A row of a phase waits (in its slot) until every row of the phases before has finished. The runner
  // starts rows in order, so every row it waits for has started: the wait always ends.
  const left = phases.map((p) => p.length);
  const gates = phases.map(() => {
    let open!: () => void;
    const promise = new Promise<void>((r) => (open = r));
    return { promise, open };
  });
  left.forEach((n, i) => {
    if (n === 0) gates[i]!.open();
  });
  const phaseOf = (s: Step) => (s.kind === "extra" ? 0 : s.kind === "extra-delete" ? 2 : 1);
  const finished = (p: number) => {
    if (--left[p]! === 0) gates[p]!.open();
  };
  async function* rows(): AsyncGenerator<BulkRow<Step>> {
    for (const phase of phases) yield* phase;
  }

  // Extras this run created, by placeholder: vehicles that reference them get the new ids.
  const createdExtras = new Map<number, number>();
  const swap = (record: Record<string, unknown>): Record<string, unknown> | string => {
    const ids = record.vehicle_extras;
    if (!Array.isArray(ids) || !ids.some((id) => isPlaceholder(Number(id)))) return record;
    const out: number[] = [];
    for (const id of ids as number[]) {
      if (!isPlaceholder(id)) out.push(id);
      else {
        const made = createdExtras.get(id);
        if (made === undefined) return `${plan.extraLabels.get(id) ?? "a new extra"} was not created; nothing was sent`;
        out.push(made);
      }
    }
    return { ...record, vehicle_extras: out };
  };
  const conflict = vehicleRows.conflictOutcome;
  const summary = await job.run<Step>({
    rows: rows(),
    total,
    concurrency: workers,
    label: "applying",
    acting: `applying ${plan.label}: ${print.extrasSummary(e).replace(/\.$/, "")}; ${v.create.length} vehicles to create, ${v.change.length} to change, ${v.remove.length} to remove`,
    order: ORDER,
    quietIds: WROTE,
    report: opts.report,
    startedAt: started,
    converged: opts.converged,
    signal: opts.signal,
    onProgress: opts.onProgress,
    doneEarlier: [...job.log.previous.values()].filter((r) => r.state === "done").length,
    skipDone: false,
    // an extra's row names its id extra_id (its row numbers live apart: EXTRA_ROW up, or below -EXTRA_ROW)
    shown: (r) => ({ ...r, row: fileRow(r.row), ...(Math.abs(r.row) >= EXTRA_ROW ? { extra: true } : {}) }),
    reportColumns: ACCOUNT_REPORT_COLUMNS,
    identityCheck:
      opts.dedupe === false
        ? undefined
        : {
            statuses: ["created"],
            identity: (row) =>
              row.item.kind === "create"
                ? identityOf(plan.vehicles.createRecords.get(row.item.c.row) ?? {})
                : undefined,
            // recorded under the apply's undo op, as its other writes
            remove: async (id) =>
              (await gateway.removePlanned(deps, id, {}, { undo })).status === "removed" ? "removed" : "gone",
          },
    send: async ({ row, item }, ctx) => {
      const phase = phaseOf(item);
      try {
        for (let p = 0; p < phase; p++) await gates[p]!.promise;
        const w = { undo, beforeWrite: ctx.beforeWrite, signal: ctx.signal };
        if (item.kind === "extra") {
          if (item.create) {
            const id = await gateway.createExtra(deps, item.create.record, w);
            // Another run (another machine) may have created it too: the lowest id is kept, before any vehicle uses one.
            const twin = opts.dedupe === false ? undefined : await converge.ownExtraTwin(deps, id);
            if (twin) {
              await converge.removeExtraCopy(deps, twin, w);
              createdExtras.set(PLACEHOLDER_BASE + item.create.row, twin.kept);
              return { status: "deduplicated", id: twin.kept };
            }
            createdExtras.set(PLACEHOLDER_BASE + item.create.row, id);
            if (item.create.active === false) await gateway.setExtraActive(deps, id, false, w);
            return { status: "created", id };
          }
          let status = "unchanged";
          const id = (item.update ?? item.switch)!.id;
          if (item.update) {
            const r = await gateway.replaceExtraPlanned(
              deps,
              id,
              { before: item.update.before, after: item.update.after },
              w,
            );
            if (r.status === "conflict") return conflict(r.moved, r.gone);
            if (r.status === "changed") status = "updated";
          }
          if (item.switch) {
            const r = await gateway.setExtraActive(deps, id, item.switch.to, w);
            if (r.status === "gone") return conflict([], true);
            if (r.status === "switched") status = status === "updated" ? "updated" : "switched";
          }
          return { status, id };
        }
        if (item.kind === "extra-delete") {
          // refused when the extra moved since the plan (its members as listed then)
          const was = extraState(item.d.record);
          const expect = was && {
            option_id: was.option_id,
            period: was.period,
            price: was.price,
            currency_id: was.currency_id,
            quantity: was.quantity,
          };
          const r = await gateway.removeExtraPlanned(deps, item.d.id, { expect }, w);
          if (r.status === "conflict") return conflict(r.moved);
          return { status: r.status === "gone" ? "unchanged" : "deleted", id: item.d.id };
        }
        if (item.kind === "create") {
          const record = swap({ ...plan.vehicles.createRecords.get(item.c.row)! });
          if (typeof record === "string") throw new InputError(record);
          return vehicleRows.sendCreate(deps, record, plan.vehicles.uploads.get(item.c.row), ctx, w);
        }
        if (item.kind === "change") {
          const after = swap(item.c.after);
          if (typeof after === "string") throw new InputError(after);
          return vehicleRows.sendChange(deps, item.c, after, plan.vehicles.uploads.get(row), ctx, w);
        }
        return vehicleRows.sendRemove(deps, item.c, w);
      } finally {
        finished(phase);
      }
    },
    after: (summary) => {
      const wrote = WROTE.some((k) => summary.counts.get(k));
      if (batch && wrote) deps.msg.info(`undo with: rentctl undo ${batch.op}`);
    },
    verdict: (summary) => {
      const conflicts = summary.counts.get("conflict") ?? 0;
      if (!conflicts) return undefined;
      return new PartialFailureError(
        `${conflicts} record${conflicts === 1 ? " was" : "s were"} changed by someone else since the plan was made and left as ${conflicts === 1 ? "it is" : "they are"}`,
        { hint: `run \`rentctl account diff -f ${plan.label}\` again to see the new plan, then apply it` },
      );
    },
  });
  return {
    counts: Object.fromEntries(summary.counts),
    failed: summary.failed,
    ...(batch ? { undoOp: batch.op } : {}),
  };
}

/** The rows of a plan in its three phases (extras, vehicles, extra deletions), numbered as the row log keeps them. */
function planPhases(plan: AccountPlan): BulkRow<Step>[][] {
  const v = plan.vehicles.plan;
  const e = plan.extras;
  const extraRows = new Map<number, Extract<Step, { kind: "extra" }>>();
  const extraStep = (row: number) => {
    let s = extraRows.get(row);
    if (!s) {
      s = { kind: "extra" };
      extraRows.set(row, s);
    }
    return s;
  };
  for (const c of e.create) extraStep(c.row).create = c;
  for (const u of e.update) extraStep(u.row).update = u;
  for (const s of e.switch) extraStep(s.row).switch = s;
  // a create's key says so: a rerun's identity check tells a create left in flight by it
  const keyOf = (s: Extract<Step, { kind: "extra" }>) =>
    s.create ? extraCreateKey(s.create.key) : `extra ${(s.update ?? s.switch)!.key}`;
  return [
    [...extraRows.entries()]
      .sort(([a], [b]) => a - b)
      .map(([row, s]) => ({ row: EXTRA_ROW + row, key: keyOf(s), item: s })),
    [
      // creates apart from changes (CREATE_ROW + the file's row): a rerun's identity check tells a create in flight
      ...v.create.map((c) => ({ row: CREATE_ROW + c.row, key: c.reg, item: { kind: "create" as const, c } })),
      ...v.change.map((c) => ({ row: c.row ?? 0, key: c.reg, item: { kind: "change" as const, c } })),
      ...v.remove.map((c) => ({ row: -c.vehicle_id, key: c.reg, item: { kind: "remove" as const, c } })),
    ],
    e.delete.map((d) => ({
      row: -(EXTRA_ROW + d.id),
      key: `extra ${d.key}`,
      item: { kind: "extra-delete" as const, d },
    })),
  ];
}
