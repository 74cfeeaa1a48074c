import type { HistoryEntry } from "../../history/history.js";
import { History } from "../../history/history.js";
import type { OpContext } from "../context.js";

/** One entry of the undo history as every front end lists it. */
export interface HistoryRow {
  op: string;
  time: string;
  action: string;
  id: number;
  env: string;
  user_id: number | null;
  undone: string | null;
}

/** An entry as a row: an account apply is kept as a batch of vehicle and extra rows; its entry says which it was. */
export function historyRow(e: HistoryEntry): HistoryRow {
  return {
    op: e.op,
    time: e.time,
    action: e.action === "vehicle.apply" && e.before.account === true ? "account.apply" : e.action,
    id: e.id,
    env: e.env,
    user_id: e.userId ?? null,
    undone: e.undone ?? null,
  };
}

export const DEFAULT_HISTORY_LIMIT = 20;

/**
 * The most recent entries that can be undone (newest first; the rows of an
 * apply are under its entry): `limit` of them (default 20; Infinity: all). Read only.
 */
export async function undoHistory(
  ctx: Pick<OpContext, "paths">,
  input: { limit?: number } = {},
): Promise<HistoryRow[]> {
  return new History(ctx.paths.dataDir)
    .entries()
    .filter((e) => e.batch === undefined)
    .slice(-(input.limit ?? DEFAULT_HISTORY_LIMIT))
    .reverse()
    .map(historyRow);
}
