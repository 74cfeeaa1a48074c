import { AuthError } from "../api/errors.js";
import { InterruptedError, PartialFailureError } from "../base/errors.js";
import { IdentityIndex, identityOf, regKey } from "../contract/identity.js";
import { type JsonObject, recordId } from "../contract/records.js";
import type { Deps } from "../deps.js";
import * as gateway from "../gateway/index.js";
import type { UndoScope } from "../gateway/undo.js";
import type { RowWrite } from "../gateway/vehicles.js";
import type { ExtraState, ExtraTwin } from "../plans/account-extras.js";
import { extraKey, extraState, extraTwins } from "../plans/account-extras.js";
import { currentInput } from "../plans/plan.js";
import { listExtras, scanVehicles } from "../resources/list.js";
import type { RowLog, RowRecord } from "./row-log.js";
import type { RowResult } from "./runner.js";

/**
 * Convergence of an account apply's own copies (issue 41 item 0): two runs
 * of the same file on two machines both create the extras and vehicles the
 * file adds; each run keeps the lowest id of an identity (an extra's option
 * and period, a vehicle's registration) and removes the copies IT created,
 * as the bulk job's identity check does for vehicles (src/bulk/identity-check.ts).
 *
 * - In a run: each extra it creates is checked at once against the
 *   account's extras (ownExtraTwin); a copy is deleted before any vehicle
 *   uses it, and the vehicles get the kept id.
 * - On a rerun after a stopped run (resumeIdentityCheck), BEFORE the file is
 *   planned (a plan refuses an account with two extras of one identity): the
 *   copies the stopped run created (its row log: rows done `created` with
 *   their ids; for an extra row in flight, the newest extra of its option
 *   and period, when the account holds two) are removed; vehicles that use
 *   an extra copy are moved to the kept extra first; for a vehicle create
 *   in flight, likewise the newest vehicle of its registration.
 *
 * Every removal and move goes through the gateway with the job's undo scope
 * (recorded, undoable).
 */

/**
 * Row numbers of an account apply's row log: vehicle creates (CREATE_ROW + the file's row) and extras
 * rows (EXTRA_ROW + the extras row) live apart from the other vehicle rows; removals are negative.
 */
export const EXTRA_ROW = 1_000_000_000;
export const CREATE_ROW = 500_000_000;

/** The file's row of a row log's row number (0: a removal, which is no row of the file). */
export const fileRow = (row: number): number =>
  row < 0 ? 0 : row >= EXTRA_ROW ? row - EXTRA_ROW : row >= CREATE_ROW ? row - CREATE_ROW : row;

/** The row key of an extra create (`extra Snow chains (period 2, new)`): a rerun tells a create in flight by it. */
export const extraCreateKey = (label: string) => `extra ${label.replace(/\)$/, ", new)")}`;
const isCreateKey = (key: string) => key.startsWith("extra ") && key.endsWith(", new)");

/** How many times a vehicle listing that moved under the walk (another run removing) is read again. */
const SCAN_ATTEMPTS = 5;

async function accountExtras(deps: Deps): Promise<ExtraState[]> {
  const out: ExtraState[] = [];
  for (const r of await listExtras(deps, {})) {
    const s = extraState(r);
    if (s) out.push(s);
  }
  return out;
}

/** The extra `id` (just created by this run) when the account holds its option and period under a lower id. */
export async function ownExtraTwin(deps: Deps, id: number): Promise<ExtraTwin | undefined> {
  return extraTwins(await accountExtras(deps), new Set([id])).find((t) => t.id === id);
}

/** Delete an extra copy (recorded for undo as `w` says); `gone` when someone removed it first. */
export async function removeExtraCopy(deps: Deps, twin: ExtraTwin, w: RowWrite): Promise<"removed" | "gone"> {
  const r = await gateway.removeExtraPlanned(
    deps,
    twin.id,
    { expect: { option_id: twin.option_id, period: twin.period } },
    w,
  );
  if (r.status === "conflict")
    throw new PartialFailureError(`extra ${twin.id} changed since it was listed (${r.moved.join(", ")})`);
  return r.status === "removed" ? "removed" : "gone";
}

