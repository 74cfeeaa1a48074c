import { EXTRA_FIELDS } from "../../contract/extra-fields.js";
import { clientFilledNames } from "../../contract/types.js";
import { replaceRecord } from "../../gateway/records.js";
import { EXTRA } from "../../resources/resource.js";
import {
  type OpContext,
  type OpOptions,
  type ReplaceInput,
  type ReplaceOutcome,
  replaceOutcome,
  sendingTo,
  type WriteProgress,
} from "../context.js";

/** A change to one extra: the members by wire name (or the server's own names). */
export type UpdateExtraInput = ReplaceInput;

export type UpdateExtraResult = ReplaceOutcome;

/**
 * The guarded full replacement of an extra (the API replaces the whole extra): the members not
 * given are kept, every required member must still be there, the record re-read before sending.
 */
export async function updateExtra(
  ctx: OpContext,
  input: UpdateExtraInput,
  opts: OpOptions<WriteProgress> = {},
): Promise<UpdateExtraResult> {
  const filled = clientFilledNames(EXTRA_FIELDS);
  const changes = Object.fromEntries(Object.entries(input.changes).filter(([k]) => !filled.has(k)));
  const r = await replaceRecord(ctx, EXTRA, input.id, changes, {
    replace: input.replace,
    requireAll: true,
    dryRun: input.dryRun,
    onSend: sendingTo(opts),
  });
  return replaceOutcome(input.id, r);
}
