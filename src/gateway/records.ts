import type { CancelSignal } from "../api/cancel.js";
import { describeRequest } from "../api/dry-run.js";
import type { EncodableRecord } from "../api/encode.js";
import { ApiError } from "../api/errors.js";
import { ConflictError } from "../base/errors.js";
import type { ActingTarget } from "../base/io.js";
import { identityOf } from "../contract/identity.js";
import { createdId, type JsonObject, unwrapRecord } from "../contract/records.js";
import { crossFieldProblems, isEmpty, type Problem, validateRecord, type WireRecord } from "../contract/validate.js";
import type { CoreDeps } from "../deps.js";
import type { CreateResult } from "../resources/create.js";
import { findByIdentity } from "../resources/list.js";
import { EXTRA, type Resource } from "../resources/resource.js";
import {
  applyChanges,
  type Change,
  diffRecords,
  fetchRecord,
  inputOf,
  problemsError,
  serverMembers,
  show,
} from "../resources/safe-edit.js";
import { sendWrite } from "./send.js";
import { OWN_ENTRY, recordWrite, type UndoScope } from "./undo.js";

/**
 * The writes of one record, vehicle or extra, as a person makes them (one
 * command, one record): the guarded replace (safe edit), the create and the
 * removal. Each records its undo history here (src/gateway/undo.ts) before
 * it sends. The writes of a bulk job are in ./vehicles.ts; both send only
 * through ./send.ts.
 */

/** Told just before a write is sent (the CLI says which environment and owner it acts on). */
export type OnSend = (target: ActingTarget, what: string) => void;

export interface UpdateOptions {
  replace?: boolean;
  /** Send nothing: answer the difference and the request that would be sent (`dryRun`). */
  dryRun?: boolean;
  /** Told just before the write is sent. */
  onSend?: OnSend;
  /** Required fields that must stay present after the change (full-replacement APIs). */
  requireAll?: boolean;
  /** How the previous record is kept for undo (default: an entry of its own). */
  undo?: UndoScope;
  /** The caller says the outcome itself (`vehicle 3 is already inactive`): no second "nothing to change". */
  quietUnchanged?: boolean;
}

export interface UpdateResult {
  changes: Change[];
  /** A dry run: the request that would have been sent (nothing was). */
  dryRun?: { request: JsonObject };
  /** The record already held the change: nothing was sent. */
  unchanged?: boolean;
  sent?: EncodableRecord;
  body?: JsonObject;
  undoOp?: string;
}

/** What the guarded write compares, records and sends (the shared end of every guarded replace). */
export interface GuardedWrite {
  /** The record as first read (kept for undo). */
  current: JsonObject;
  /** What the change was based on, compared with the record read again just before sending. */
  base: WireRecord;
  /** The full next record (checked). */
  record: WireRecord;
  /** The comparable view of a record as the server returns it. */
  view: (record: JsonObject) => WireRecord;
}

/**
 * Guarded replace of one record (the contract's edit and update clear what is
 * omitted): read the current record, apply the change, check it, read again
 * just before sending and refuse if it moved in between, record the previous
 * record for undo, send the whole record.
 */
export async function replaceRecord(
  deps: CoreDeps,
  res: Resource,
  id: number,
  change: Record<string, unknown> | ((base: WireRecord) => Record<string, unknown>),
  opts: UpdateOptions = {},
): Promise<UpdateResult> {
  const current = await fetchRecord(deps, res, id);
  if (res.mirrorServer) return mirroredUpdate(deps, res, id, current, change, opts);
  const base = inputOf(res, current);
  const changes = typeof change === "function" ? change(base) : change;
  const merged = opts.replace ? { ...changes } : applyChanges(base, changes);
  const { record, problems } = validateRecord(merged, res.fields, {
    requireRequired: Boolean(opts.requireAll),
    allowUnknown: true,
  });
  problems.push(...(res.kind === "vehicle" ? crossFieldProblems(record) : []));
  if (problems.length) throw problemsError(problems, `${res.noun} ${id}`);
  return sendGuarded(deps, res, id, { current, base, record, view: (r) => inputOf(res, r) }, opts);
}

/**
 * The shared end of every guarded replace: the difference, the dry run,
 * "nothing to change", the re-read that stops when the record moved
 * meanwhile, the undo record, and the one write of the full record.
 */
