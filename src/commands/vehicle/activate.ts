import type { Deps } from "../../deps.js";
import { vehicleIds } from "../../ops/handles.js";
import { setVehicleActivity } from "../../ops/vehicle/activate.js";
import { VEHICLE } from "../../resources/resource.js";
import { arg } from "../flags.js";
import { runEach } from "../per-id.js";
import { printDiff } from "../record-output.js";
import { defineVerb } from "../verb.js";
import { setActivity as setMany } from "./many.js";
import { selectionFlags, wantsJob } from "./selection-flags.js";

/** `vehicle activate` and `vehicle deactivate`: one declaration each, one implementation. */
function activityVerb(active: boolean) {
  const name = active ? "activate" : "deactivate";
  return defineVerb({
    name,
    description: active
      ? "Make vehicles available for rent (vehicle_activity = 1), through the safe edit"
      : "Take vehicles off rent (vehicle_activity = 0), through the safe edit",
    args: { ids: arg.variadic("vehicle ids or registration numbers (or --where)") },
    flags: selectionFlags(),
    examples: [`rentctl vehicle ${name} 1 2`, `rentctl vehicle ${name} --where segment=boats --yes`],
    run: async (deps, args, opts) => {
      if (!wantsJob(opts)) return setActivity(deps, args.ids, active);
      return setMany(deps, active, { ...opts, ids: args.ids });
    },
  });
}

export const activateVerb = activityVerb(true);
export const deactivateVerb = activityVerb(false);

export async function setActivity(deps: Deps, rawIds: string[], active: boolean): Promise<void> {
  const ids = await vehicleIds(deps, rawIds);
  await runEach(deps, ids, `${active ? "activate" : "deactivate"}`, async (id, say) => {
    const r = await setVehicleActivity(
      deps,
      { id, active, dryRun: deps.flags.dryRun },
      { onProgress: (p) => say.acting(p.target, p.what) },
    );
    if (r.dryRun) await printDiff(deps, VEHICLE, id, r.changes, r.dryRun.request);
    else if (r.changed) say.success(`vehicle ${id} ${active ? "activated" : "deactivated"}`);
    else say.info(`vehicle ${id} is already ${active ? "active" : "inactive"}`);
    return {
      id,
      status: r.changed ? (active ? "activated" : "deactivated") : "unchanged",
      vehicle_activity: r.vehicle_activity,
      changed: r.changed,
      undo: r.undoOp ?? null,
    };
  });
}
