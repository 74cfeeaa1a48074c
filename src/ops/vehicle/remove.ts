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
    const [{ describeRequest }, { requireUser }, target] = await Promise.all([
      import("../../api/dry-run.js"),
      import("../../deps.js"),
      ctx.target(),
    ]);
    const request = describeRequest(target, "vehicles.remove", {
      user_id: await requireUser(ctx),
      vehicle_id: id,
    });
    return { id, removed: false, dryRun: { request } };
  }
  const [{ removeRecord }, { VEHICLE }] = await Promise.all([
    import("../../gateway/records.js"),
    import("../../resources/resource.js"),
  ]);
  sendingTo(opts)?.(await ctx.target(), `removing vehicle ${id}`);
  const { undoOp } = await removeRecord(ctx, VEHICLE, id);
  return { id, removed: true, ...(undoOp ? { undoOp } : {}) };
}