/** What the rows of a stopped run's log say this job created: ids known, and creates in flight (their keys). */
interface Created {
  vehicles: Map<number, RowRecord>;
  extras: Map<number, RowRecord>;
  /** Vehicle creates in flight: the registration (regKey of the row's key). */
  vehicleKeys: Map<string, RowRecord>;
  /** Extra creates in flight: the row's key (createKey). */
  extraKeys: Map<string, RowRecord>;
  /** Ids rows of this job ended on that it did not create (kept twins, changed records). */
  others: Set<number>;
}

function createdBy(log: RowLog): Created {
  const c: Created = {
    vehicles: new Map(),
    extras: new Map(),
    vehicleKeys: new Map(),
    extraKeys: new Map(),
    others: new Set(),
  };
  for (const r of log.previous.values()) {
    const extra = r.row >= EXTRA_ROW;
    const vehicleCreate = r.row > 0 && r.row < EXTRA_ROW;
    if (!extra && !vehicleCreate) continue;
    if (r.state === "done" && r.id !== undefined) {
      if (r.status === "created") (extra ? c.extras : c.vehicles).set(r.id, r);
      else c.others.add(r.id);
    } else if (r.state === "sending" || r.state === "unknown") {
      if (extra && isCreateKey(r.key)) c.extraKeys.set(r.key, r);
      else if (!extra && r.row >= CREATE_ROW) c.vehicleKeys.set(regKey(r.key), r);
    }
  }
  return c;
}

/** What the resume identity check did, as report rows (`deduplicated`, or `failed` when a copy could not be removed). */
export interface ResumeCheck {
  results: RowResult[];
}

/**
 * The identity check of a rerun, before anything can refuse the file: the
 * copies a stopped run of this job created (its row log) that have an older
 * twin are removed, vehicles using an extra copy moved to the kept extra
 * first. `labeller` names an extra's option and period as the row keys do.
 */
