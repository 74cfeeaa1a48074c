import type { JsonObject } from "../../contract/records.js";
import { createOne } from "../../gateway/records.js";
import { prepareVehicle } from "../../resources/create.js";
import { VEHICLE } from "../../resources/resource.js";
import { type OpContext, type OpOptions, sendingTo, type WriteProgress } from "../context.js";
import { refuseTakenRegistration } from "./registration.js";

/** A vehicle to create: its fields by wire name (catalog values already ids), as gathered by a front end. */
export interface CreateVehicleInput {
  values: Record<string, unknown>;
  /** Create it even when another vehicle of the account has its registration number. */
  allowDuplicate?: boolean;
  /** Check everything, send nothing: answer the request that would be sent. */
  dryRun?: boolean;
}

export type CreateVehicleResult =
  | { dryRun: { request: JsonObject }; id?: undefined }
  | { dryRun?: undefined; id: number | undefined; record: JsonObject };

/**
 * Create one vehicle: the owner and locale filled, every contract rule checked (InputError
 * listing every problem, nothing sent), the taken-registration rule, then the one create of
 * the gateway (a lost answer is looked up, never sent again).
 */
export async function createVehicle(
  ctx: OpContext,
  input: CreateVehicleInput,
  opts: OpOptions<WriteProgress> & { trace?: (line: string) => void } = {},
): Promise<CreateVehicleResult> {
  const record = await prepareVehicle(ctx, input.values);
  if (!input.allowDuplicate) await refuseTakenRegistration(ctx, record as Record<string, unknown>);
  const r = await createOne(ctx, VEHICLE, record, {
    dryRun: input.dryRun,
    onSend: sendingTo(opts),
    trace: opts.trace,
  });
  if (r.dryRun) return { dryRun: r.dryRun };
  return { id: r.id, record: r.record };
}
