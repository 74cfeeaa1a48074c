import { EXTRA_FIELDS } from "../../contract/extra-fields.js";
import type { Deps } from "../../deps.js";
import { UsageError } from "../../errors.js";
import { arg, flag } from "../flags.js";
import { parseId } from "../ids.js";
import type { InputSources } from "../input.js";
import { defineVerb } from "../verb.js";
import { extraInput, extraInputFlags } from "./input-flags.js";

export const verb = defineVerb({
  name: "update",
  description: "Change an extra safely: reads it and sends every member (the API replaces the whole extra)",
  args: { id: arg.required("extra id") },
  flags: { replace: flag.bool("--replace", "send exactly the members given"), ...extraInputFlags },
  examples: ["rentctl extra update 2 --price 12", "rentctl extra update 2 --quantity 4 --dry-run"],
  run: (deps, args, opts) => update(deps, args.id, { ...extraInput(opts), replace: opts.replace }),
});

export async function update(deps: Deps, rawId: string, src: InputSources & { replace?: boolean }): Promise<void> {
  const [{ EXTRA }, { gatherInput, resolveNamedRefs }] = await Promise.all([
    import("../../resources/safe-edit.js"),
    import("../input.js"),
  ]);
  const id = parseId(rawId, "extra");
  const changes = await gatherInput(deps, EXTRA_FIELDS, src);
  delete changes.locale_id;
  if (Object.keys(changes).length === 0) {
    throw new UsageError("nothing to change: give --option, --price, --currency, --period, --quantity or --set", {
      hint: "example: rentctl extra update 7 --price 12",
    });
  }
  await resolveNamedRefs(deps, EXTRA_FIELDS, changes);
  // A full replacement: every member must still be there after the change.
  const { guardedReplace } = await import("../../gateway/records.js");
  const r = await guardedReplace(deps, EXTRA, id, changes, { replace: src.replace, requireAll: true });
  if (!r.sent) return;
  if (deps.flags.quiet) return deps.out.ids([id]);
  if (deps.settings().output !== "table")
    await deps.out.record({ id, changes: r.changes as never, undo: r.undoOp ?? null });
  deps.msg.success(`extra ${id} updated${r.undoOp ? ` · undo with: rentctl undo ${r.undoOp}` : ""}`);
}
