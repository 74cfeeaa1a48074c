import type { JsonObject } from "../contract/records.js";
import type { CoreDeps } from "../deps.js";
import type { HistoryAction } from "./history.js";
import { historyFor, historyTarget } from "./history.js";

/**
 * How a write of the gateway is recorded in the undo history (src/gateway/history.ts).
 * The history is written here, by the gateway, before the write is sent, so
 * no command can forget it; a command only says which kind of record its
 * write belongs to.
 */
export type UndoScope =
  /** One entry for this write (`rentctl undo OP` restores it). The default. */
  | { kind: "entry" }
  /** A row of a batch (`vehicle apply`): one entry per row under the batch's op. */
  | { kind: "batch"; batch: UndoBatch }
  /** Already recorded with the whole change, before any row was sent (a change to many vehicles: recordPlan). */
  | { kind: "planned"; op: string }
  /**
   * Not recorded: the writes of an undo itself (restoring from the history
   * adds nothing to it) and the removal of a run's own duplicates. Every
   * other write leaves an exact undo.
   */
  | { kind: "none"; reason: "undo" };

export const OWN_ENTRY: UndoScope = { kind: "entry" };
export const UNDOING: UndoScope = { kind: "none", reason: "undo" };

/** A batch entry of the history; `row` records one vehicle's previous record under it. */
export interface UndoBatch {
  readonly op: string;
  /**
   * `before`: the record to restore; `after`: what the row wrote (an undo
   * refuses to overwrite a vehicle changed since). A create is recorded
   * twice: before its request with id 0 (its identity, so an undo after a
   * lost answer finds it) and with its id once answered.
   */
  row(action: HistoryAction, id: number, before: JsonObject, after?: JsonObject): void;
}

/** The history of the selected target, or undefined for a throw-away in-memory sandbox (nothing to undo there). */
async function historyOf(deps: CoreDeps) {
  if (deps.history === false) return undefined;
  const target = await deps.target();
  const history = historyFor(deps.paths.dataDir, target);
  return history ? { history, where: historyTarget(target) } : undefined;
}

/** Open a batch entry (`vehicle apply`): its rows are recorded as they are sent. */
export async function openBatch(
  deps: CoreDeps,
  action: "vehicle.apply" | "vehicle.import",
  summary: JsonObject,
): Promise<UndoBatch | undefined> {
  const h = await historyOf(deps);
  if (!h) return undefined;
  const batch = h.history.record({ action, id: 0, ...h.where, before: summary }, deps.now());
  let seq = 0;
  return {
    op: batch.op,
    row: (rowAction, id, before, after) =>
      h.history.recordInBatch(
        batch.op,
        ++seq,
        { action: rowAction, id, ...h.where, before, ...(after ? { after } : {}) },
        deps.now(),
      ),
  };
}

/** One entry holding every vehicle's previous record, written before any of them is sent. */
export async function recordPlan(
  deps: CoreDeps,
  action: HistoryAction,
  items: Array<{ id: number; before: JsonObject; fields?: string[] }>,
): Promise<string | undefined> {
  const h = await historyOf(deps);
  if (!h || items.length === 0) return undefined;
  const first = items[0]!;
  return h.history.record({ action, id: first.id, ...h.where, before: first.before, items }, deps.now()).op;
}

/**
 * Record one write's previous record as its scope says; returns the op that
 * undoes it, if any. `fields`: the fields an edit changes (the undo list
 * says what the op did).
 */
export async function recordWrite(
  deps: CoreDeps,
  scope: UndoScope,
  action: HistoryAction,
  id: number,
  before: JsonObject,
  after?: JsonObject,
  fields?: readonly string[],
): Promise<string | undefined> {
  switch (scope.kind) {
    case "entry": {
      const h = await historyOf(deps);
      const what = fields?.length ? { fields: [...fields] } : {};
      return h?.history.record({ action, id, before, ...(after ? { after } : {}), ...what, ...h.where }, deps.now()).op;
    }
    case "batch":
      scope.batch.row(action, id, before, after);
      return scope.batch.op;
    case "planned":
      return scope.op;
    case "none":
      return undefined;
  }
}
