import type { JsonObject } from "../../contract/records.js";
import { createOne } from "../../gateway/records.js";
import { prepareExtra } from "../../resources/create.js";
import { EXTRA } from "../../resources/resource.js";
import { type DryRun, type OpContext, type OpOptions, sendingTo, type WriteProgress } from "../context.js";

/** An extra to create: its members by wire name (catalog values already ids). */
export interface CreateExtraInput {
  values: Record<string, unknown>;
  /** Check everything, send nothing: answer the request that would be sent. */
  dryRun?: boolean;
}

export type CreateExtraResult =
  | { dryRun: DryRun; id?: undefined }
  | { dryRun?: undefined; id?: number; record: JsonObject };

/** Create one extra: the locale filled, every contract rule checked (nothing sent on a problem), then the one create. */
export async function createExtra(
  ctx: OpContext,
  input: CreateExtraInput,
  opts: OpOptions<WriteProgress> = {},
): Promise<CreateExtraResult> {
  const record = await prepareExtra(ctx, input.values);
  const r = await createOne(ctx, EXTRA, record, { dryRun: input.dryRun, onSend: sendingTo(opts) });
  return r.dryRun ? { dryRun: r.dryRun } : { id: r.id, record: r.record };
}
