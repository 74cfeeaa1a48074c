import type { Deps } from "../../deps.js";
import { guardedReplace } from "../../gateway/records.js";
import { VEHICLE } from "../../resources/safe-edit.js";
import { parseId } from "../ids.js";

export async function setActivity(deps: Deps, rawIds: string[], active: boolean): Promise<void> {
  const ids = rawIds.map((r) => parseId(r, "vehicle"));
  const { runEach } = await import("../per-id.js");
  await runEach(deps, ids, `${active ? "activate" : "deactivate"}`, async (id) => {
    const r = await guardedReplace(deps, VEHICLE, id, { vehicle_activity: active ? 1 : 0 });
    if (r.sent) deps.msg.success(`vehicle ${id} ${active ? "activated" : "deactivated"}`);
    else if (!deps.flags.dryRun) deps.msg.info(`vehicle ${id} is already ${active ? "active" : "inactive"}`);
    return { id, vehicle_activity: active ? 1 : 0, changed: Boolean(r.sent), undo: r.undoOp ?? null };
  });
}
