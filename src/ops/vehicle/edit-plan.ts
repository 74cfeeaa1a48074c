import { createHash } from "node:crypto";
import { InputError } from "../../base/errors.js";
import type { Json, JsonObject } from "../../contract/records.js";
import type { WireRecord } from "../../contract/validate.js";
import type { Deps } from "../../deps.js";
import { currentVehicle } from "../../gateway/index.js";
import { emptyExtraPlan } from "../../plans/account-extras.js";
import type { AccountPlan } from "../../plans/account-plan.js";
import { accountPlanJson } from "../../plans/account-print.js";
import type { Plan, PlanChange } from "../../plans/plan.js";
import {
  checkPlanTarget,
  checkStale,
  fingerprint,
  planTarget,
  SAVED_PLAN_VERSION,
  type SavedPlan,
  type Touched,
  vehicleFingerprint,
} from "../../plans/saved-plan.js";
import type { OpContext, OpOptions } from "../context.js";
import { applyVehiclePlan, type VehiclePlanResult, type VehicleRowProgress } from "./edit-many.js";

/**
 * A plan of many vehicles (an edit of a selection, a calendar edit: planEditMany,
 * planCalendarEdit) saved to be applied later, exactly as reviewed (the MCP server's
 * plan_changes / apply_plan, `account apply --plan` of the file it saves). Vehicles are
 * named by id, never by registration number (two vehicles may share one). Applying: the
 * target checked, each vehicle read again and the plan refused as stale (exit 8, nothing
 * sent) when one changed since; then the edit-many apply (src/ops/vehicle/edit-many.ts
 * applyVehiclePlan: the bulk job, one undo op).
 */

/** One vehicle's change as saved: the record to send, and the fields it changes (for the undo). */
interface SavedEdit {
  vehicle_id: number;
  reg: string;
  fields: string[];
  after: WireRecord;
}

/** The edit's entries inside the saved plan's `plan` (beside the account plan's view of it). */
const EDIT_KEY = "edit";

/** The plan as people and counts read it: an account plan with vehicles only (the markdown, planCounts). */
export function editPlanView(plan: Plan, label: string): AccountPlan {
  return {
    label,
    extras: emptyExtraPlan(false),
    vehicles: {
      plan,
      rows: plan.change.length + plan.unchanged,
      accountSize: plan.change.length + plan.unchanged,
      uploads: new Map(),
      createRecords: new Map(),
    },
    extraLabels: new Map(),
    accountExtras: [],
  };
}

/**
 * Save a plan of many vehicles (no creates, no removals). `intent` is the change as asked
 * (selection and values), kept as the plan's input.
 */
export async function saveEditPlan(
  ctx: OpContext,
  plan: Plan,
  input: { intent: unknown; label: string },
): Promise<{ saved: SavedPlan; view: AccountPlan }> {
  if (plan.create.length || plan.remove.length)
    throw new InputError("a saved edit plan changes vehicles only (no creates or removals)");
  const view = editPlanView(plan, input.label);
  const text = `${JSON.stringify(input.intent, null, 2)}\n`;
  const edits: SavedEdit[] = plan.change.map((c) => ({
    vehicle_id: c.vehicle_id,
    reg: c.reg,
    fields: Object.keys(c.fields),
    after: c.after,
  }));
  const saved: SavedPlan = {
    rentctl_plan: SAVED_PLAN_VERSION,
    kind: "edit",
    created: new Date(ctx.now()).toISOString(),
    target: await planTarget(ctx),
    input: {
      label: input.label,
      format: "json",
      baseDir: process.cwd(),
      sha256: createHash("sha256").update(text).digest("hex"),
      prune: false,
      exact: false,
      text,
    },
    fingerprints: {
      vehicle: Object.fromEntries(plan.change.map((c) => [String(c.vehicle_id), vehicleFingerprint(c.record)])),
    },
    plan: { ...accountPlanJson(view), [EDIT_KEY]: edits as unknown as Json },
  };
  return { saved, view };
}

/** A saved plan's `plan` as a person reviews it: the account plan (an edit plan's record bodies left out). */
export function reviewedPlan(saved: SavedPlan): JsonObject {
  const { [EDIT_KEY]: _edits, ...plan } = saved.plan;
  return plan;
}

/** The saved edits of a plan of kind `edit`. */
function savedEdits(saved: SavedPlan): SavedEdit[] {
  const edits = saved.plan[EDIT_KEY];
  if (!Array.isArray(edits)) throw new InputError("the saved plan holds no vehicle edits (not an edit plan)");
  return edits as unknown as SavedEdit[];
}

/**
 * The saved plan checked against the account as it is now: its target, and each vehicle it
 * changes read again (StalePlanError, nothing sent, when one moved or is gone). Returns the plan
 * to run (each change's previous record as read now, for the undo).
 */
export async function checkSavedEditPlan(ctx: OpContext, saved: SavedPlan): Promise<Plan> {
  await checkPlanTarget(ctx, saved);
  const edits = savedEdits(saved);
  const now: Record<string, string> = {};
  const touched: Touched[] = [];
  const change: PlanChange[] = [];
  for (const e of edits) {
    touched.push({ kind: "vehicle", id: e.vehicle_id, name: `vehicle ${e.vehicle_id} (${e.reg})` });
    const current = await currentVehicle(ctx, e.vehicle_id);
    if (!current) continue;
    now[String(e.vehicle_id)] = fingerprint(current.input);
    const fields = Object.fromEntries(
      e.fields.map((f) => [f, { from: current.input[f] ?? null, to: e.after[f] ?? null }]),
    ) as PlanChange["fields"];
    change.push({
      vehicle_id: e.vehicle_id,
      reg: e.reg,
      fields,
      before: current.input,
      after: e.after,
      record: current.record,
    });
  }
  checkStale(saved, { plan: saved.plan, fingerprints: { vehicle: now }, touched });
  return { create: [], change, remove: [], unchanged: 0, unchangedList: [] };
}

/** The bulk job's intent of a saved edit plan: a rerun of the same plan continues it. */
export function editPlanIntent(saved: SavedPlan): unknown {
  return { plan: saved.input.sha256, created: saved.created, target: saved.target };
}

/**
 * Apply a saved edit plan as it was reviewed: checked (checkSavedEditPlan), then run by the
 * edit-many apply (one undo op; a rerun after an interruption continues the same plan).
 */
export async function applySavedEditPlan(
  ctx: Deps,
  saved: SavedPlan,
  input: { concurrency?: number; restart?: boolean; report?: string } = {},
  opts: OpOptions<VehicleRowProgress> & { confirm?: (count: number) => Promise<void> } = {},
): Promise<VehiclePlanResult> {
  const plan = await checkSavedEditPlan(ctx, saved);
  return applyVehiclePlan(
    ctx,
    plan,
    {
      verb: "edit",
      intent: editPlanIntent(saved),
      ...input,
    },
    opts,
  );
}
