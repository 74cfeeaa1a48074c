import type { Deps } from "../../deps.js";
import { arg } from "../flags.js";
import { defineVerb } from "../verb.js";
import { selectionFlags, wantsJob } from "./selection-flags.js";

export const verb = defineVerb({
  name: "remove",
  aliases: ["delete", "rm"],
  description: "Remove vehicles (asks on a terminal; --yes in scripts; undo with `rentctl undo`)",
  args: { ids: arg.variadic("vehicle ids (or --where)") },
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
  const ids = await (await import("./handles.js")).vehicleIds(deps, rawIds);
  const [{ requireUser }, { VEHICLE }, { confirmDestructive }] = await Promise.all([
    import("../../deps.js"),
    import("../../resources/resource.js"),
    import("../confirm.js"),
  ]);
  const userId = await requireUser(deps);
  const target = await deps.target();
  const what = ids.length === 1 ? `vehicle ${ids[0]}` : `${ids.length} vehicles (${ids.join(", ")})`;
  if (deps.flags.dryRun) {
    const { describeRequest } = await import("../../api/dry-run.js");
    for (const id of ids)
      await deps.out.record(describeRequest(target.baseUrl, "vehicles.remove", { user_id: userId, vehicle_id: id }));
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
  const { removeRecord } = await import("../../gateway/records.js");
  deps.msg.acting(target, `removing ${ids.length === 1 ? `vehicle ${ids[0]}` : `${ids.length} vehicles`}`);
  await runEach(deps, ids, "remove", async (id) => {
    const { undoOp } = await removeRecord(deps, VEHICLE, id);
    deps.msg.success(`vehicle ${id} removed${undoOp ? ` · undo with: rentctl undo ${undoOp}` : ""}`);
    return { id, removed: true, undo: undoOp ?? null };
  });
}
