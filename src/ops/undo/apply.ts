import { createHash } from "node:crypto";
import { PartialFailureError } from "../../base/errors.js";
import { holdJobLog, openBulkJob } from "../../bulk/job.js";
import type { BulkRow } from "../../bulk/runner.js";
import { activeOf, memberOf } from "../../contract/extra-fields.js";
import { IdentityIndex, identityOf } from "../../contract/identity.js";
import type { JsonObject } from "../../contract/records.js";
import type { Deps } from "../../deps.js";
import type { HistoryEntry } from "../../gateway/history.js";
import { History } from "../../gateway/history.js";
import * as gatewayModule from "../../gateway/index.js";
import type { RowWrite } from "../../gateway/vehicles.js";
import { currentInput } from "../../plans/plan.js";
import { findByIdentity, listExtras, listVehicles } from "../../resources/list.js";
import type { UndoHints } from "./hints.js";
import { whatOf } from "./history.js";

/**
 * Undo a `vehicle apply` (a batch entry), as a bulk job: in reverse order,
 * the vehicles it created are removed, the ones it changed get their
 * previous full record back, and the ones it removed are created again from
 * their saved records (with new ids: the API cannot bring an id back). The
 * job's row log makes a rerun after an interruption continue: a row in
 * flight is reconciled against the server (gone, restored, or re-created
 * under its registration number) instead of being sent again.
 */
export interface UndoApplyOptions {
  /** Undo rows whose vehicle changed since the apply too (those changes are lost). */
  force?: boolean;
  /** false: no identity check after the re-creations. */
  dedupe?: boolean;
  /** Answer the steps, in order; send nothing. */
  dryRun?: boolean;
  /** How a refusal names the next step. */
  hints: UndoHints;
  /** Stop: no new rows; the rows in flight finish and are recorded (then InterruptedError). */
  signal?: AbortSignal;
}

/** One step of an apply's undo, as a dry run answers it. */
export interface UndoApplyDryRunStep {
  kind: "vehicle" | "extra";
  /** The apply's write (`vehicle.create`, `extra.update`, ...). */
  action: string;
  vehicle_id: number;
  reg: string | null;
  step: "remove" | "restore" | "recreate";
  /** What the step would do, in a few words. */
  what: string;
}

/** What an apply's undo did. */
export interface UndoApplyResult {
  /** `apply 3`, `import 4`. */
  name: string;
  counts: { removed: number; restored: number; already: number };
  /** Records created again under new ids (the API cannot bring an id back). */
  recreated: Array<{ from: number; id: number; kind?: "extra" }>;
  /** A dry run: the steps in order, and what the apply's rows are. */
  steps?: UndoApplyDryRunStep[];
  what?: string;
}

/** A create whose answer never came (recorded with id 0 before its request, no row with its id after). */
const isPending = (e: HistoryEntry) => e.action === "vehicle.create" && e.id === 0;
/** An account apply's extra create recorded before its request (id 0) whose answer never came. */
const isPendingExtra = (e: HistoryEntry) => e.action === "extra.create" && e.id === 0;

