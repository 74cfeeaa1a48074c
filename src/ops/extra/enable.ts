import { NotFoundError } from "../../api/errors.js";
import * as gateway from "../../gateway/index.js";
import type { DryRun, OpContext, OpOptions, WriteProgress } from "../context.js";
import { extraDryRun } from "./switch.js";

export interface SetExtraActiveResult {
  id: number;
  state: "on" | "off";
  /** False: it was in that state already; nothing was sent. */
  switched: boolean;
  dryRun?: DryRun;
}

/**
 * `extra enable / disable`: the state wanted, whatever it was (reads the state, switches only
 * when it differs; the opposite command is the undo). An unknown extra is NotFoundError.
 */
export async function setExtraActive(
  ctx: OpContext,
  input: { id: number; on: boolean; dryRun?: boolean },
  opts: OpOptions<WriteProgress> = {},
): Promise<SetExtraActiveResult> {
  const { id, on } = input;
  const state = on ? "on" : "off";
  if (input.dryRun) return { id, state, switched: false, dryRun: await extraDryRun(ctx, "extras.switch", id) };
  opts.onProgress?.({ kind: "sending", target: await ctx.target(), what: `turning ${state} extra ${id}` });
  const r = await gateway.setExtraActive(ctx, id, on, { undo: gateway.OWN_ENTRY });
  if (r.status === "gone") throw new NotFoundError(`extra ${id} not found`);
  return { id, state, switched: r.status === "switched" };
}

/** Turn an extra on (idempotent). */
export function enableExtra(ctx: OpContext, input: { id: number; dryRun?: boolean }, opts?: OpOptions<WriteProgress>) {
  return setExtraActive(ctx, { ...input, on: true }, opts);
}

/** Turn an extra off (idempotent). */
export function disableExtra(ctx: OpContext, input: { id: number; dryRun?: boolean }, opts?: OpOptions<WriteProgress>) {
  return setExtraActive(ctx, { ...input, on: false }, opts);
}
