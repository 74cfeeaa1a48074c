import { describeRequest } from "../../api/dry-run.js";
import type { Deps } from "../../deps.js";
import { EXTRA, fetchRecord } from "../../resources/safe-edit.js";
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
  const before = await fetchRecord(deps, EXTRA, id);
  const { historyFor, historyTarget } = await import("../../history/history.js");
  const entry = historyFor(deps.paths.dataDir, target)?.record(
    { action: "extra.delete", id, before, ...historyTarget(target) },
    deps.now(),
  );
  deps.msg.acting(target, `deleting extra ${id}`);
  const client = await deps.client();
  await client.call("extras.delete", { extra_id: id });
  const { printResults } = await import("../per-id.js");
  await printResults(deps, [{ id, deleted: true, undo: entry?.op ?? null }]);
  deps.msg.success(`extra ${id} deleted${entry ? ` · undo with: rentctl undo ${entry.op}` : ""}`);
}
