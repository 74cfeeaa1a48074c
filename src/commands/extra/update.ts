import { EXTRA_FIELDS } from "../../contract/extra-fields.js";
import type { Deps } from "../../deps.js";
import { UsageError } from "../../errors.js";
import { EXTRA } from "../../resources/safe-edit.js";
import { parseId } from "../ids.js";
import { gatherInput, type InputSources, resolveNamedRefs } from "../input.js";

export async function update(deps: Deps, rawId: string, src: InputSources & { replace?: boolean }): Promise<void> {
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
