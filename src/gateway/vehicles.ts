import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import type { CancelSignal } from "../api/cancel.js";
import type { EncodableRecord, FilePart } from "../api/encode.js";
import { contentTypeFor } from "../api/encode.js";
import { NotFoundError } from "../api/errors.js";
import { InputError, RentctlError } from "../base/errors.js";
import { requireUser } from "../config/target.js";
import { UPLOAD_MAX_FILES, UPLOAD_PART_NAME } from "../contract/operations.js";
import { createdId, type JsonObject, uploadedImageIds } from "../contract/records.js";
import type { WireRecord } from "../contract/validate.js";
import type { CoreDeps } from "../deps.js";
import { checkVehicle } from "../files/adapters.js";
import { currentInput, PLAN_FIELDS, sameStored } from "../plans/plan.js";
import { fetchRecord, VEHICLE } from "../resources/safe-edit.js";
import { sendWrite } from "./send.js";
import { recordWrite, type UndoScope } from "./undo.js";

/**
 * The vehicle writes of bulk jobs (import, apply, changes to many vehicles,
 * undo of an apply): each takes the job's `beforeWrite` (the row log's
 * `sending` line, fsync'd before the request that may change the server) and
 * its abort signal, and records the previous record for undo as `undo` says
 * before it sends. Plans are compared field by field under the contract's
 * types, a registration's spacing included (src/plans/plan.ts sameStored).
 */

export interface RowWrite {
  /** Undo history of this write (see ./undo.ts). */
  undo: UndoScope;
  /** Called right before the one request that may change the server (the bulk job's row log). */
  beforeWrite?: () => Promise<void>;
  signal?: CancelSignal;
}

/** The fields in which two input records differ, under the contract's types (empty = absent; a registration respaced differs). */
export function movedFields(a: WireRecord, b: WireRecord): string[] {
  const moved: string[] = [];
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const spec = PLAN_FIELDS.find((f) => f.name === k);
    if (!sameStored(spec, a[k] ?? null, b[k] ?? null)) moved.push(k);
  }
  return moved;
}

/** A vehicle's input fields as the server holds it now, or undefined when it is gone. */
export async function currentVehicle(
  deps: CoreDeps,
  id: number,
): Promise<{ record: JsonObject; input: WireRecord } | undefined> {
  try {
    const record = await fetchRecord(deps, VEHICLE, id);
    return { record, input: currentInput(record) };
  } catch (e) {
    if (e instanceof NotFoundError) return undefined;
    throw e;
  }
}

/** A full vehicle record checked as `vehicle create` checks it (files/adapters.ts checkVehicle), or refused with every problem. */
async function checked(deps: CoreDeps, values: Record<string, unknown>, what: string): Promise<EncodableRecord> {
  const { record, problems } = await checkVehicle(deps, values);
  if (!record) throw new InputError(`${what}: ${problems.map((p) => `${p.field}: ${p.message}`).join("; ")}`);
  return record;
}

/**
 * Create one vehicle from a checked record; returns its id. Never retried once
 * it may have reached the server (the client's policy): a lost answer is the
 * job's to reconcile.
 */
export function createVehicle(deps: CoreDeps, record: EncodableRecord, w: RowWrite): Promise<number> {
  return createRecorded(deps, "vehicle", record, w);
}

/** Create one vehicle or extra, recorded for undo; returns its id (vehicle and extra creates alike). */
export async function createRecorded(
  deps: CoreDeps,
  kind: "vehicle" | "extra",
  record: EncodableRecord,
  w: RowWrite,
): Promise<number> {
  // An apply's undo must find a create whose answer never came: its identity is recorded first (id 0).
  if (w.undo.kind === "batch") w.undo.batch.row(`${kind}.create`, 0, record as JsonObject);
  await w.beforeWrite?.();
  const res = await sendWrite(deps, `${kind}s.create`, record, { signal: w.signal });
  const id = createdId(res.decoded.body, kind);
  if (id === undefined) throw new RentctlError(`the server created the ${kind} but sent no id`);
  await recordWrite(deps, w.undo, `${kind}.create`, id, record as JsonObject);
  return id;
}

/** Upload image files in batches of at most 10; returns the new image ids in file order. */
export async function uploadImages(deps: CoreDeps, files: string[], signal?: CancelSignal): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < files.length; i += UPLOAD_MAX_FILES) {
    const parts: FilePart[] = [];
    for (const f of files.slice(i, i + UPLOAD_MAX_FILES))
      parts.push({
        field: UPLOAD_PART_NAME,
        filename: basename(f),
        contentType: contentTypeFor(f),
        data: await readFile(f),
      });
    const got = await uploadParts(deps, parts, signal);
    if (got.length !== parts.length)
      throw new RentctlError(`the server reported ${got.length} image ids for ${parts.length} files`);
    ids.push(...got);
  }
  return ids;
}

