import { AuthError, NotFoundError } from "../../api/errors.js";
import { counted } from "../../api/paginate.js";
import { InterruptedError, PartialFailureError, UsageError } from "../../base/errors.js";
import { activeOf, EXTRA_FIELDS } from "../../contract/extra-fields.js";
import { IdentityIndex, identityOf } from "../../contract/identity.js";
import type { JsonObject } from "../../contract/records.js";
import { validateRecord } from "../../contract/validate.js";
import type { Deps } from "../../deps.js";
import { listVehicles } from "../../files/adapters.js";
import { setExtraActive } from "../../gateway/extras.js";
import type { History, HistoryEntry } from "../../gateway/history.js";
import { History as HistoryFromHistory, isBatchEntry, remapEntry, sameTarget } from "../../gateway/history.js";
import { createOne, removeRecord, replaceRecord } from "../../gateway/records.js";
import { OWN_ENTRY, recordPlan, UNDOING, type UndoScope } from "../../gateway/undo.js";
import { prepareVehicle } from "../../resources/create.js";
import { findByIdentity } from "../../resources/list.js";
import { type Change, EXTRA, fetchRecord, inputOf, serverMembers, VEHICLE } from "../../resources/safe-edit.js";
import { type DryRun, type OpOptions, sendingTo, type WriteProgress } from "../context.js";
import type { UndoApplyDryRunStep } from "./apply.js";
import { undoApply } from "./apply.js";
import { CLI_UNDO_HINTS, type UndoHints } from "./hints.js";

export { CLI_UNDO_HINTS, LIBRARY_UNDO_HINTS, TOOL_UNDO_HINTS, type UndoHints } from "./hints.js";

/**
 * The undo of one op of the undo history (`rentctl undo OP`, the library's
 * `client.undo(op)`, the MCP `undo` tool): the record restored, removed,
 * switched back or re-created (a new id: the API cannot bring an id back),
 * the op marked undone. Returns what it did; never prints (notes to a person,
 * such as a vehicle an extra could not be put back on, go to `ctx.msg`).
 */

export interface UndoInput {
  /** The op to undo (an OP of the undo history). */
  op: string;
  /** An apply's undo: also undo vehicles changed since the apply (their later changes are lost). */
  force?: boolean;
  /** Check everything, send nothing: answer what would be sent. */
  dryRun?: boolean;
  /** false: no identity check after an apply's re-creations. */
  dedupe?: boolean;
}

/** An id an undo re-created a record under: the server assigns new ids. */
export interface Recreated {
  kind: "vehicle" | "extra";
  from: number;
  to: number;
}

/** A vehicle of a many-vehicle op as its undo left it. */
export interface UndoItem {
  id: number;
  /** An edit: the previous record sent again. */
  restored?: true;
  /** An edit: fields changed back. */
  changes?: number;
  /** A removal: the new id (null: the server's answer named none). */
  recreated_as?: number | null;
  /** A removal: still in the account (same registration number): not created twice. */
  still_present?: true;
  /** Why it could not be restored. */
  error?: string;
  /** A dry run: the request that would be sent, with the difference of an edit. */
  dryRun?: DryRun & { changes?: Change[] };
}

interface Base {
  op: string;
  /** Ids the undo re-created records under, old -> new. */
  recreated: Recreated[];
  /** True when the op is now marked undone (false on a dry run or when nothing could be done). */
  undone: boolean;
}

/** What an undo did, by the kind of op. */
export type UndoResult =
  /** An edit (vehicle edit, extra update): the previous record sent again through the guarded replace. */
  | (Base & {
      kind: "restored";
      noun: "vehicle" | "extra";
      id: number;
      changes: Change[];
      /** False: the record already held its previous state (nothing sent), or a dry run. */
      sent: boolean;
      dryRun?: DryRun;
    })
  /** A removal or a delete: the record created again from its saved state. */
  | (Base & {
      kind: "recreated";
      noun: "vehicle" | "extra";
      from: number;
      /** The new id (undefined: the server's answer named none, or a dry run). */
      id?: number;
      /** A deleted extra: the vehicles it was put back on, and those it could not be. */
      reattached: number[];
      notReattached: Array<{ id: number; error: string }>;
      dryRun?: DryRun;
    })
  /** A create (the record removed) or an extra's switch (set back). */
  | (Base & {
      kind: "removed" | "switched";
      noun: "vehicle" | "extra";
      id: number;
      /** What was done, in a few words (`extra 3 switched back off`, `vehicle 9 was already gone`). */
      said: string;
      /** A switch: the state set back. */
      active?: boolean;
      /** A dry run: what would be done (`remove vehicle 9`). */
      wouldDo?: string;
    })
  /** A change to many vehicles: each restored or re-created; the refusals listed. */
  | (Base & { kind: "many"; action: string; items: UndoItem[]; failed: number; dryRun: boolean })
  /** An apply or an import: undone as a bulk job. */
  | (Base & {
      kind: "apply";
      /** `apply 3`, `import 4`. */
      name: string;
      counts: { removed: number; restored: number; already: number };
      /** A dry run: each step, in order (nothing was sent). */
      steps?: UndoApplyDryRunStep[];
      /** What the apply's rows are (`3 vehicles`, `1 extra and 2 vehicles`). */
      what?: string;
    });

