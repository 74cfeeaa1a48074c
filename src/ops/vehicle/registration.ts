import { InputError } from "../../base/errors.js";
import { findByIdentity } from "../../resources/list.js";
import type { OpContext } from "../context.js";

/**
 * The one taken-registration rule of every front end (`vehicle create`, `vehicle edit`, the
 * wizard, the library): two vehicles with one registration number are one vehicle to import,
 * diff and handles, so a create or an edit that would make a second is refused (nothing sent),
 * unless the caller allows it (`--allow-duplicate`, `{ allowDuplicate: true }`).
 */
export class RegistrationTakenError extends InputError {
  /** The vehicles that have the number already. */
  readonly taken: number[];
  constructor(taken: number[], reg: string) {
    const shown = JSON.stringify(reg);
    super(`vehicle ${taken.join(", ")} already has registration number ${shown}; nothing was sent`, {
      details: [{ field: "vehicle_reg_number", message: `vehicle ${taken.join(", ")} already has ${shown}` }],
      hint: `edit vehicle ${taken[0]} instead, or allow a second vehicle with this number (--allow-duplicate; library: { allowDuplicate: true })`,
    });
    this.taken = taken;
  }
}

/**
 * Refuse a registration number (with its country, from `values`) another vehicle of the account
 * has; `self` are the vehicles being changed (their own number is theirs to keep). Several
 * vehicles given one number is refused too.
 */
export async function refuseTakenRegistration(
  ctx: OpContext,
  values: Record<string, unknown>,
  self: readonly number[] = [],
): Promise<void> {
  const reg = values.vehicle_reg_number;
  if (reg === undefined || reg === null || String(reg).trim() === "") return;
  if (self.length > 1)
    throw new InputError(`one registration number for ${self.length} vehicles; nothing was sent`, {
      hint: "give each vehicle its own: rentctl vehicle edit ID --reg NUMBER",
    });
  const others = (await findByIdentity(ctx, values)).filter((id) => !self.includes(id));
  if (others.length) throw new RegistrationTakenError(others, String(reg).trim());
}
