import { VEHICLE_CLIENT_FILLED } from "../../contract/vehicle-fields.js";
import { replaceRecord } from "../../gateway/records.js";
import { VEHICLE } from "../../resources/resource.js";
import {
  type OpContext,
  type OpOptions,
  type ReplaceInput,
  type ReplaceOutcome,
  replaceOutcome,
  sendingTo,
  type WriteProgress,
} from "../context.js";
import { refuseTakenRegistration } from "./registration.js";

/** A change to one vehicle. */
export interface EditVehicleInput extends ReplaceInput {
  /** Give it a registration number another vehicle of the account has. */
  allowDuplicate?: boolean;
}

export type EditVehicleResult = ReplaceOutcome;

/**
 * The guarded safe edit of one vehicle: the client-filled fields dropped, the taken-registration
 * rule, then read, change, check, read again and refuse (ConflictError) if it moved, record for
 * undo, send the whole record.
 */
export async function editVehicle(
  ctx: OpContext,
  input: EditVehicleInput,
  opts: OpOptions<WriteProgress> = {},
): Promise<EditVehicleResult> {
  const changes = Object.fromEntries(Object.entries(input.changes).filter(([k]) => !VEHICLE_CLIENT_FILLED.has(k)));
  if (!input.allowDuplicate) await refuseTakenRegistration(ctx, changes, [input.id]);
  const r = await replaceRecord(ctx, VEHICLE, input.id, changes, {
    replace: input.replace,
    dryRun: input.dryRun,
    onSend: sendingTo(opts),
  });
  return replaceOutcome(input.id, r);
}
