import { createHash } from "node:crypto";
import { readFile, rm } from "node:fs/promises";
import { checkConcurrency } from "../../base/concurrency.js";
import { ConflictError, UsageError } from "../../base/errors.js";
import { writeFileAtomic } from "../../base/temp-files.js";
import { openBulkJob } from "../../bulk/job.js";
import type { BulkRow } from "../../bulk/runner.js";
import { recordToWire } from "../../contract/human.js";
import type { JsonObject } from "../../contract/records.js";
import { specIndex, validateRecord, type WireRecord } from "../../contract/validate.js";
import { VEHICLE_CLIENT_FILLED, VEHICLE_FIELDS } from "../../contract/vehicle-fields.js";
import type { Deps } from "../../deps.js";
import * as gateway from "../../gateway/index.js";
import type { UndoScope } from "../../gateway/undo.js";
import { applyMemberEdits, parseMemberEdits } from "../../plans/members.js";
import type { Plan } from "../../plans/plan.js";
import { planEdit } from "../../plans/plan.js";
import { applyRelativeChecked, describeMiss, splitRelative } from "../../plans/relative.js";
import { problemsError } from "../../resources/safe-edit.js";
import type { OpContext, OpOptions } from "../context.js";
import { refuseClearedRequired, resolveCatalogNames } from "../values.js";
import { refuseTakenRegistration } from "./registration.js";
import { selectVehicles, type VehicleSelection } from "./select.js";

/**
 * Changes to many vehicles as data: `planEditMany` plans an edit of the selected vehicles
 * (absolute and relative values, list members added / removed); `applyVehiclePlan` runs any plan
 * of many vehicles (edit, calendar, activate, remove) on the bulk job: one undo entry, each vehicle
 * re-read before its write, resumable (a rerun continues the plan of the first run). The CLI's
 * `vehicle edit --where`, the library and MCP's plan_changes call these.
 */

export interface EditManyInput {
  selection: VehicleSelection;
  /** Field values by wire name (catalog values as ids or names); an empty value clears. */
  values: Record<string, unknown>;
  /** The fields whose values may be relative (`+10%`, `-5`, `*1.1`); "all": every integer field. Default none. */
  relativeFields?: Iterable<string> | "all";
  /** List members to add / remove: `FIELD=VALUE` (the CLI's --add / --remove). */
  add?: string[];
  remove?: string[];
  /** A relative result outside its field's range is set to the bound (said per vehicle), not refused. */
  clamp?: boolean;
  /** Let the change give a registration number another vehicle has. */
  allowDuplicate?: boolean;
}

export interface PlannedEdit {
  plan: Plan;
  /** The change as written (values, clamp, members): hashed into the bulk job's key with the selection. */
  intent: { values: Record<string, unknown>; clamp?: boolean; add: string[]; remove: string[] };
}

/**
 * The plan of an edit of many vehicles: the selection read, each value checked, relative values
 * applied. Nothing is sent. `showResolved` hears what each catalog value given by name stands for
 * (the CLI's dry run prints it).
 */
export async function planEditMany(
  ctx: OpContext,
  input: EditManyInput,
  opts: { showResolved?: (line: string) => void } = {},
): Promise<PlannedEdit> {
  const values: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input.values)) if (!VEHICLE_CLIENT_FILLED.has(k)) values[k] = v;
  // dates in either form (2026-12-24, 24.12.2026) become the contract's own; a required field is never cleared
  recordToWire(values);
  refuseClearedRequired(specIndex(VEHICLE_FIELDS), values);
  const members = parseMemberEdits(input.add, input.remove);
  for (const name of [...members.add.keys(), ...members.remove.keys()])
    if (name in values) throw new UsageError(`${name}: given whole and by --add/--remove; say one (nothing was sent)`);
  const memberIds = await resolveMembers(ctx, members);
  if (Object.keys(values).length === 0 && memberIds.add.size + memberIds.remove.size === 0) {
    throw new UsageError("nothing to change: give field flags, --set FIELD=VALUE or --from-file", {
      hint: "example: rentctl vehicle edit --where segment=cars --price-per-day +10%",
    });
  }
  const relativeFields = new Set(input.relativeFields === "all" ? Object.keys(values) : (input.relativeFields ?? []));
  const { absolute, relative } = splitRelative(values, VEHICLE_FIELDS, relativeFields);
  await resolveCatalogNames(ctx, VEHICLE_FIELDS, absolute, opts.showResolved ? { show: opts.showResolved } : {});
  const { record, problems } = validateRecord(absolute, VEHICLE_FIELDS, { requireRequired: false, allowUnknown: true });
  if (problems.length) {
    throw problemsError(problems, "edit");
  }
  // Cleared fields stay cleared (validateRecord drops empty values).
  for (const [k, v] of Object.entries(absolute)) if (v === "" || (Array.isArray(v) && v.length === 0)) record[k] = v;
  const records = await selectVehicles(ctx, input.selection);
  if (!input.allowDuplicate && record.vehicle_reg_number !== undefined) {
    await refuseTakenRegistration(
      ctx,
      record,
      records.map((r) => Number(r.id ?? r.vehicle_id)),
    );
  }
  // A relative result outside its field's range is never clamped silently: refused (nothing sent), or clamp.
  const refused: Array<{ field: string; message: string }> = [];
  const plan = planEdit(records, (rowInput, rec) => {
    const { values: changed, misses } = applyRelativeChecked(relative, rowInput, { clamp: input.clamp });
    const who = `vehicle ${rec.id ?? rec.vehicle_id}${rec.vehicle_reg_number ? ` (${String(rec.vehicle_reg_number).trim()})` : ""}`;
    // a relative change of a field without a value has nothing to change: said, not silently skipped
    for (const [field, edit] of relative)
      if (changed[field] === undefined)
        ctx.msg.warn(
          `${who}: ${field} has no value, so ${edit.text} changes nothing (give an absolute value to set it)`,
        );
    for (const m of misses)
      if (input.clamp)
        ctx.msg.warn(
          `${who}: ${describeMiss(m)}: ${m.exact !== undefined ? "rounded" : "clamped"} to ${m.clamped} (--clamp)`,
        );
      else refused.push({ field: who, message: describeMiss(m) });
    return { ...record, ...changed, ...applyMemberEdits(memberIds, rowInput) };
  });
  if (refused.length)
    throw new UsageError(
      `${refused.length} relative change${refused.length === 1 ? "" : "s"} would give no valid value (outside the field's range, or not a whole number); nothing was sent`,
      {
        details: refused.slice(0, 20),
        hint: "change the value, narrow the selection, or pass --clamp to round fractions half up and set values outside the range to its bound",
      },
    );
  return {
    plan,
    intent: { values, clamp: input.clamp, add: input.add ?? [], remove: input.remove ?? [] },
  };
}

