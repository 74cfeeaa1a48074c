import { VEHICLE_CLIENT_FILLED } from "../../contract/vehicle-fields.js";
import { VEHICLE } from "../../resources/resource.js";
import type { OpContext, OpOptions, ReplaceInput, ReplaceOutcome, WriteProgress } from "../context.js";
import { replaceOne } from "../replace.js";
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
export function editVehicle(
  ctx: OpContext,
  input: EditVehicleInput,
  opts: OpOptions<WriteProgress> = {},
): Promise<EditVehicleResult> {
  return replaceOne(ctx, VEHICLE, input, opts, {
    clientFilled: VEHICLE_CLIENT_FILLED,
    check: input.allowDuplicate ? undefined : (changes) => refuseTakenRegistration(ctx, changes, [input.id]),
  });
}