export type UndoProgress = WriteProgress;

/**
 * Undo one op. The context is the full Deps while an apply's undo runs in the bulk job (src/bulk),
 * as account apply's does; the library and the MCP server give their own, silent ones.
 */
export async function undo(
  ctx: Deps,
  input: UndoInput,
  opts: OpOptions<UndoProgress> & { hints?: UndoHints; trace?: (line: string) => void } = {},
): Promise<UndoResult> {
  const hints = opts.hints ?? CLI_UNDO_HINTS;
  const { op } = input;
  const history = new HistoryFromHistory(ctx.paths.dataDir);
  const entries = history.entries();
  // The ids earlier undos re-created under new ones: this undo acts on the records as they are now.
  const ids = history.recreatedIds();
  const listed = entries.find((e) => e.op === op);
  const entry = listed && remapEntry(listed, ids);
  if (!entry) throw new UsageError(`no undo entry ${JSON.stringify(op)}`, { hint: hints.list });
  if (entry.undone) throw new UsageError(`operation ${op} was already undone at ${entry.undone}`);
  if (entry.batch !== undefined)
    throw new UsageError(`operation ${op} is part of apply ${entry.batch}`, { hint: hints.batch(entry.batch) });
  const target = await ctx.target();
  if (!sameTarget(entry, target)) {
    const where = entry.dataFile ? `the sandbox data file ${entry.dataFile}` : `${entry.env} (${entry.baseUrl})`;
    const now = target.embeddedSandbox
      ? target.sandboxDataFile
        ? `the sandbox data file ${target.sandboxDataFile}`
        : "a throw-away in-memory sandbox"
      : target.baseUrl;
    throw new UsageError(
      `operation ${op} was made on ${where}${entry.userId !== undefined ? ` as owner ${entry.userId}` : ""}, not on the target selected now (${now}${target.userId !== undefined ? `, owner ${target.userId}` : ""}); nothing was sent`,
      { hint: hints.target },
    );
  }
  const dryRun = Boolean(input.dryRun);
  if (isBatchEntry(entry)) {
    const r = await undoApply(
      ctx,
      entry,
      entries.filter((e) => e.batch === op).map((e) => remapEntry(e, ids)),
      { force: input.force, dedupe: input.dedupe, dryRun, hints, signal: opts.signal },
    );
    if (!dryRun)
      history.markUndone(
        op,
        ctx.now(),
        r.recreated.map((x) => ({ kind: x.kind ?? "vehicle", from: x.from, to: x.id })),
      );
    return {
      kind: "apply",
      op,
      name: r.name,
      counts: r.counts,
      recreated: r.recreated.map((x) => ({ kind: x.kind ?? "vehicle", from: x.from, to: x.id })),
      undone: !dryRun,
      ...(r.steps ? { steps: r.steps, what: r.what } : {}),
    };
  }
  if (entry.items?.length) return undoMany(ctx, history, entry, { dryRun, hints, opts });
  if (entry.action === "vehicle.create" || entry.action === "extra.create" || entry.action === "extra.switch")
    return undoCreateOrSwitch(ctx, history, entry, dryRun, hints);
  return undoOne(ctx, history, entry, { dryRun, hints, opts });
}

/** How an undo runs: check only or send, the hints of the front end, its progress and trace. */
interface UndoRun {
  dryRun: boolean;
  hints: UndoHints;
  opts: OpOptions<UndoProgress> & { trace?: (line: string) => void };
}

