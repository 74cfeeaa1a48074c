import { replaceRecord } from "../gateway/records.js";
import type { Resource } from "../resources/resource.js";
import {
  type OpContext,
  type OpOptions,
  type ReplaceInput,
  type ReplaceOutcome,
  replaceOutcome,
  sendingTo,
  type WriteProgress,
} from "./context.js";

/** What tells one record's guarded replace from another's (vehicle edit, extra update). */
export interface ReplaceRules {
  /** The fields the client fills itself: dropped from the changes given. */
  clientFilled: ReadonlySet<string>;
  /** Every required member must still be there after the change (a full replacement). */
  requireAll?: boolean;
  /** Refuse the changes before anything is read (e.g. a registration number another vehicle has). */
  check?: (changes: Record<string, unknown>) => Promise<void>;
}

/** The guarded replace of one record as an op: the client-filled fields dropped, the record re-read before sending. */
export async function replaceOne(
  ctx: OpContext,
  res: Resource,
  input: ReplaceInput,
  opts: OpOptions<WriteProgress>,
  rules: ReplaceRules,
): Promise<ReplaceOutcome> {
  const changes = Object.fromEntries(Object.entries(input.changes).filter(([k]) => !rules.clientFilled.has(k)));
  await rules.check?.(changes);
  const r = await replaceRecord(ctx, res, input.id, changes, {
    replace: input.replace,
    ...(rules.requireAll ? { requireAll: true } : {}),
    dryRun: input.dryRun,
    onSend: sendingTo(opts),
  });
  return replaceOutcome(input.id, r);
}
