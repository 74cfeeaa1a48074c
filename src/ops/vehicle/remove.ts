import { describeRequest } from "../../api/dry-run.js";
import { requireUser } from "../../config/target.js";
import { removeRecord } from "../../gateway/records.js";
import { VEHICLE } from "../../resources/resource.js";
import { type DryRun, type OpContext, type OpOptions, sendingTo, type WriteProgress } from "../context.js";

export interface RemoveVehicleResult {
  id: number;
  removed: boolean;
  dryRun?: DryRun;
  /** The undo history's op, when a history is kept. */
  undoOp?: string;
}

/** Remove one vehicle: its record read and kept for undo first, then the removal sent. A dry run answers the request. */
export async function removeVehicle(
  ctx: OpContext,
  input: { id: number; dryRun?: boolean },
  opts: OpOptions<WriteProgress> = {},
): Promise<RemoveVehicleResult> {
  const { id } = input;
  if (input.dryRun) {
    const [target] = await Promise.all([ctx.target()]);
    const request = describeRequest(target, "vehicles.remove", {
      user_id: await requireUser(ctx),
      vehicle_id: id,
    });
    return { id, removed: false, dryRun: { request } };
  }
  sendingTo(opts)?.(await ctx.target(), `removing vehicle ${id}`);
  const { undoOp } = await removeRecord(ctx, VEHICLE, id);
  return { id, removed: true, ...(undoOp ? { undoOp } : {}) };
}