export async function undoApply(
  deps: Deps,
  batch: HistoryEntry,
  items: HistoryEntry[],
  opts: UndoApplyOptions,
): Promise<UndoApplyResult> {
  const identity = (e: HistoryEntry) => identityOf(e.before as Record<string, unknown>);
  // Creates whose id is known: their intent rows (id 0) need no step of their own.
  const answered = new IdentityIndex<true>();
  for (const e of items)
    if (e.action === "vehicle.create" && e.id > 0) {
      const i = identity(e);
      if (i) answered.add(i, true);
    }
  // Extra creates whose id is known, by identity (option, period, price): their intent rows need no step either.
  const extraIdentity = (r: JsonObject) =>
    ["option_id", "period", "price"].map((k) => String(Number(memberOf(r, k) ?? NaN))).join("/");
  const answeredExtras = new Set(
    items.filter((e) => e.action === "extra.create" && e.id > 0).map((e) => extraIdentity(e.before)),
  );
  // A row recorded twice (an interrupted apply resumed) is undone once, to its earliest record.
  const steps: BulkRow<HistoryEntry>[] = [];
  const seen = new Set<string>();
  const keyOf = (e: HistoryEntry) => {
    if (isPendingExtra(e)) return `extra.create:${extraIdentity(e.before)}`;
    if (!isPending(e)) return `${e.action}:${e.id}`;
    const i = identity(e);
    return i ? `create:${i.reg}:${i.country ?? ""}` : undefined;
  };
  // An account apply's extra create whose answer never came is looked for by its identity (see undoExtra).
  for (const e of [...items].reverse()) {
    const key = keyOf(e);
    if (key === undefined || seen.has(key)) continue;
    if (isPending(e) && answered.find(identity(e)!).length) continue;
    if (isPendingExtra(e) && answeredExtras.has(extraIdentity(e.before))) continue;
    seen.add(key);
    const earliest = items.find((x) => keyOf(x) === key) ?? e;
    steps.push({
      row: steps.length + 1,
      key: isPending(e)
        ? `vehicle ${showReg(e)} (create, answer lost)`
        : isPendingExtra(e)
          ? `extra ${extraIdentity(e.before).replace(/^(\w+)\/(\w+)\/(\w+)$/, "option $1, period $2, price $3")} (create, answer lost)`
          : `${e.action.startsWith("extra.") ? "extra" : "vehicle"} ${e.id} (${e.action})`,
      item: earliest,
    });
  }
  // Deleted extras come back first, whenever the apply's delete was recorded: the vehicles that used them
  // are then restored with the new ids (see extraIds below).
  steps.sort((a, b) => Number(b.item.action === "extra.delete") - Number(a.item.action === "extra.delete"));
  steps.forEach((s, i) => {
    s.row = i + 1;
  });
  const name = batchName(batch);
  const none = { removed: 0, restored: 0, already: 0 };
  if (opts.dryRun)
    return { name, counts: none, recreated: [], steps: dryRun(steps), what: whatOf(steps.map((s) => s.item)) };
  async function* rows(): AsyncGenerator<BulkRow<HistoryEntry>> {
    yield* steps;
  }
  const recreated: Array<{ from: number; id: number; kind?: "extra" }> = [];
  // The apply itself: still running (wait for it), or killed with writes in flight (let them land first).
  const applyLog = typeof batch.before.log === "string" ? batch.before.log : undefined;
  const releaseApply = applyLog ? await holdJobLog(deps, applyLog, batchName(batch)) : () => {};
  let job: Awaited<ReturnType<typeof openBulkJob>>;
  try {
    job = await openBulkJob(deps, {
      job: "undo.apply",
      contentHash: createHash("sha256").update(`${batch.op}|${batch.time}`).digest("hex"),
      what: `undo of ${batchName(batch)}`,
    });
  } catch (e) {
    releaseApply();
    throw e;
  }
  try {
    // Another undo of the same apply ran meanwhile (this one waited for it): nothing is left to do.
    if (job.waited) {
      const now = new History(deps.paths.dataDir).entries().find((e) => e.op === batch.op);
      if (now?.undone) {
        deps.msg.success(`${batchName(batch)} was undone meanwhile by the run this one waited for; nothing to do`);
        await job.finish();
        return { name, counts: none, recreated: [] };
      }
    }
    // Writes of a stopped undo may still be on their way: let them land before looking.
    await job.settle();
    // Extras re-created under new ids (a delete undone, by this run or a stopped one): every later step
    // that names the old id (a vehicle's extras) is sent with the new one.
    const extraIds = new Map<number, number>();
    for (const s of steps) {
      const done = job.log.previous.get(s.row);
      if (s.item.action === "extra.delete" && done?.status === "recreated" && done.id !== undefined)
        extraIds.set(s.item.id, done.id);
    }
    const mapExtras = <T extends Record<string, unknown>>(record: T): T => {
      const ids = record.vehicle_extras;
      if (!extraIds.size || !Array.isArray(ids)) return record;
      return { ...record, vehicle_extras: ids.map((id) => extraIds.get(Number(id)) ?? id) };
    };
    // Vehicles to re-create are first looked for by identity (an earlier, interrupted or concurrent
    // undo may have re-created them), and so are creates whose answer was lost: one listing, read once.
    const present = new IdentityIndex<number>();
    if (steps.some((s) => s.item.action === "vehicle.remove" || isPending(s.item)))
      for await (const page of listVehicles(deps, { raw: true }))
        for (const v of page) {
          const i = identityOf(v as Record<string, unknown>);
          if (i && v.id !== undefined) present.add(i, Number(v.id));
        }
    const found = (e: HistoryEntry): number | undefined => {
      const i = identity(e);
      const ids = i ? present.find(i) : [];
      return ids.length ? Math.max(...ids) : undefined;
    };
    // Extras the apply knew by id (updated, switched, deleted, created and answered): never taken for a lost create.
    const knownExtras = new Set(items.filter((e) => e.action.startsWith("extra.") && e.id > 0).map((e) => e.id));
    let extrasNow: Promise<JsonObject[]> | undefined;
    const lostExtra = async (e: HistoryEntry): Promise<number | undefined> => {
      extrasNow ??= Promise.resolve().then(() => listExtras(deps, {}));
      const want = extraIdentity(e.before);
      const ids = (await extrasNow)
        .filter((x) => extraIdentity(x) === want)
        .map((x) => Number(x.id ?? x.extra_id))
        .filter((id) => Number.isSafeInteger(id) && id > 0 && !knownExtras.has(id));
      return ids.length ? Math.max(...ids) : undefined;
    };
    const expect = (record: JsonObject | undefined) => (opts.force || !record ? undefined : currentInput(record));
    const conflicts: Array<{ field: string; message: string }> = [];
    const conflict = (e: HistoryEntry, moved: string[], gone = false) => {
      const error = gone
        ? "removed since the apply; nothing was sent"
        : `changed since the apply (${moved.join(", ")}); left as it is`;
      conflicts.push({ field: `vehicle ${e.id || showReg(e)}`, message: error });
      return { status: "conflict", error };
    };
    // an account apply wrote extras too
    const things = steps.some((s) => s.item.action.startsWith("extra.")) ? "extras and vehicles" : "vehicles";
    const summary = await job.run<HistoryEntry>({
      rows: rows(),
      total: steps.length,
      // In reverse order of the apply, one at a time.
      concurrency: 1,
      label: "undoing",
      acting: `undoing ${batchName(batch)} (${whatOf(steps.map((s) => s.item))})`,
      order: ["restored", "removed", "recreated", "failed"],
      quietIds: ["restored", "removed", "recreated"],
      stdoutReport: false,
      signal: opts.signal,
      identityCheck:
        opts.dedupe === false
          ? undefined
          : {
              statuses: ["recreated"],
              identity: ({ item }) => (item.action === "vehicle.remove" ? identity(item) : undefined),
            },
      reconcile: async ({ item: e }) => {
        if (e.action.startsWith("extra.")) return undefined; // each extra step reads first (see undoExtra)
        if (isPending(e))
          return (await findByIdentity(deps, e.before as Record<string, unknown>)).length
            ? undefined
            : { status: "removed" };
        if (e.action === "vehicle.create")
          return (await gatewayModule.currentVehicle(deps, e.id)) ? undefined : { status: "removed", id: e.id };
        if (e.action === "vehicle.edit") {
          const now = await gatewayModule.currentVehicle(deps, e.id);
          return now && gatewayModule.movedFields(now.input, mapExtras(currentInput(e.before))).length === 0
            ? { status: "restored", id: e.id }
            : undefined;
        }
        const ids = await findByIdentity(deps, e.before as Record<string, unknown>);
        return ids.length ? { status: "recreated", id: Math.max(...ids) } : undefined;
      },
      send: async ({ item: e }, ctx) => {
        const w = { undo: gatewayModule.UNDOING, beforeWrite: ctx.beforeWrite, signal: ctx.signal };
        if (isPendingExtra(e)) {
          // The create's answer was lost: the extra of its option, period and price, if the create landed at all.
          const id = await lostExtra(e);
          const what = lostCreateLabel(e);
          if (id === undefined) {
            deps.msg.info(`${what}: no such extra on the server (the create never landed); nothing to delete`);
            return { status: "already" };
          }
          knownExtras.add(id);
          const r = await gatewayModule.removeExtraPlanned(deps, id, {}, w);
          deps.msg.info(`${what}: found as extra ${id} by option, period and price; deleted`);
          return r.status === "removed" ? { status: "removed", id } : { status: "already", id };
        }
        if (e.action.startsWith("extra.")) {
          const r = await undoExtra(deps, gatewayModule, e, w, Boolean(opts.force));
          if (r.status === "conflict") {
            conflicts.push({ field: `extra ${e.id}`, message: r.error ?? "changed since the apply" });
          }
          if (r.status === "recreated" && r.id !== undefined) {
            recreated.push({ from: e.id, id: r.id, kind: "extra" });
            extraIds.set(e.id, r.id);
          }
          return r;
        }
        if (e.action === "vehicle.create") {
          // Its id, or (the answer lost) the vehicle of its identity, if the create landed at all.
          const id = isPending(e) ? found(e) : e.id;
          if (id === undefined) return { status: "already" };
          const r = await gatewayModule.removePlanned(deps, id, { expect: expect(e.before) }, w);
          if (r.status === "conflict") return conflict(e, r.moved);
          return { status: r.status === "gone" ? "already" : "removed", id };
        }
        if (e.action === "vehicle.edit") {
          const r = await gatewayModule.replacePlanned(
            deps,
            e.id,
            { before: expect(e.after), after: mapExtras(currentInput(e.before)) },
            w,
          );
          if (r.status === "conflict") return conflict(e, r.moved, r.gone);
          return { status: r.status === "already" ? "already" : "restored", id: e.id };
        }
        const id = found(e);
        if (id !== undefined) return { status: "already", id }; // already re-created: adopted, not sent
        const made = await gatewayModule.recreateVehicle(deps, mapExtras(e.before as JsonObject), w);
        recreated.push({ from: e.id, id: made });
        return { status: "recreated", id: made };
      },
      after: (s) => {
        for (const r of recreated)
          deps.msg.info(
            `${r.kind ?? "vehicle"} ${r.from} re-created as ${r.kind ?? "vehicle"} ${r.id} (ids cannot be restored)`,
          );
        // Only a complete undo says so (an interrupted or failed one ends with its error and a rerun hint).
        if (s.interrupted || s.stoppedBy || s.failed.length || s.counts.get("conflict")) return;
        const n = (k: string) => s.counts.get(k) ?? 0;
        deps.msg.success(
          `${batchName(batch)} undone: ${n("restored")} restored, ${n("removed")} created ${things} removed, ${n("recreated")} removed ${things} re-created${n("already") ? `, ${n("already")} already as before the apply` : ""}`,
        );
      },
      verdict: (s) => {
        const n = s.counts.get("conflict") ?? 0;
        if (!n) return undefined;
        return new PartialFailureError(
          `${n} vehicle${n === 1 ? " was" : "s were"} changed since the apply and left as ${n === 1 ? "it is" : "they are"}; the rest was undone`,
          {
            details: conflicts.slice(0, 20),
            hint: opts.hints.force(batch.op),
          },
        );
      },
    });
    return {
      name,
      counts: {
        removed: summary.counts.get("removed") ?? 0,
        restored: summary.counts.get("restored") ?? 0,
        already: summary.counts.get("already") ?? 0,
      },
      recreated,
    };
  } finally {
    await job.close();
    releaseApply();
  }
}

