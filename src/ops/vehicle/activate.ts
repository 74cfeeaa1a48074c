import { replaceRecord } from "../../gateway/records.js";
import { VEHICLE } from "../../resources/resource.js";
import type { Change } from "../../resources/safe-edit.js";
import { type DryRun, type OpContext, type OpOptions, sendingTo, type WriteProgress } from "../context.js";

export interface SetVehicleActivityResult {
  id: number;
  vehicle_activity: 0 | 1;
  /** False: it was in that state already (nothing sent), or a dry run. */
  changed: boolean;
  changes: Change[];
  dryRun?: DryRun;
  undoOp?: string;
}

/** `vehicle activate / deactivate` of one vehicle: vehicle_activity through the guarded safe edit. */
export async function setVehicleActivity(
  ctx: OpContext,
  input: { id: number; active: boolean; dryRun?: boolean },
  opts: OpOptions<WriteProgress> = {},
): Promise<SetVehicleActivityResult> {
  const value = input.active ? 1 : 0;
  const r = await replaceRecord(
    ctx,
    VEHICLE,
    input.id,
    { vehicle_activity: value },
    { dryRun: input.dryRun, onSend: sendingTo(opts) },
  );
  return {
    id: input.id,
    vehicle_activity: value,
    changed: r.sent !== undefined,
    changes: r.changes,
    ...(r.dryRun ? { dryRun: r.dryRun } : {}),
    ...(r.undoOp ? { undoOp: r.undoOp } : {}),
  };
}