/** Undo of an edit (the previous record sent again), a removal or a delete (created again, with a new id). */
async function undoOne(ctx: Deps, history: History, entry: HistoryEntry, run: UndoRun): Promise<UndoResult> {
  const { dryRun, hints, opts } = run;
  const { op } = entry;
  const res = entry.action.startsWith("vehicle") ? VEHICLE : EXTRA;
  const noun = res.kind;
  const onSend = sendingTo(opts);
  const before = res.mirrorServer ? serverMembers(entry.before) : inputOf(res, entry.before);
  if (entry.action === "vehicle.edit" || entry.action === "extra.update") {
    const [change, how] = restoring(before, entry.fields);
    const r = await replaceRecord(ctx, res, entry.id, change, { ...how, dryRun, onSend });
    if (r.unchanged) ctx.msg.info(`${res.noun} ${entry.id}: nothing to change`);
    const sent = r.sent !== undefined;
    if (sent) history.markUndone(op, ctx.now());
    return {
      kind: "restored",
      op,
      noun,
      id: entry.id,
      changes: r.changes,
      sent,
      undone: sent,
      recreated: [],
      ...(r.dryRun ? { dryRun: r.dryRun } : {}),
    };
  }
  const created = (id: number | undefined, extra: Partial<Extract<UndoResult, { kind: "recreated" }>> = {}) =>
    ({
      kind: "recreated",
      op,
      noun,
      from: entry.id,
      ...(id !== undefined ? { id } : {}),
      reattached: [],
      notReattached: [],
      recreated: id !== undefined ? [{ kind: noun, from: entry.id, to: id }] : [],
      undone: false,
      ...extra,
    }) as Extract<UndoResult, { kind: "recreated" }>;
  let result: Extract<UndoResult, { kind: "recreated" }>;
  if (entry.action === "vehicle.remove") {
    const still = await stillPresent(ctx, entry.id, before);
    if (still !== undefined) {
      throw new UsageError(
        `vehicle ${entry.id} is still in the account (as vehicle ${still}): undoing its removal would create a duplicate; nothing was sent`,
        { hint: hints.vehicleGet(still) },
      );
    }
    const record = await prepareVehicle(ctx, before);
    const r = await createOne(ctx, VEHICLE, record, { undo: UNDOING, dryRun, onSend, trace: opts.trace });
    if (r.dryRun) return created(undefined, { dryRun: r.dryRun });
    result = created(r.id);
  } else {
    const { record } = validateRecord({ ...before, locale_id: await ctx.locale() }, EXTRA_FIELDS, {
      requireRequired: true,
      allowUnknown: true,
    });
    const r = await createOne(ctx, EXTRA, record, { undo: UNDOING, dryRun, onSend, trace: opts.trace });
    if (r.dryRun) return created(undefined, { dryRun: r.dryRun });
    result = created(r.id);
    if (r.id !== undefined) {
      // It comes back as it was: off, if it was off (a new extra is on).
      if (activeOf(entry.before) === false) {
        await setExtraActive(ctx, r.id, false, { undo: UNDOING });
      }
      Object.assign(result, await reattach(ctx, entry, r.id, opts));
    }
  }
  history.markUndone(op, ctx.now(), result.recreated);
  result.undone = true;
  return result;
}

/** Undo of a create (the record is removed) or of an extra's switch (its state before is set back). */
async function undoCreateOrSwitch(
  ctx: Deps,
  history: History,
  entry: HistoryEntry,
  dryRun: boolean,
  hints: UndoHints,
): Promise<UndoResult> {
  const res = entry.action.startsWith("vehicle") ? VEHICLE : EXTRA;
  const { op, id } = entry;
  const kind = entry.action === "extra.switch" ? "switched" : "removed";
  const base = { kind, op, noun: res.kind, id, recreated: [] as Recreated[] } as const;
  if (dryRun) {
    const wouldDo = entry.action === "extra.switch" ? `switch ${res.noun} ${id} back` : `remove ${res.noun} ${id}`;
    return { ...base, said: "", wouldDo, undone: false };
  }
  if (entry.action === "extra.switch") {
    const was = activeOf(entry.before);
    if (was === undefined)
      throw new UsageError(`operation ${op}: the extra's record showed no on/off state; nothing was sent`, {
        hint: hints.extraSwitch(id),
      });
    const r = await setExtraActive(ctx, id, was, { undo: UNDOING });
    if (r.status === "gone") throw new NotFoundError(`extra ${id} not found: deleted since operation ${op}`);
    history.markUndone(op, ctx.now());
    const said = `extra ${id} ${r.status === "switched" ? "switched back" : "already"} ${was ? "on" : "off"}`;
    return { ...base, said, active: was, undone: true };
  }
  let said: string;
  try {
    await removeRecord(ctx, res, id, { undo: UNDOING });
    said = `${res.noun} ${id} ${res.kind === "extra" ? "deleted" : "removed"}`;
  } catch (e) {
    if (!(e instanceof NotFoundError)) throw e;
    said = `${res.noun} ${id} was already gone`;
  }
  history.markUndone(op, ctx.now());
  return { ...base, said, undone: true };
}

