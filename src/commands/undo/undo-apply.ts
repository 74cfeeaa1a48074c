import { createHash } from "node:crypto";
import type { BulkRow } from "../../bulk/runner.js";
import type { JsonObject } from "../../contract/records.js";
import type { Deps } from "../../deps.js";
import type { HistoryEntry } from "../../history/history.js";

/**
 * Undo a `vehicle apply` (a batch entry), as a bulk job: in reverse order,
 * the vehicles it created are removed, the ones it changed get their
 * previous full record back, and the ones it removed are created again from
 * their saved records (with new ids: the API cannot bring an id back). The
 * job's row log makes a rerun after an interruption continue: a row in
 * flight is reconciled against the server (gone, restored, or re-created
 * under its registration number) instead of being sent again.
 */
export async function undoApply(deps: Deps, batch: HistoryEntry, items: HistoryEntry[]): Promise<void> {
  const [
    { openBulkJob },
    gateway,
    { findByIdentity, listVehicles },
    { currentInput },
    { IdentityIndex, identityOf },
    { History },
  ] = await Promise.all([
    import("../../bulk/job.js"),
    import("../../gateway/index.js"),
    import("../../resources/list.js"),
    import("../../fleet/plan.js"),
    import("../../contract/identity.js"),
    import("../../history/history.js"),
  ]);
  // A row recorded twice (an interrupted apply resumed) is undone once, to its earliest record.
  const steps: BulkRow<HistoryEntry>[] = [];
  const seen = new Set<string>();
  for (const e of [...items].reverse()) {
    const key = `${e.action}:${e.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const earliest = items.find((x) => `${x.action}:${x.id}` === key) ?? e;
    steps.push({ row: steps.length + 1, key: `vehicle ${e.id} (${e.action})`, item: earliest });
  }
  if (deps.flags.dryRun) return dryRun(deps, batch, steps);
  async function* rows(): AsyncGenerator<BulkRow<HistoryEntry>> {
    yield* steps;
  }
  const recreated: Array<{ from: number; id: number }> = [];
  const job = await openBulkJob(deps, {
    job: "undo.apply",
    contentHash: createHash("sha256").update(`${batch.op}|${batch.time}`).digest("hex"),
    what: `undo of apply ${batch.op}`,
  });
  try {
    // Another undo of the same apply ran meanwhile (this one waited for it): nothing is left to do.
    if (job.waited) {
      const now = new History(deps.paths.dataDir).entries().find((e) => e.op === batch.op);
      if (now?.undone) {
        deps.msg.success(`apply ${batch.op} was undone meanwhile by the run this one waited for; nothing to do`);
        await job.finish();
        return;
      }
    }
    // Vehicles to re-create are first looked for by identity (an earlier, interrupted or concurrent
    // undo may have re-created them): one listing, read once, and a vehicle found is adopted.
    const present = new IdentityIndex<number>();
    if (steps.some((s) => s.item.action === "vehicle.remove"))
      for await (const page of listVehicles(deps, { raw: true }))
        for (const v of page) {
          const identity = identityOf(v as Record<string, unknown>);
          if (identity && v.id !== undefined) present.add(identity, Number(v.id));
        }
    const adopt = (e: HistoryEntry) => {
      const identity = identityOf(e.before as Record<string, unknown>);
      return identity ? present.find(identity)[0] : undefined;
    };
    const summary = await job.run<HistoryEntry>({
      rows: rows(),
      total: steps.length,
      // In reverse order of the apply, one at a time.
      concurrency: 1,
      label: "undoing",
      acting: `undoing apply ${batch.op} (${steps.length} vehicle${steps.length === 1 ? "" : "s"})`,
      order: ["restored", "removed", "recreated", "failed"],
      quietIds: ["restored", "removed", "recreated"],
      stdoutReport: false,
      reconcile: async ({ item: e }) => {
        if (e.action === "vehicle.create")
          return (await gateway.currentVehicle(deps, e.id)) ? undefined : { status: "removed", id: e.id };
        if (e.action === "vehicle.edit") {
          const now = await gateway.currentVehicle(deps, e.id);
          return now && gateway.movedFields(now.input, currentInput(e.before)).length === 0
            ? { status: "restored", id: e.id }
            : undefined;
        }
        const found = await findByIdentity(deps, e.before as Record<string, unknown>);
        return found[0] === undefined ? undefined : { status: "recreated", id: found[0] };
      },
      send: async ({ item: e }, ctx) => {
        const w = { undo: gateway.UNDOING, beforeWrite: ctx.beforeWrite, signal: ctx.signal };
        if (e.action === "vehicle.create") {
          await gateway.removePlanned(deps, e.id, {}, w);
          return { status: "removed", id: e.id };
        }
        if (e.action === "vehicle.edit") {
          await gateway.replacePlanned(deps, e.id, { after: currentInput(e.before) }, w);
          return { status: "restored", id: e.id };
        }
        const found = adopt(e);
        if (found !== undefined) return { status: "recreated", id: found }; // already there: adopted, not sent
        const id = await gateway.recreateVehicle(deps, e.before as JsonObject, w);
        recreated.push({ from: e.id, id });
        return { status: "recreated", id };
      },
      after: (s) => {
        for (const r of recreated)
          deps.msg.info(`vehicle ${r.from} re-created as vehicle ${r.id} (ids cannot be restored)`);
        // Only a complete undo says so (an interrupted or failed one ends with its error and a rerun hint).
        if (s.interrupted || s.stoppedBy || s.failed.length) return;
        deps.msg.success(
          `apply ${batch.op} undone: ${s.counts.get("restored") ?? 0} restored, ${s.counts.get("removed") ?? 0} created vehicles removed, ${s.counts.get("recreated") ?? 0} removed vehicles re-created`,
        );
      },
    });
    if (deps.settings().output !== "table" && !deps.flags.quiet)
      await deps.out.record({
        op: batch.op,
        removed: summary.counts.get("removed") ?? 0,
        restored: summary.counts.get("restored") ?? 0,
        recreated: recreated.map((r) => ({ was: r.from, id: r.id })),
      });
  } finally {
    await job.close();
  }
}

/** `undo OP --dry-run` of an apply: what each step would do, in order; nothing is sent or marked undone. */
async function dryRun(deps: Deps, batch: HistoryEntry, steps: BulkRow<HistoryEntry>[]): Promise<void> {
  const what = (e: HistoryEntry) =>
    e.action === "vehicle.create"
      ? "remove (the apply created it)"
      : e.action === "vehicle.edit"
        ? "restore its record from before the apply"
        : "create it again from its saved record (a new id)";
  const plan = steps.map(({ item: e }) => ({
    vehicle_id: e.id,
    reg: typeof e.before.vehicle_reg_number === "string" ? e.before.vehicle_reg_number : null,
    step: e.action === "vehicle.create" ? "remove" : e.action === "vehicle.edit" ? "restore" : "recreate",
  }));
  if (deps.settings().output === "table" && !deps.flags.quiet)
    for (const [i, { item: e }] of steps.entries())
      deps.io.stdout.write(`vehicle ${e.id}${plan[i]!.reg ? ` (${plan[i]!.reg})` : ""}: ${what(e)}\n`);
  else if (!deps.flags.quiet) await deps.out.list(plan);
  deps.msg.info(
    deps.color.dim(
      `dry run: would undo apply ${batch.op} (${steps.length} vehicle${steps.length === 1 ? "" : "s"}); nothing was sent`,
    ),
  );
}
