import { EXTRA_FIELDS } from "../../contract/extra-fields.js";
import { clientFilledNames } from "../../contract/types.js";
import { EXTRA } from "../../resources/resource.js";
import type { OpContext, OpOptions, ReplaceInput, ReplaceOutcome, WriteProgress } from "../context.js";
import { replaceOne } from "../replace.js";

/** A change to one extra: the members by wire name (or the server's own names). */
export type UpdateExtraInput = ReplaceInput;

export type UpdateExtraResult = ReplaceOutcome;

const EXTRA_CLIENT_FILLED = clientFilledNames(EXTRA_FIELDS);

/**
 * The guarded full replacement of an extra (the API replaces the whole extra): the members not
 * given are kept, every required member must still be there, the record re-read before sending.
 */
export function updateExtra(
  ctx: OpContext,
  input: UpdateExtraInput,
  opts: OpOptions<WriteProgress> = {},
): Promise<UpdateExtraResult> {
  return replaceOne(ctx, EXTRA, input, opts, { clientFilled: EXTRA_CLIENT_FILLED, requireAll: true });
}
