import { describeRequest } from "../../api/dry-run.js";
import type { Deps } from "../../deps.js";
import { EXTRA } from "../../resources/safe-edit.js";
import { confirmDestructive } from "../confirm.js";
import { parseId } from "../ids.js";
import { dryRunNote } from "./switch.js";

export async function remove(deps: Deps, rawId: string): Promise<void> {
  const id = parseId(rawId, "extra");
  const target = await deps.target();
  if (deps.flags.dryRun) {
    await deps.out.record(describeRequest(target.baseUrl, "extras.delete", { extra_id: id }));
    return dryRunNote(deps, "delete", id);
  }
  await confirmDestructive(deps, `Delete extra ${id} on ${target.env}?`, "delete an extra");
  deps.msg.acting(target, `deleting extra ${id}`);
  const { removeRecord } = await import("../../gateway/records.js");
  const { undoOp } = await removeRecord(deps, EXTRA, id);
  const { printResults } = await import("../per-id.js");
  await printResults(deps, [{ id, deleted: true, undo: undoOp ?? null }]);
  deps.msg.success(`extra ${id} deleted${undoOp ? ` · undo with: rentctl undo ${undoOp}` : ""}`);
}