/** One upload request of at most 10 parts; returns the image ids the server reported, in part order. */
export async function uploadParts(deps: CoreDeps, parts: FilePart[], signal?: CancelSignal): Promise<number[]> {
  const res = await sendWrite(deps, "vehicles.upload", { user_id: await requireUser(deps) }, { files: parts, signal });
  return uploadedImageIds(res.decoded.body);
}

export type ReplaceOutcome =
  /** Sent: the vehicle now holds the planned record. */
  | { status: "changed" }
  /** Nothing sent: the vehicle already holds the planned record (a rerun, or someone made the same change). */
  | { status: "already" }
  /** Nothing sent: the vehicle moved since the plan was made (these fields), or is gone. */
  | { status: "conflict"; moved: string[]; gone: boolean };

/**
 * Guarded replace of a planned change: read the vehicle, and send the
 * planned record only when it still holds what the plan was made from
 * (`before`); record the previous record for undo; send the whole record
 * (`after`, checked as `vehicle create` checks it). Without `before` (an
 * undo restoring a saved record) the write is not guarded.
 */
export async function replacePlanned(
  deps: CoreDeps,
  id: number,
  plan: {
    before?: WireRecord;
    after: Record<string, unknown>;
    /** Work that must wait until the guard passed (e.g. uploading the images to attach): the record to send. */
    complete?: (after: Record<string, unknown>) => Promise<Record<string, unknown>>;
    /** `create-rules` (default): the record is checked as `vehicle create` checks it; `as-planned`: sent as planned, owner and locale filled. */
    check?: "create-rules" | "as-planned";
  },
  w: RowWrite,
): Promise<ReplaceOutcome> {
  const now = await currentVehicle(deps, id);
  if (!now) return { status: "conflict", moved: [], gone: true };
  // (With work still to do on the record, e.g. images to attach, it is not final yet: no "already".)
  if (!plan.complete && movedFields(now.input, currentInput(plan.after as JsonObject)).length === 0)
    return { status: "already" };
  if (plan.before) {
    const moved = movedFields(plan.before, now.input);
    if (moved.length) return { status: "conflict", moved, gone: false };
  }
  const after = plan.complete ? await plan.complete(plan.after) : plan.after;
  const record =
    plan.check === "as-planned"
      ? ({ ...after, user_id: await requireUser(deps), locale_id: await deps.locale() } as EncodableRecord)
      : await checked(deps, after, `vehicle ${id}: the changed record is invalid`);
  await recordWrite(deps, w.undo, "vehicle.edit", id, now.record, record as JsonObject);
  await w.beforeWrite?.();
  await sendWrite(deps, "vehicles.edit", { ...record, vehicle_id: id }, { signal: w.signal });
  return { status: "changed" };
}

export type RemoveOutcome = { status: "removed" } | { status: "gone" } | { status: "conflict"; moved: string[] };

/**
 * Remove a planned vehicle: read it, refuse when it moved since the plan
 * (`expect`, when given), record it for undo, send the removal. A vehicle
 * already gone is not an error (a rerun, or someone removed it).
 */
export async function removePlanned(
  deps: CoreDeps,
  id: number,
  plan: { expect?: WireRecord },
  w: RowWrite,
): Promise<RemoveOutcome> {
  const now = await currentVehicle(deps, id);
  if (!now) return { status: "gone" };
  if (plan.expect) {
    const moved = movedFields(plan.expect, now.input);
    if (moved.length) return { status: "conflict", moved };
  }
  await recordWrite(deps, w.undo, "vehicle.remove", id, now.record);
  await w.beforeWrite?.();
  try {
    await sendWrite(
      deps,
      "vehicles.remove",
      { user_id: await requireUser(deps), vehicle_id: id },
      { signal: w.signal },
    );
  } catch (e) {
    if (e instanceof NotFoundError) return { status: "gone" };
    throw e;
  }
  return { status: "removed" };
}

/** Create a vehicle again from a saved record (undo of a removal): checked first, as `vehicle create` checks. */
export async function recreateVehicle(deps: CoreDeps, saved: JsonObject, w: RowWrite): Promise<number> {
  const record = await checked(deps, currentInput(saved), "the saved record is invalid");
  return createVehicle(deps, record, w);
}

/**
 * Remove a vehicle this run created that turned out to be a second copy of
 * one another run created at the same time (the bulk job's identity check).
 * Not recorded for undo: the run's own undo entry already names the created
 * vehicle, and an undo that finds it gone counts it as done.
 */
export async function removeDuplicate(deps: CoreDeps, id: number, signal?: CancelSignal): Promise<"removed" | "gone"> {
  try {
    await sendWrite(deps, "vehicles.remove", { user_id: await requireUser(deps), vehicle_id: id }, { signal });
    return "removed";
  } catch (e) {
    if (e instanceof NotFoundError) return "gone";
    throw e;
  }
}
