import { counted } from "../../api/paginate.js";
import { activeOf } from "../../contract/extra-fields.js";
import { History, type HistoryEntry, type HistoryTargetInfo, isBatchEntry, sameTarget } from "../../gateway/history.js";
import type { OpContext } from "../context.js";

/** One entry of the undo history as every front end lists it. */
export interface HistoryRow {
  op: string;
  time: string;
  /** What kind of write it was (`vehicle.edit`, `extra.switch`, `account.apply`, ...). */
  action: string;
  /** The record it wrote; null for a batch (an apply, an import), whose rows are counted under `what`. */
  id: number | null;
  /** What it did, in a few words (`changed price_per_day`, `switched off`, `1 extra and 3 vehicles`). */
  what: string;
  env: string;
  user_id: number | null;
  undone: string | null;
}

/** The name of an entry's action: an account apply is kept as a batch of vehicle and extra rows; its entry says which it was. */
export function actionOf(e: HistoryEntry): string {
  return e.action === "vehicle.apply" && e.before.account === true ? "account.apply" : e.action;
}

/** How many extras and vehicles a batch's rows are (`1 extra and 3 vehicles`). */
export function whatOf(items: readonly HistoryEntry[]): string {
  const extras = items.filter((e) => e.action.startsWith("extra.")).length;
  const vehicles = items.length - extras;
  return extras ? `${counted(extras, "extras")} and ${counted(vehicles, "vehicles")}` : counted(vehicles, "vehicles");
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

/** An entry as a row (`rows`: the entries of its batch, when it is one). */
export function historyRow(e: HistoryEntry, rows: readonly HistoryEntry[] = []): HistoryRow {
  return {
    op: e.op,
    time: e.time,
    action: actionOf(e),
    id: isBatchEntry(e) ? null : e.id,
    what: whatItDid(e, rows),
    env: e.env,
    user_id: e.userId ?? null,
    undone: e.undone ?? null,
  };
}

export const DEFAULT_HISTORY_LIMIT = 20;

/**
 * Whether an entry is listed for the target selected now: taken on the same
 * address (or sandbox data file) by the same owner. An entry that names no
 * owner is listed only for a target without one (an owner is recorded
 * whenever the target has one); `--all-owners` lists every entry.
 */
export function listedFor(e: HistoryEntry, t: HistoryTargetInfo): boolean {
  return e.userId === t.userId && sameTarget(e, t);
}

/**
 * The most recent entries that can be undone (newest first; the rows of an
 * apply are under its entry): `limit` of them (default 20; Infinity: all),
 * of the target selected now (same address and owner, `listedFor`) unless
 * `allOwners`. Read only.
 */
export async function undoHistory(
  ctx: Pick<OpContext, "paths" | "target">,
  input: { limit?: number; allOwners?: boolean } = {},
): Promise<HistoryRow[]> {
  const entries = new History(ctx.paths.dataDir).entries();
  const target = input.allOwners ? undefined : await ctx.target();
  const rowsOf = new Map<string, HistoryEntry[]>();
  for (const e of entries) if (e.batch !== undefined) rowsOf.set(e.batch, [...(rowsOf.get(e.batch) ?? []), e]);
  return entries
    .filter((e) => e.batch === undefined && (!target || listedFor(e, target)))
    .slice(-(input.limit ?? DEFAULT_HISTORY_LIMIT))
    .reverse()
    .map((e) => historyRow(e, rowsOf.get(e.op) ?? []));
}