/**
 * A deleted extra re-created as `newId`: put it back on the vehicles that used
 * it (the delete kept their ids as `used_by`), each through the guarded safe
 * edit; a vehicle gone or changed meanwhile is reported and left as it is.
 */
async function reattach(
  ctx: Deps,
  entry: HistoryEntry,
  newId: number,
  opts: OpOptions<UndoProgress>,
): Promise<{ reattached: number[]; notReattached: Array<{ id: number; error: string }> }> {
  const users = Array.isArray(entry.before.used_by) ? entry.before.used_by.map(Number) : [];
  const reattached: number[] = [];
  const notReattached: Array<{ id: number; error: string }> = [];
  if (!users.length) return { reattached, notReattached };
  for (const vid of users) {
    try {
      const r = await replaceRecord(
        ctx,
        VEHICLE,
        vid,
        (base) => {
          const ids = Array.isArray(base.vehicle_extras) ? base.vehicle_extras.map(Number) : [];
          return { vehicle_extras: ids.includes(newId) ? ids : [...ids, newId] };
        },
        { undo: UNDOING, onSend: sendingTo(opts) },
      );
      if (r.unchanged) ctx.msg.info(`vehicle ${vid}: nothing to change`);
      reattached.push(vid);
    } catch (e) {
      const error = (e as Error).message;
      ctx.msg.warn(`vehicle ${vid}: extra ${newId} not re-attached: ${error}`);
      notReattached.push({ id: vid, error });
    }
  }
  return { reattached, notReattached };
}

/**
 * An entry for a change to many vehicles: each is restored (edits: the
 * previous record sent again through safe edit; removals: created again, with
 * a new id). A vehicle that cannot be restored is reported and the rest go on;
 * the op then throws PartialFailureError (its `undo` member carries the result).
 */
async function undoMany(ctx: Deps, history: History, entry: HistoryEntry, run: UndoRun): Promise<UndoResult> {
  const { dryRun, hints, opts } = run;
  const onSend = sendingTo(opts);
  const items: UndoItem[] = [];
  let failed = 0;
  // Before re-creating removed vehicles, look at the account once: one that is still there (same
  // registration number) is not created twice (a rerun of a partly failed undo, or a remove that never landed).
  const present = new IdentityIndex<number>();
  if (entry.action === "vehicle.remove") {
    for await (const page of listVehicles(ctx))
      for (const v of page) {
        const identity = identityOf(v);
        if (identity) present.add(identity, Number(v.id));
      }
  }
  const scope = entry.action === "vehicle.edit" && !dryRun ? await undoneAsOne(ctx, entry) : OWN_ENTRY;
  for (const item of entry.items ?? []) {
    if (opts.signal?.aborted) break;
    const before = inputOf(VEHICLE, item.before);
    try {
      if (entry.action === "vehicle.remove") {
        const identity = identityOf(before);
        if (identity && present.find(identity).length) {
          items.push({ id: item.id, still_present: true });
          continue;
        }
      }
      if (entry.action === "vehicle.edit") {
        const [change, how] = restoring(before, item.fields);
        const r = await replaceRecord(ctx, VEHICLE, item.id, change, { ...how, dryRun, onSend, undo: scope });
        if (r.unchanged) ctx.msg.info(`vehicle ${item.id}: nothing to change`);
        items.push({
          id: item.id,
          restored: true,
          changes: r.changes.length,
          ...(r.dryRun ? { dryRun: { ...r.dryRun, changes: r.changes } } : {}),
        });
      } else {
        const r = await createOne(ctx, VEHICLE, await prepareVehicle(ctx, before), {
          undo: UNDOING,
          dryRun,
          onSend,
          trace: opts.trace,
        });
        items.push(r.dryRun ? { id: item.id, dryRun: r.dryRun } : { id: item.id, recreated_as: r.id ?? null });
      }
    } catch (e) {
      // Not authenticated (another owner's key, a revoked one): every other vehicle would be refused alike.
      if (e instanceof AuthError) throw e;
      failed++;
      ctx.msg.warn(`vehicle ${item.id}: ${(e as Error).message}`);
      items.push({ id: item.id, error: (e as Error).message });
    }
  }
  const recreated = items.flatMap((r) =>
    typeof r.recreated_as === "number" ? [{ kind: "vehicle" as const, from: r.id, to: r.recreated_as }] : [],
  );
  const result: UndoResult = {
    kind: "many",
    op: entry.op,
    action: entry.action,
    items,
    failed,
    dryRun,
    recreated,
    undone: !dryRun && failed === 0,
  };
  if (dryRun) return result;
  if (opts.signal?.aborted) {
    throw Object.assign(new InterruptedError(`undo ${entry.op} stopped; nothing more was sent`), { undo: result });
  }
  if (failed === 0) history.markUndone(entry.op, ctx.now(), recreated);
  else {
    const n = (entry.items ?? []).length;
    throw Object.assign(
      new PartialFailureError(`undo ${entry.op}: ${failed} of ${counted(n, "vehicles")} could not be restored`, {
        hint: hints.rerun(entry.op),
      }),
      { undo: result },
    );
  }
  return result;
}