async function sendGuarded(
  deps: CoreDeps,
  res: Resource,
  id: number,
  s: GuardedWrite,
  opts: UpdateOptions,
): Promise<UpdateResult> {
  const diff = diffRecords(s.base, s.record);
  const fixed = await res.fixed(deps);
  const payload: EncodableRecord = { [res.idParam]: id, ...fixed, ...s.record };
  const target = await deps.target();
  if (opts.dryRun) return { changes: diff, dryRun: { request: describeRequest(target, res.updateOp, payload) } };
  if (diff.length === 0 && !opts.replace) return { changes: diff, unchanged: true };
  // Read again just before writing: stop if someone changed it meanwhile.
  const moved = diffRecords(s.base, s.view(await fetchRecord(deps, res, id)));
  if (moved.length) {
    throw new ConflictError(
      `${res.noun} ${id} changed while this ${res.updateOp === "vehicles.edit" ? "edit" : "update"} was prepared; nothing was sent`,
      {
        details: moved.map((c) => ({ field: c.field, message: `${show(c.before)} → ${show(c.after)}` })),
        hint: "run the command again to apply your change to the new values",
      },
    );
  }
  const fields = diff.map((c) => c.field);
  const op = await recordWrite(deps, opts.undo ?? OWN_ENTRY, res.updateAction, id, s.current, undefined, fields);
  opts.onSend?.(target, `${res.updateOp === "vehicles.edit" ? "editing" : "updating"} ${res.noun} ${id}`);
  const r = await sendWrite(deps, res.updateOp, payload);
  return { changes: diff, sent: payload, body: r.decoded.body, undoOp: op };
}

/**
 * Guarded replace of a record whose members the contract does not show (an
 * extra): the server's current record is sent back as the server names it,
 * every scalar member but the id (which goes as the id parameter), with the
 * user's change applied by wire name or by its declared alias. Only a member
 * the contract says must be sent and that the record lacks is refused,
 * naming it and how to pass it with --set.
 */
async function mirroredUpdate(
  deps: CoreDeps,
  res: Resource,
  id: number,
  current: JsonObject,
  change: Record<string, unknown> | ((base: WireRecord) => Record<string, unknown>),
  opts: UpdateOptions,
): Promise<UpdateResult> {
  const aliases = res.mirrorServer!.aliases;
  const base = serverMembers(current);
  delete base.locale_id;
  const changes = typeof change === "function" ? change(base) : change;
  // The name the record uses for a field (or the field's own name when the record has none of them).
  const nameIn = (rec: Record<string, unknown>, field: string) =>
    [field, ...(aliases[field] ?? [])].find((n) => rec[n] !== undefined) ?? field;
  const merged: Record<string, unknown> = opts.replace ? {} : { ...base };
  for (const [k, v] of Object.entries(changes)) {
    const name = nameIn(base, k);
    if (isEmpty(v)) delete merged[name];
    else merged[name] = v;
  }
  // Validate the known members under their field's rules, whatever the server calls them.
  const problems: Problem[] = [];
  const record: WireRecord = { ...(merged as WireRecord) };
  for (const spec of res.fields) {
    const name = nameIn(merged, spec.name);
    if (merged[name] === undefined) {
      if (spec.required === true) {
        problems.push({
          field: spec.name,
          message: `the ${res.noun}'s record has no ${[spec.name, ...(aliases[spec.name] ?? [])].join(" / ")} member, and it must be sent: pass it with --set ${spec.name}=VALUE (or --set NAME=VALUE under the server's own name)`,
        });
      }
      continue;
    }
    const checked = validateRecord({ [spec.name]: merged[name] }, [spec], {
      requireRequired: false,
      allowUnknown: false,
    });
    for (const p of checked.problems) problems.push({ field: name, message: p.message });
    const value = checked.record[spec.name];
    if (value !== undefined) record[name] = value;
  }
  if (problems.length) throw problemsError(problems, `${res.noun} ${id}`);
  const view = (r: JsonObject) => {
    const m = serverMembers(r);
    delete m.locale_id;
    return m;
  };
  return sendGuarded(deps, res, id, { current, base, record, view }, opts);
}

export interface CreateOptions {
  /** Send nothing: answer the request that would be sent. */
  dryRun?: boolean;
  /** Told just before the create is sent. */
  onSend?: OnSend;
  /** Told what is looked up after a lost answer (the CLI's --verbose). */
  trace?: (line: string) => void;
  /** Where its undo entry goes (default: an entry of its own; an undo that re-creates passes UNDOING). */
  undo?: UndoScope;
}

