import type { Change } from "../../resources/safe-edit.js";
import { type DryRun, type OpContext, type OpOptions, sendingTo, type WriteProgress } from "../context.js";

/** A change to one extra: the members to change by wire name (or the server's own names). */
export interface UpdateExtraInput {
  id: number;
  changes: Record<string, unknown>;
  /** Send exactly the members given. */
  replace?: boolean;
  dryRun?: boolean;
}

export interface UpdateExtraResult {
  id: number;
  changes: Change[];
  sent: boolean;
  dryRun?: DryRun;
  undoOp?: string;
}

/**
 * The guarded full replacement of an extra (the API replaces the whole extra): the members not
 * given are kept, every required member must still be there, the record re-read before sending.
 */
export async function updateExtra(
  ctx: OpContext,
  input: UpdateExtraInput,
  opts: OpOptions<WriteProgress> = {},
): Promise<UpdateExtraResult> {
  const [{ replaceRecord }, { EXTRA }, { clientFilledNames }, { EXTRA_FIELDS }] = await Promise.all([
    import("../../gateway/records.js"),
    import("../../resources/resource.js"),
    import("../../contract/types.js"),
    import("../../contract/extra-fields.js"),
  ]);
  const filled = clientFilledNames(EXTRA_FIELDS);
  const changes = Object.fromEntries(Object.entries(input.changes).filter(([k]) => !filled.has(k)));
  const r = await replaceRecord(ctx, EXTRA, input.id, changes, {
    replace: input.replace,
    requireAll: true,
    dryRun: input.dryRun,
    onSend: sendingTo(opts),
  });
  return {
    id: input.id,
    changes: r.changes,
    sent: r.sent !== undefined,
    ...(r.dryRun ? { dryRun: r.dryRun } : {}),
    ...(r.undoOp ? { undoOp: r.undoOp } : {}),
  };
}
