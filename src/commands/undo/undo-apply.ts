import { ApiError } from "../../api/errors.js";
import type { Deps } from "../../deps.js";
import { InputError, PartialFailureError } from "../../errors.js";
import { checkVehicle, sendCreate, sendEdit, sendRemove } from "../../fleet/adapters.js";
import { currentInput } from "../../fleet/plan.js";
import type { HistoryEntry } from "../../history/history.js";

/**
 * Undo a `vehicle apply` (a batch entry): in reverse order, the vehicles it
 * created are removed, the ones it changed get their previous full record
 * back, and the ones it removed are created again from their saved records
 * (with new ids: the API cannot bring an id back).
 */
export async function undoApply(deps: Deps, batch: HistoryEntry, items: HistoryEntry[]): Promise<void> {
  const target = await deps.target();
  deps.msg.acting(target, `undoing apply ${batch.op} (${items.length} vehicle${items.length === 1 ? "" : "s"})`);
  const counts = { removed: 0, restored: 0, recreated: 0 };
  const failed: Array<{ field: string; message: string }> = [];
  const recreated: Array<{ from: number; id: number }> = [];
  const seen = new Set<string>();
  for (const e of [...items].reverse()) {
    // A row journaled twice (an interrupted run resumed) is undone once, to its earliest record.
    const key = `${e.action}:${e.id}`;
    const earliest = items.find((x) => `${x.action}:${x.id}` === key) ?? e;
    if (seen.has(key)) continue;
    seen.add(key);
    try {
      if (e.action === "vehicle.create") {
        await sendRemove(deps, e.id).catch((err: unknown) => {
          if (!(err instanceof ApiError && err.status === 404)) throw err;
        });
        counts.removed++;
      } else if (e.action === "vehicle.edit") {
        const checked = await checkVehicle(deps, currentInput(earliest.before));
        if (!checked.record) throw new InputError(checked.problems.map((p) => `${p.field}: ${p.message}`).join("; "));
        await sendEdit(deps, e.id, checked.record);
        counts.restored++;
      } else if (e.action === "vehicle.remove") {
        const checked = await checkVehicle(deps, currentInput(earliest.before));
        if (!checked.record) throw new InputError(checked.problems.map((p) => `${p.field}: ${p.message}`).join("; "));
        const id = await sendCreate(deps, checked.record);
        recreated.push({ from: e.id, id });
        counts.recreated++;
      }
    } catch (err) {
      failed.push({
        field: `vehicle ${e.id} (${e.action})`,
        message: err instanceof Error ? err.message : String(err),
      });
    }
  }
  if (deps.settings().output !== "table")
    await deps.out.record({
      op: batch.op,
      removed: counts.removed,
      restored: counts.restored,
      recreated: recreated.map((r) => ({ was: r.from, id: r.id })),
    });
  for (const r of recreated) deps.msg.info(`vehicle ${r.from} re-created as vehicle ${r.id} (ids cannot be restored)`);
  deps.msg.success(
    `apply ${batch.op} undone: ${counts.restored} restored, ${counts.removed} created vehicles removed, ${counts.recreated} removed vehicles re-created`,
  );
  if (failed.length)
    throw new PartialFailureError(`${failed.length} vehicle${failed.length === 1 ? "" : "s"} could not be restored`, {
      details: failed,
    });
}