/**
 * Undo one extra row of an account apply: a created extra is deleted, an
 * updated one gets its members back (guarded against a later change unless
 * --force), a switched one is set back on or off, a deleted one is created
 * again (a new id; the vehicles that used it had to drop it first, and their
 * own undo rows, run before this one, give them their previous extras ids).
 */
async function undoExtra(
  deps: Deps,
  gateway: typeof gatewayModule,
  e: HistoryEntry,
  w: RowWrite,
  force: boolean,
): Promise<{ status: string; id?: number; error?: string }> {
  const members = (r: JsonObject) => {
    const out: Record<string, number> = {};
    for (const f of ["option_id", "price", "currency_id", "period", "quantity"]) {
      const v = memberOf(r, f);
      if (v !== undefined && v !== null && v !== "") out[f] = Number(v);
    }
    return out;
  };
  if (e.action === "extra.create") {
    const r = await gateway.removeExtraPlanned(deps, e.id, {}, w);
    return r.status === "removed" ? { status: "removed", id: e.id } : { status: "already", id: e.id };
  }
  if (e.action === "extra.update") {
    const r = await gateway.replaceExtraPlanned(
      deps,
      e.id,
      { before: force || !e.after ? undefined : (e.after as Record<string, unknown>), after: members(e.before) },
      w,
    );
    if (r.status === "conflict")
      return {
        status: "conflict",
        error: r.gone ? "deleted since the apply" : `changed since the apply (${r.moved.join(", ")}); left as it is`,
      };
    return { status: r.status === "already" ? "already" : "restored", id: e.id };
  }
  if (e.action === "extra.switch") {
    const was = activeOf(e.before);
    if (was === undefined) return { status: "already", id: e.id };
    const r = await gateway.setExtraActive(deps, e.id, was, w);
    return { status: r.status === "switched" ? "restored" : "already", id: e.id };
  }
  // extra.delete: create it again from its saved record
  const id = await gateway.createExtra(deps, members(e.before), w);
  if (activeOf(e.before) === false) await gateway.setExtraActive(deps, id, false, w);
  return { status: "recreated", id };
}

