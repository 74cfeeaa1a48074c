import { VEHICLE_FIELDS } from "../../contract/vehicle-fields.js";
import type { Deps } from "../../deps.js";
import { UsageError } from "../../errors.js";
import { guardedReplace } from "../../gateway/records.js";
import { VEHICLE } from "../../resources/safe-edit.js";
import { parseId } from "../ids.js";
import { gatherInput, type InputSources, resolveNamedRefs } from "../input.js";

export interface EditOptions extends InputSources {
  replace?: boolean;
}

export async function edit(deps: Deps, rawId: string, opts: EditOptions): Promise<void> {
  const id = parseId(rawId, "vehicle");
  const changes = await gatherInput(deps, VEHICLE_FIELDS, opts);
  delete changes.user_id;
  delete changes.locale_id;
  if (Object.keys(changes).length === 0 && !opts.replace) {
    throw new UsageError("nothing to change: give field flags, --set FIELD=VALUE or --from-file", {
      hint: "example: rentctl vehicle edit 42 --price-per-day 55",
    });
  }
  await resolveNamedRefs(deps, VEHICLE_FIELDS, changes);
  const r = await guardedReplace(deps, VEHICLE, id, changes, { replace: opts.replace });
  if (!r.sent) return;
  if (deps.flags.quiet) return deps.out.ids([id]);
  if (deps.settings().output !== "table") {
    await deps.out.record({ id, changes: r.changes as never, undo: r.undoOp ?? null });
  }
  deps.msg.success(
    `vehicle ${id} updated (${r.changes.length} field${r.changes.length === 1 ? "" : "s"} changed)${r.undoOp ? ` · undo with: rentctl undo ${r.undoOp}` : ""}`,
  );
}
