import type { JsonObject } from "../../contract/records.js";
import { vehiclesUsingExtra } from "../../resources/list.js";
import { EXTRA, fetchRecord } from "../../resources/safe-edit.js";
import type { OpContext } from "../context.js";

/** A vehicle that uses an extra: its id and registration number. */
export interface ExtraUser {
  id: number;
  reg: string;
}

/**
 * One extra's record; with `usedBy`, also the vehicles that use it (one walk
 * of the account, after the extra is found: a missing extra costs one request).
 */
export async function getExtra(
  ctx: OpContext,
  input: { id: number; usedBy?: boolean },
): Promise<{ extra: JsonObject; used_by?: ExtraUser[] }> {
  const extra = await fetchRecord(ctx, EXTRA, input.id);
  if (!input.usedBy) return { extra };
  return { extra, used_by: await vehiclesUsingExtra(ctx, input.id) };
}
