import type { Deps } from "../deps.js";
import type { RowWrite } from "../gateway/index.js";
import * as gateway from "../gateway/index.js";
import type { PlanChange, PlanRemove } from "../plans/plan.js";
import { currentInput } from "../plans/plan.js";
import type { TaskContext, TaskOutcome } from "./runner.js";

/**
 * The vehicle rows of a plan as one bulk job sends them: `vehicle apply` and
 * the account apply (./account-apply.ts) alike. Images a row names are
 * uploaded once (journaled: a rerun reuses them), a change is the guarded
 * planned replace, a removal refused when the vehicle moved since the plan.
 */

/** A row that found its record moved (or gone) since the plan: nothing was sent. */
export function conflictOutcome(moved: string[], gone = false): TaskOutcome {
  return {
    status: "conflict",
    error: gone
      ? "removed since the plan was made; nothing was sent"
      : `changed since the plan was made (${moved.join(", ")}); nothing was sent`,
  };
}

async function uploadsOf(deps: Deps, files: string[], ctx: TaskContext): Promise<number[]> {
  return ctx.uploadOnce(files, (f) => gateway.uploadImages(deps, f, ctx.signal));
}

/** Create a planned vehicle, its image files uploaded first (added to the ids it names). */
export async function sendCreate(
  deps: Deps,
  record: Record<string, unknown>,
  files: string[] | undefined,
  ctx: TaskContext,
  w: RowWrite,
): Promise<TaskOutcome> {
  const out = { ...record };
  if (files?.length) {
    const given = Array.isArray(out.vehicle_images) ? (out.vehicle_images as number[]) : [];
    out.vehicle_images = [...given, ...(await uploadsOf(deps, files, ctx))];
  }
  return { status: "created", id: await gateway.createVehicle(deps, out as never, w) };
}

/** A planned change: `after` the record to send (the plan's, or with new extras' ids put in). */
export async function sendChange(
  deps: Deps,
  ch: PlanChange,
  after: Record<string, unknown>,
  files: string[] | undefined,
  ctx: TaskContext,
  w: RowWrite,
): Promise<TaskOutcome> {
  const r = await gateway.replacePlanned(
    deps,
    ch.vehicle_id,
    {
      before: ch.before,
      after: after as PlanChange["after"],
      complete: files?.length ? async (a) => ({ ...a, vehicle_images: await uploadsOf(deps, files, ctx) }) : undefined,
    },
    w,
  );
  // already as planned (the same apply ran elsewhere, or someone made the same change): done, not a conflict
  if (r.status === "already") return { status: "unchanged", id: ch.vehicle_id };
  return r.status === "conflict" ? conflictOutcome(r.moved, r.gone) : { status: "changed", id: ch.vehicle_id };
}

/** A planned removal, refused when the vehicle moved since the plan. */
export async function sendRemove(deps: Deps, rm: PlanRemove, w: RowWrite): Promise<TaskOutcome> {
  const r = await gateway.removePlanned(deps, rm.vehicle_id, { expect: currentInput(rm.record) }, w);
  return r.status === "conflict" ? conflictOutcome(r.moved) : { status: "removed", id: rm.vehicle_id };
}
