import { requireUser } from "../../config/target.js";
import type { Deps } from "../../deps.js";
import { vehicleIds } from "../../ops/handles.js";
import { removeVehicle } from "../../ops/vehicle/remove.js";
import { confirmDestructive } from "../confirm.js";
import { arg } from "../flags.js";
import { runEach } from "../per-id.js";
import { quietDryRun } from "../record-output.js";
import { defineVerb } from "../verb.js";
import { remove as removeMany } from "./many.js";
import { selectionFlags, wantsJob } from "./selection-flags.js";

export const verb = defineVerb({
  name: "remove",
  aliases: ["delete", "rm"],
  description: "Remove vehicles (asks on a terminal; --yes in scripts; undo with `rentctl undo`)",
  args: { ids: arg.variadic("vehicle ids or registration numbers (or --where)") },
  flags: selectionFlags(),
  examples: [
    "rentctl vehicle remove 1",
    "rentctl vehicle remove 1 2 --yes",
    "rentctl vehicle remove --where vehicle_activity=0 --dry-run",
  ],
  run: async (deps, args, opts) => {
    if (!wantsJob(opts)) return remove(deps, args.ids);
    return removeMany(deps, { ...opts, ids: args.ids });
  },
});

export async function remove(deps: Deps, rawIds: string[]): Promise<void> {
  const ids = await vehicleIds(deps, rawIds);
  const userId = await requireUser(deps);
  const target = await deps.target();
  const what = ids.length === 1 ? `vehicle ${ids[0]}` : `${ids.length} vehicles (${ids.join(", ")})`;
  if (deps.flags.dryRun) {
    if (await quietDryRun(deps, ids)) return;
    for (const id of ids) {
      const r = await removeVehicle(deps, { id, dryRun: true });
      if (r.dryRun) await deps.out.record(r.dryRun.request);
    }
    deps.msg.info(
      deps.color.dim(`dry run: would remove ${what} on ${target.env} as owner ${userId}; nothing was sent`),
    );
    return;
  }
  await confirmDestructive(
    deps,
    `Remove ${what} on ${target.env}?`,
    `remove ${ids.length === 1 ? "a vehicle" : "vehicles"}`,
  );
  deps.msg.acting(target, `removing ${ids.length === 1 ? `vehicle ${ids[0]}` : `${ids.length} vehicles`}`);
  await runEach(deps, ids, "remove", async (id, say) => {
    const { undoOp } = await removeVehicle(deps, { id });
    say.success(`vehicle ${id} removed${undoOp ? ` · undo with: rentctl undo ${undoOp}` : ""}`);
    return { id, status: "removed", removed: true, undo: undoOp ?? null };
  });
}