/**
 * The undo of an edit of many vehicles is itself one op, as the edit was: each vehicle's record
 * now is read and recorded in one entry before any is sent (`rentctl undo` of it changes them
 * back). A vehicle that cannot be read is left out: its restore fails alike and is reported.
 */
async function undoneAsOne(ctx: Deps, entry: HistoryEntry): Promise<UndoScope> {
  const items: Array<{ id: number; before: JsonObject; fields?: string[] }> = [];
  for (const item of entry.items ?? []) {
    try {
      const before = await fetchRecord(ctx, VEHICLE, item.id);
      items.push({ id: item.id, before, ...(item.fields?.length ? { fields: [...item.fields] } : {}) });
    } catch (e) {
      if (e instanceof AuthError) throw e;
    }
  }
  const op = await recordPlan(ctx, "vehicle.edit", items);
  return op ? { kind: "planned", op } : OWN_ENTRY;
}

/** The id under which a removed vehicle is still in the account (same id, or same registration number), if it is. */
async function stillPresent(ctx: Deps, id: number, before: Record<string, unknown>): Promise<number | undefined> {
  try {
    await fetchRecord(ctx, VEHICLE, id);
    return id;
  } catch (e) {
    if (!(e instanceof NotFoundError)) throw e;
  }
  return (await findByIdentity(ctx, before))[0];
}

/** What an undo did, in one line (the CLI's success line, the MCP tool's summary); undefined when it did nothing. */
export function undoneLine(r: UndoResult): string | undefined {
  switch (r.kind) {
    case "restored":
      return r.sent
        ? `${r.noun} ${r.id} restored to its state before operation ${r.op} (${counted(r.changes.length, "fields")})`
        : undefined;
    case "recreated":
      if (r.dryRun) return undefined;
      return `${r.noun} ${r.from} re-created as ${r.noun} ${r.id ?? "(id not reported)"}${r.id !== undefined && r.id !== r.from ? ` (the server assigns new ids: ${r.from} → ${r.id})` : ""}`;
    case "removed":
    case "switched":
      return r.wouldDo ? undefined : `${r.said} (undo of operation ${r.op})`;
    case "many": {
      if (r.dryRun || r.failed) return undefined;
      const n = r.items.length;
      return `${counted(n, "vehicles")} restored to ${n === 1 ? "its" : "their"} state before operation ${r.op}`;
    }
    case "apply":
      return undefined; // the bulk job says it (its summary line, its counts)
  }
}

/**
 * What an undo of an edit sends back: only the fields the op changed, each to its value before
 * (a field it set that was empty before is cleared), so a later change of another field is kept.
 * An entry written before the fields were recorded restores the whole record, as it always did.
 */
function restoring(
  before: Record<string, unknown>,
  fields: readonly string[] | undefined,
): [Record<string, unknown>, { replace: boolean }] {
  if (!fields?.length) return [before, { replace: true }];
  const only: Record<string, unknown> = {};
  for (const f of fields) only[f] = before[f] ?? "";
  return [only, { replace: false }];
}