/** What a create answers: the created record, or on a dry run the request that was not sent. */
export type CreateOutcome = ({ dryRun?: undefined } & CreateResult) | { dryRun: { request: JsonObject } };

/** Create a record from checked input: the single create path (flags, file, wizard, undo) of every resource. */
export async function createOne(
  deps: CoreDeps,
  res: Resource,
  record: EncodableRecord,
  opts: CreateOptions = {},
): Promise<CreateOutcome> {
  const target = await deps.target();
  if (opts.dryRun) return { dryRun: { request: describeRequest(target, res.createOp, record) } };
  opts.onSend?.(target, `creating ${res.noun === "extra" ? "an" : "a"} ${res.noun}`);
  let answer: Awaited<ReturnType<typeof sendWrite>>;
  try {
    answer = await sendWrite(deps, res.createOp, record);
  } catch (e) {
    if (e instanceof ApiError && e.answerLost && res.kind === "vehicle") await explainLostCreate(deps, e, record, opts);
    throw e;
  }
  const id = createdId(answer.decoded.body, res.kind);
  // Recorded once its id is known (undo removes it); a create whose answer was lost is explained above.
  const undoOp =
    id === undefined
      ? undefined
      : await recordWrite(deps, opts.undo ?? OWN_ENTRY, `${res.kind}.create`, id, record as JsonObject);
  return { id, record: unwrapRecord(answer.decoded.body, res.kind), ...(undoOp ? { undoOp } : {}) };
}

/**
 * The answer to a create was lost, so the vehicle may exist now. Look it up
 * by registration number (the fleet's identity) and say what was found; the
 * create is never sent again on its own.
 */
async function explainLostCreate(
  deps: CoreDeps,
  e: ApiError,
  record: EncodableRecord,
  opts: CreateOptions,
): Promise<void> {
  const identity = identityOf(record as Record<string, unknown>);
  e.message = "the answer to the create was lost: the server may have created the vehicle";
  if (!identity) {
    e.hint = "check with `rentctl vehicle list` before creating it again";
    return;
  }
  const reg = String(record.vehicle_reg_number);
  opts.trace?.(`checking whether vehicle ${reg} was created: listing the account`);
  try {
    const found = await findByIdentity(deps, record as Record<string, unknown>);
    if (found.length) {
      e.details = [
        { field: "vehicle_reg_number", message: `${reg} is in the account now: vehicle ${found.join(", ")}` },
      ];
      e.hint = `it was most likely created: check with \`rentctl vehicle get ${found[0]}\` instead of creating it again`;
      return;
    }
    e.hint = `no vehicle ${reg} is in the account: it was most likely not created (check with \`rentctl vehicle list\` before retrying)`;
  } catch {
    e.hint = "check with `rentctl vehicle list` before creating it again";
  }
}

/** The parameters of a removal: a vehicle's owner and id, or an extra's id. */
async function removeParams(deps: CoreDeps, res: Resource, id: number): Promise<EncodableRecord> {
  if (res.kind === "extra") return { [res.idParam]: id };
  const { user_id } = await res.fixed(deps);
  return { user_id, [res.idParam]: id };
}

/**
 * Remove one record: its current record is read and kept for undo first,
 * then the removal is sent. Returns the op that undoes it.
 */
export async function removeRecord(
  deps: CoreDeps,
  res: Resource,
  id: number,
  opts: {
    undo?: UndoScope;
    signal?: CancelSignal;
    /** An extra's vehicles (ids), kept with the undo record as `used_by`: its undo re-attaches it to them. */
    usedBy?: number[];
  } = {},
): Promise<{ undoOp?: string }> {
  const read = await fetchRecord(deps, res, id);
  const before = opts.usedBy?.length ? { ...read, used_by: opts.usedBy } : read;
  const op = await recordWrite(deps, opts.undo ?? OWN_ENTRY, res.removeAction, id, before);
  await sendWrite(deps, res.removeOp, await removeParams(deps, res, id), { signal: opts.signal });
  return { undoOp: op };
}

/** Toggle an extra on or off; its record before is kept for undo (which sets that state back). Returns the answer's body. */
export async function switchExtra(deps: CoreDeps, id: number, opts: { undo?: UndoScope } = {}): Promise<JsonObject> {
  const before = await fetchRecord(deps, EXTRA, id);
  await recordWrite(deps, opts.undo ?? OWN_ENTRY, "extra.switch", id, before);
  const r = await sendWrite(deps, "extras.switch", { extra_id: id });
  return r.decoded.body;
}