export async function resumeIdentityCheck(
  deps: Deps,
  log: RowLog,
  labeller: (account: readonly ExtraState[]) => Promise<(option: number, period: number) => string>,
  /** The undo scope of the removals, asked for once there is something to remove. */
  scope: () => Promise<UndoScope>,
): Promise<ResumeCheck> {
  const results: RowResult[] = [];
  if (!log.resumed) return { results };
  const c = createdBy(log);
  if (!c.vehicles.size && !c.extras.size && !c.extraKeys.size && !c.vehicleKeys.size) return { results };
  const failed = (row: RowRecord, id: number, e: unknown) => {
    if (e instanceof AuthError || e instanceof InterruptedError) throw e;
    results.push({
      row: row.row,
      key: row.key,
      status: "failed",
      id,
      retry: true,
      error: `a copy this job created (${id}); removing it failed: ${e instanceof Error ? e.message : String(e)}`,
    });
  };

  // Extras: the copies, by the ids the log knows and by the keys of creates in flight.
  let twins: ExtraTwin[] = [];
  let label = (option: number, period: number) => `${option}/${period}`;
  if (c.extras.size || c.extraKeys.size) {
    const extras = await accountExtras(deps);
    if (c.extraKeys.size) label = await labeller(extras);
    const presumed = new Set<string>();
    for (const e of extras)
      if (c.extraKeys.has(extraCreateKey(label(e.option_id, e.period)))) presumed.add(extraKey(e.option_id, e.period));
    twins = extraTwins(extras, new Set(c.extras.keys()), presumed, c.others);
  }
  const rowOfExtra = (t: ExtraTwin) =>
    c.extras.get(t.id) ?? c.extraKeys.get(extraCreateKey(label(t.option_id, t.period)))!;

  // Vehicles: one steady walk, for the vehicles' twins and the vehicles that use an extra copy.
  const copyOf = new Map(twins.map((t) => [t.id, t.kept]));
  let walk: { copies: Array<{ id: number; kept: number; row: RowRecord }>; users: JsonObject[] } | undefined;
  for (let attempt = 1; attempt <= SCAN_ATTEMPTS && !walk; attempt++) {
    const byIdentity = new IdentityIndex<number>();
    const mine: Array<{ id: number; identity: ReturnType<typeof identityOf> }> = [];
    const users: JsonObject[] = [];
    const steady = await scanVehicles(deps, (v) => {
      const id = recordId(v, "vehicle");
      const identity = identityOf(v);
      if (id === undefined) return;
      if (identity) byIdentity.add(identity, id);
      if (c.vehicles.has(id) || (identity && c.vehicleKeys.has(identity.reg))) mine.push({ id, identity });
      const links = Array.isArray(v.vehicle_extras) ? v.vehicle_extras.map(Number) : [];
      if (copyOf.size && links.some((x) => copyOf.has(x))) users.push(v);
    });
    if (!steady) continue;
    const copies: Array<{ id: number; kept: number; row: RowRecord }> = [];
    for (const m of mine) {
      if (!m.identity) continue;
      const ids = byIdentity.find(m.identity).sort((a, b) => a - b);
      const kept = ids[0]!;
      if (ids.length < 2 || m.id === kept) continue;
      const known = c.vehicles.get(m.id);
      // a create in flight: its copy is the newest of its identity (the lost answer's), never one known as another's
      const row =
        known ?? (m.id === ids[ids.length - 1] && !c.others.has(m.id) ? c.vehicleKeys.get(m.identity.reg) : undefined);
      if (row) copies.push({ id: m.id, kept, row });
    }
    walk = { copies, users };
  }
  if (!walk)
    throw new PartialFailureError(
      `the identity check could not read a steady listing of the account in ${SCAN_ATTEMPTS} tries (other runs kept removing vehicles)`,
      { hint: "rerun the same command: it checks again" },
    );

  if (!walk.copies.length && !twins.length) return { results };
  const w: RowWrite = { undo: await scope() };
  const removedVehicles = new Set<number>();
  for (const d of walk.copies) {
    try {
      const r = await gateway.removePlanned(deps, d.id, {}, w);
      removedVehicles.add(d.id);
      if (r.status !== "conflict") {
        log.note({ row: d.row.row, key: d.row.key, state: "done", status: "deduplicated", id: d.kept });
        results.push({ row: d.row.row, key: d.row.key, status: "deduplicated", id: d.kept });
      }
    } catch (e) {
      failed(d.row, d.id, e);
    }
  }
  // The vehicles that use an extra copy get the kept extra, then the copy goes.
  const stuck = new Set<number>();
  for (const v of walk.users) {
    const id = recordId(v, "vehicle")!;
    if (removedVehicles.has(id)) continue;
    const before = currentInput(v);
    const links = (Array.isArray(before.vehicle_extras) ? before.vehicle_extras : []).map(Number);
    const moved = [...new Set(links.map((x) => copyOf.get(x) ?? x))];
    try {
      const r = await gateway.replacePlanned(
        deps,
        id,
        { before, after: { ...before, vehicle_extras: moved }, check: "as-planned" },
        w,
      );
      if (r.status === "conflict") for (const x of links) if (copyOf.has(x)) stuck.add(x);
    } catch (e) {
      if (e instanceof AuthError || e instanceof InterruptedError) throw e;
      for (const x of links) if (copyOf.has(x)) stuck.add(x);
    }
  }
  for (const t of twins) {
    const row = rowOfExtra(t);
    if (stuck.has(t.id)) {
      failed(row, t.id, new Error("a vehicle using it changed meanwhile and still uses it"));
      continue;
    }
    try {
      await removeExtraCopy(deps, t, w);
      log.note({ row: row.row, key: row.key, state: "done", status: "deduplicated", id: t.kept });
      results.push({ row: row.row, key: row.key, status: "deduplicated", id: t.kept });
    } catch (e) {
      failed(row, t.id, e);
    }
  }
  const done = results.filter((r) => r.status === "deduplicated");
  if (done.length)
    deps.msg.info(
      `identity check of the interrupted run: ${done.length} cop${done.length === 1 ? "y" : "ies"} it created had an older twin (another run created it at the same time); removed ${done
        .map((r) => r.key)
        .slice(0, 5)
        .join(", ")}${done.length > 5 ? ", ..." : ""}, kept the older ones`,
    );
  return { results };
}
