import { describeRequest } from "../../api/dry-run.js";
import { isObject, type JsonObject, normalizeRecord, unwrapRecord } from "../../contract/records.js";
import { switchExtra as send } from "../../gateway/records.js";
import type { DryRun, OpContext, OpOptions, WriteProgress } from "../context.js";

export interface SwitchExtraResult {
  id: number;
  /** The state after the switch, when the answer carries it (`on`, `off`, or the server's word). */
  state?: string;
  /** The extra as the answer carries it (empty when it carries none). */
  record: JsonObject;
  dryRun?: DryRun;
}

/** The state after a switch, when the response carries it (`is_active`, `active`, `status` or `state`). */
export function switchedState(body: unknown): string | undefined {
  const rec = unwrapRecord(body, "extra");
  for (const k of ["is_active", "active", "enabled", "status", "state"]) {
    const v = isObject(rec) ? rec[k] : undefined;
    if (v === undefined || v === null) continue;
    if (v === 1 || v === true || v === "1") return "on";
    if (v === 0 || v === false || v === "0") return "off";
    return String(v);
  }
  return undefined;
}

/** The request of a one-extra write that was not sent (a dry run of switch, enable, disable, delete). */
export async function extraDryRun(ctx: OpContext, opId: string, id: number): Promise<DryRun> {
  const [target] = await Promise.all([ctx.target()]);
  return { request: describeRequest(target, opId, { extra_id: id }) };
}

/** The raw toggle of an extra (its own inverse: no undo entry). */
export async function switchExtra(
  ctx: OpContext,
  input: { id: number; dryRun?: boolean },
  opts: OpOptions<WriteProgress> = {},
): Promise<SwitchExtraResult> {
  const { id } = input;
  if (input.dryRun) return { id, record: {}, dryRun: await extraDryRun(ctx, "extras.switch", id) };
  opts.onProgress?.({ kind: "sending", target: await ctx.target(), what: `switching extra ${id}` });
  const body = await send(ctx, id);
  const state = switchedState(body);
  return { id, ...(state ? { state } : {}), record: normalizeRecord(unwrapRecord(body, "extra"), "extra") };
}
