import type { Deps } from "../../deps.js";
import { arg } from "../flags.js";
import { defineVerb } from "../verb.js";
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
    const { remove: removeMany } = await import("./many.js");
    return removeMany(deps, { ...opts, ids: args.ids });
  },
});

export async function remove(deps: Deps, rawIds: string[]): Promise<void> {
  const ids = await (await import("../../ops/handles.js")).vehicleIds(deps, rawIds);
  const [{ requireUser }, { confirmDestructive }, { removeVehicle }] = await Promise.all([
    import("../../deps.js"),
    import("../confirm.js"),
    import("../../ops/vehicle/remove.js"),
  ]);
  const userId = await requireUser(deps);
  const target = await deps.target();
  const what = ids.length === 1 ? `vehicle ${ids[0]}` : `${ids.length} vehicles (${ids.join(", ")})`;
  if (deps.flags.dryRun) {
    const { quietDryRun } = await import("../../resources/safe-edit.js");
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
  const { runEach } = await import("../per-id.js");
  deps.msg.acting(target, `removing ${ids.length === 1 ? `vehicle ${ids[0]}` : `${ids.length} vehicles`}`);
  await runEach(deps, ids, "remove", async (id, say) => {
    const { undoOp } = await removeVehicle(deps, { id });
    say.success(`vehicle ${id} removed${undoOp ? ` · undo with: rentctl undo ${undoOp}` : ""}`);
    return { id, status: "removed", removed: true, undo: undoOp ?? null };
  });
}
