import type { Deps } from "../../deps.js";
import { arg, flag } from "../flags.js";
import { parseId } from "../ids.js";
import { defineVerb } from "../verb.js";
import { dryRunExtra } from "./switch.js";

export const verb = defineVerb({
  name: "delete",
  aliases: ["remove", "rm"],
  description: "Delete an extra (asks on a terminal; --yes or --force in scripts; undo with `rentctl undo`)",
  args: { id: arg.required("extra id") },
  flags: {
    force: flag.bool("--force", "same as --yes: delete without asking, even an extra that vehicles use"),
  },
  examples: [
    "rentctl extra delete 3",
    "rentctl extra delete 3 --force   # in a script: the vehicles using it are listed",
  ],
  notes:
    "\nAn extra that vehicles use is listed with them first; without a terminal it needs --yes or --force (else exit 2, nothing sent). Its undo re-creates the extra and re-attaches it to them.\n",
  run: (deps, args, opts) => remove(deps, args.id, { force: opts.force }),
});

export async function remove(deps: Deps, rawId: string, opts: { force?: boolean } = {}): Promise<void> {
  const id = parseId(rawId, "extra");
  if (deps.flags.dryRun) return dryRunExtra(deps, "extras.delete", "delete", id);
  const target = await deps.target();
  const [{ confirmDestructive }, { EXTRA }] = await Promise.all([
    import("../confirm.js"),
    import("../../resources/resource.js"),
  ]);
  // Vehicles that use it are named first; the undo re-creates the extra and re-attaches it to them.
  const [{ vehiclesUsingExtra }, { usedByText }] = await Promise.all([
    import("../../resources/list.js"),
    import("./get.js"),
  ]);
  const users = await vehiclesUsingExtra(deps, id);
  if (users.length) deps.msg.warn(`extra ${id} is ${usedByText(users)}; deleting it takes it off them`);
  if (!opts.force)
    await confirmDestructive(
      deps,
      `Delete extra ${id} on ${target.env}${users.length ? ` (used by ${users.length} vehicle${users.length === 1 ? "" : "s"})` : ""}?`,
      "delete an extra",
    );
  deps.msg.acting(target, `deleting extra ${id}`);
  const { removeRecord } = await import("../../gateway/records.js");
  const { undoOp } = await removeRecord(deps, EXTRA, id, { usedBy: users.map((u) => u.id) });
  const { printResults } = await import("../per-id.js");
  await printResults(deps, [{ id, deleted: true, undo: undoOp ?? null }]);
  deps.msg.success(`extra ${id} deleted${undoOp ? ` · undo with: rentctl undo ${undoOp}` : ""}`);
}
