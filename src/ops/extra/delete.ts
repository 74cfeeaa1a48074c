import { removeRecord } from "../../gateway/records.js";
import { vehiclesUsingExtra } from "../../resources/list.js";
import { EXTRA } from "../../resources/resource.js";
import type { DryRun, OpContext, OpOptions, WriteProgress } from "../context.js";
import { extraDryRun } from "./switch.js";

/** The vehicles an extra is attached to (ids and registration numbers). */
export type ExtraUsers = Array<{ id: number; reg: string }>;

export interface DeleteExtraResult {
  id: number;
  /** The vehicles it was attached to: its undo re-attaches it to them. */
  usedBy: ExtraUsers;
  deleted: boolean;
  dryRun?: DryRun;
  undoOp?: string;
}

/**
 * Delete an extra: the vehicles using it are found first (kept with the undo record, so the undo
 * re-creates it and re-attaches it), `confirm` is asked with them (a front end's prompt; refusing
 * throws), then the record is kept for undo and the delete sent.
 */
export async function deleteExtra(
  ctx: OpContext,
  input: { id: number; dryRun?: boolean; confirm?: (usedBy: ExtraUsers) => Promise<void> },
  opts: OpOptions<WriteProgress> = {},
): Promise<DeleteExtraResult> {
  const { id } = input;
  if (input.dryRun) return { id, usedBy: [], deleted: false, dryRun: await extraDryRun(ctx, "extras.delete", id) };
  const usedBy = await vehiclesUsingExtra(ctx, id);
  await input.confirm?.(usedBy);
  opts.onProgress?.({ kind: "sending", target: await ctx.target(), what: `deleting extra ${id}` });
  const { undoOp } = await removeRecord(ctx, EXTRA, id, { usedBy: usedBy.map((u) => u.id) });
  return { id, usedBy, deleted: true, ...(undoOp ? { undoOp } : {}) };
}