/** The members of --add / --remove as ids: names resolved through the catalogs, as every catalog value is. */
async function resolveMembers(
  ctx: OpContext,
  members: { add: Map<string, unknown[]>; remove: Map<string, unknown[]> },
): Promise<{ add: Map<string, number[]>; remove: Map<string, number[]> }> {
  const resolve = async (m: Map<string, unknown[]>) => {
    const record: Record<string, unknown> = Object.fromEntries(m);
    await resolveCatalogNames(ctx, VEHICLE_FIELDS, record);
    const out = new Map<string, number[]>();
    for (const [name, given] of m) {
      const ids = (record[name] as unknown[]).map(Number);
      const bad = ids.findIndex((n) => !Number.isInteger(n) || n < 1);
      if (bad >= 0)
        throw new UsageError(`${name} ${JSON.stringify(given[bad])}: not an id or a known name (nothing was sent)`);
      out.set(name, ids);
    }
    return out;
  };
  return { add: await resolve(members.add), remove: await resolve(members.remove) };
}

/** How a plan of many vehicles is run. */
export interface ApplyVehiclePlanInput {
  /** What the job does, for the row log's key and messages: `edit`, `remove`, `calendar`, ... */
  verb: string;
  /** The change as written (selection + change), hashed into the row log's key: a rerun continues its plan. */
  intent: unknown;
  /** Requests in flight at once (the one bound, src/base/concurrency.ts); default 4; out of range is a usage error. */
  concurrency?: number;
  /** Per-vehicle results to this file (format by extension). */
  report?: string;
  /** Ignore the row log of an interrupted run of the same change. */
  restart?: boolean;
  /** Per-vehicle rows on stdout with a structured -o (default true; false: the caller prints its own result). */
  stdoutReport?: boolean;
}

/** One vehicle's outcome as the run learns it. */
export interface VehicleRowProgress {
  id: number;
  status: string;
  done: number;
  total: number;
}

export interface VehiclePlanResult {
  /** Vehicles by outcome (`changed`, `removed`, `failed`, ...). */
  counts: Record<string, number>;
  /** The undo history's op that restores every vehicle, when a history is kept. */
  undoOp?: string;
}

/**
 * Run a plan of many vehicles on the bulk job. `confirm` (the front end's question) is called
 * once, before the first run records anything; a rerun after an interruption continues the saved
 * plan of the first run without asking: done vehicles skipped, in-flight ones reconciled by
 * re-reading (already the planned record: done; still the old one: sent; else a conflict).
 *
 * The context is the full Deps while the bulk job takes it (as applyAccountPlan's).
 */