/** `apply 3`, `import 4`: the batch entry an undo restores from. */
const batchName = (batch: HistoryEntry) => `${batch.action === "vehicle.import" ? "import" : "apply"} ${batch.op}`;

/** `extra create (option 9, period 1, price 7), answer lost`. */
function lostCreateLabel(e: HistoryEntry): string {
  const m = (k: string) => String(e.before[k] ?? "?");
  return `extra create (option ${m("option_id")}, period ${m("period")}, price ${m("price")}), answer lost`;
}

const showReg = (e: HistoryEntry) =>
  typeof e.before.vehicle_reg_number === "string" ? e.before.vehicle_reg_number : "(no registration number)";

/** The steps of an apply's undo, in order, as a dry run answers them (nothing is sent or marked undone). */
function dryRun(steps: BulkRow<HistoryEntry>[]): UndoApplyDryRunStep[] {
  const what = (e: HistoryEntry) =>
    isPending(e)
      ? "remove the vehicle of this registration number, if the apply's create landed (its answer never came)"
      : isPendingExtra(e)
        ? "delete the extra of this option, period and price, if the apply's create landed (its answer never came)"
        : e.action === "vehicle.create"
          ? "remove (the apply created it)"
          : e.action === "vehicle.edit" || e.action === "extra.update" || e.action === "extra.switch"
            ? "restore its record from before the apply"
            : e.action === "extra.create"
              ? "delete (the apply created it)"
              : "create it again from its saved record (a new id)";
  return steps.map(({ item: e }) => ({
    kind: e.action.startsWith("extra.") ? "extra" : "vehicle",
    action: e.action,
    vehicle_id: e.id,
    reg: typeof e.before.vehicle_reg_number === "string" ? e.before.vehicle_reg_number : null,
    step:
      e.action === "vehicle.create" || e.action === "extra.create"
        ? "remove"
        : e.action === "vehicle.edit" || e.action === "extra.update" || e.action === "extra.switch"
          ? "restore"
          : "recreate",
    what: what(e),
  }));
}
