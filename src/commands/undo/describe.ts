import { counted } from "../../api/paginate.js";
import { activeOf } from "../../contract/extra-fields.js";
import type { JsonObject } from "../../contract/records.js";
import { type HistoryEntry, isBatchEntry } from "../../history/history.js";
import { whatOf } from "./undo-apply.js";

export { counted } from "../../api/paginate.js";
export { UNDOING } from "../../gateway/undo.js";

/**
 * How `rentctl undo` lists an entry: what the op did, in a few words, so the
 * list tells an activate from a price change and an apply from an import.
 */

/** The name of an entry's action in the list: a batch says whether it was an account apply. */
export function actionOf(e: HistoryEntry): string {
  return e.action === "vehicle.apply" && e.before.account === true ? "account.apply" : e.action;
}

/** What an op did (`changed price_per_day, vehicle_activity`, `switched off`, `1 extra and 3 vehicles`). */
export function whatItDid(e: HistoryEntry, rows: readonly HistoryEntry[]): string {
  // a batch's rows: each create is recorded twice (before its request with id 0, then with its id)
  if (isBatchEntry(e)) return whatOf(rows.filter((r) => r.id > 0));
  if (e.items?.length)
    return `${e.action === "vehicle.remove" ? "removed" : "changed"} ${counted(e.items.length, "vehicles")}`;
  switch (e.action) {
    case "vehicle.edit":
    case "extra.update":
      return e.fields?.length ? `changed ${e.fields.join(", ")}` : "changed";
    case "vehicle.create":
    case "extra.create":
      return "created";
    case "vehicle.remove":
      return "removed";
    case "extra.delete":
      return "deleted";
    case "extra.switch": {
      const was = activeOf(e.before);
      return was === undefined ? "switched" : `switched ${was ? "off" : "on"}`;
    }
    default:
      return e.action;
  }
}

/** One row of the list. */
export function listRow(e: HistoryEntry, rows: readonly HistoryEntry[]): JsonObject {
  return {
    op: e.op,
    time: e.time,
    action: actionOf(e),
    // a batch (an apply, an import) has no one id: its rows are counted under "what"
    id: isBatchEntry(e) ? null : e.id,
    what: whatItDid(e, rows),
    env: e.env,
    user_id: e.userId ?? null,
    undone: e.undone ?? null,
  };
}