export async function applyVehiclePlan(
  ctx: Deps,
  plan: Plan,
  input: ApplyVehiclePlanInput,
  opts: OpOptions<VehicleRowProgress> & { confirm?: (count: number) => Promise<void> } = {},
): Promise<VehiclePlanResult> {
  const concurrency = checkConcurrency(input.concurrency);
  const verb = input.verb;
  const count = plan.change.length + plan.remove.length;
  const job = await openBulkJob(ctx, {
    job: `vehicle.${verb}`,
    contentHash: createHash("sha256").update(JSON.stringify(input.intent)).digest("hex"),
    restart: input.restart,
    what: `${verb} of many vehicles: it continues its own plan`,
    afresh: "plan afresh",
    report: input.report,
  });
  try {
    // The plan of the run that started this job: a rerun continues it rather than planning anew.
    const planFile = `${job.log.file}.plan.json`;
    let saved: SavedVehiclePlan | undefined = job.resumed
      ? await readFile(planFile, "utf8")
          .then((t) => JSON.parse(t) as SavedVehiclePlan)
          .catch(() => undefined)
      : undefined;
    if (!saved) {
      await opts.confirm?.(count);
      // One undo entry for the whole change, recorded before any vehicle is sent: `rentctl undo OP` restores every vehicle.
      const items = [
        ...plan.change.map((ch) => ({ id: ch.vehicle_id, before: ch.record, fields: Object.keys(ch.fields) })),
        ...plan.remove.map((r) => ({ id: r.vehicle_id, before: r.record })),
      ];
      const undoOp = await gateway.recordPlan(ctx, plan.remove.length ? "vehicle.remove" : "vehicle.edit", items);
      saved = {
        change: plan.change.map((ch) => ({
          vehicle_id: ch.vehicle_id,
          reg: ch.reg,
          before: ch.before,
          after: ch.after,
        })),
        remove: plan.remove.map((r) => ({ vehicle_id: r.vehicle_id, reg: r.reg, record: r.record })),
        ...(undoOp ? { undo: undoOp } : {}),
      };
      await writeFileAtomic(planFile, JSON.stringify(saved));
    }
    const undoOp = saved.undo;
    const undo: UndoScope = undoOp ? { kind: "planned", op: undoOp } : gateway.OWN_ENTRY;
    const plannedChange = saved.change;
    const plannedRemove = saved.remove;
    type Item =
      | { kind: "change"; c: SavedVehiclePlan["change"][number] }
      | { kind: "remove"; r: SavedVehiclePlan["remove"][number] };
    async function* rows(): AsyncGenerator<BulkRow<Item>> {
      for (const ch of plannedChange)
        yield { row: ch.vehicle_id, key: ch.reg || String(ch.vehicle_id), item: { kind: "change", c: ch } };
      for (const r of plannedRemove)
        yield { row: r.vehicle_id, key: r.reg || String(r.vehicle_id), item: { kind: "remove", r } };
    }
    const conflict = (id: number) =>
      new ConflictError(`vehicle ${id} changed since the plan was made; it was not overwritten`, {
        hint: "run the command again (or `vehicle diff`) to plan from the new values",
      });
    const total = plannedChange.length + plannedRemove.length;
    const onProgress = opts.onProgress;
    const summary = await job.run<Item>({
      rows: rows(),
      total,
      concurrency,
      label: verb,
      acting: `${verb === "remove" ? "removing" : "changing"} ${total} vehicle${total === 1 ? "" : "s"}`,
      order: ["changed", "removed", "failed"],
      // The undo hint after the work it undoes (and only when some was done).
      after: (s) => {
        const done = (s.counts.get("changed") ?? 0) + (s.counts.get("removed") ?? 0);
        if (undoOp && done)
          ctx.msg.info(ctx.color.dim(`undo ${done === 1 ? "it" : `all ${done}`} with: rentctl undo ${undoOp}`));
      },
      quietIds: ["changed", "removed"],
      report: input.report,
      ...(input.stdoutReport === false ? { stdoutReport: false } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(onProgress
        ? {
            onProgress: (r, done, n) => onProgress({ id: Number(r.id ?? r.row), status: r.status, done, total: n }),
          }
        : {}),
      // In flight when the last run stopped: done if the vehicle holds the planned record (or is gone, for a removal).
      reconcile: async (row) => {
        const now = await gateway.currentVehicle(ctx, row.row);
        if (row.item.kind === "remove") return now === undefined ? { status: "removed", id: row.row } : undefined;
        if (now && gateway.movedFields(now.input, row.item.c.after).length === 0)
          return { status: "changed", id: row.row };
        return undefined; // still the old record (sent again), or moved (the send reports the conflict)
      },
      send: async (row, tctx) => {
        const w = { undo, beforeWrite: tctx.beforeWrite, signal: tctx.signal };
        if (row.item.kind === "remove") {
          await gateway.removePlanned(ctx, row.row, {}, w);
          return { status: "removed", id: row.row };
        }
        const { before, after } = row.item.c;
        const r = await gateway.replacePlanned(ctx, row.row, { before, after, check: "as-planned" }, w);
        if (r.status === "conflict") throw conflict(row.row);
        return { status: "changed", id: row.row };
      },
    });
    await rm(planFile, { force: true });
    return { counts: Object.fromEntries(summary.counts), ...(undoOp ? { undoOp } : {}) };
  } finally {
    await job.close();
  }
}

/** The plan of a run of many vehicles as saved beside its row log (what a rerun continues). */
interface SavedVehiclePlan {
  change: Array<{ vehicle_id: number; reg: string; before: WireRecord; after: WireRecord }>;
  remove: Array<{ vehicle_id: number; reg: string; record: JsonObject }>;
  /** The undo entry recorded with the plan (every vehicle's previous record). */
  undo?: string;
}
