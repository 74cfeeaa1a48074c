import type { Deps } from "../../deps.js";
import { deleteExtra } from "../../ops/extra/delete.js";
import { extraId } from "../../ops/handles.js";
import { confirmDestructive } from "../confirm.js";
import { arg, flag } from "../flags.js";
import { printResults } from "../per-id.js";
import { defineVerb } from "../verb.js";
import { usedByText } from "./get.js";
import { printExtraDryRun } from "./switch.js";

export const verb = defineVerb({
  name: "delete",
  aliases: ["remove", "rm"],
  description: "Delete an extra (asks on a terminal; --yes or --force in scripts; undo with `rentctl undo`)",
  args: { id: arg.required("extra id or option name") },
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
  const id = await extraId(deps, rawId);
  const r = await deleteExtra(
    deps,
    {
      id,
      dryRun: deps.flags.dryRun,
      // Vehicles that use it are named first; the undo re-creates the extra and re-attaches it to them.
      confirm: async (users) => {
        if (users.length) deps.msg.warn(`extra ${id} is ${usedByText(users)}; deleting it takes it off them`);
        if (opts.force) return;
        const target = await deps.target();
        await confirmDestructive(
          deps,
          `Delete extra ${id} on ${target.env}${users.length ? ` (used by ${users.length} vehicle${users.length === 1 ? "" : "s"})` : ""}?`,
          "delete an extra",
        );
      },
    },
    { onProgress: (p) => deps.msg.acting(p.target, p.what) },
  );
  if (r.dryRun) return printExtraDryRun(deps, r.dryRun.request, "delete", id);
  await printResults(deps, [{ id, status: "deleted", deleted: true, undo: r.undoOp ?? null }]);
  deps.msg.success(`extra ${id} deleted${r.undoOp ? ` · undo with: rentctl undo ${r.undoOp}` : ""}`);
}
