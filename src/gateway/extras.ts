import { NotFoundError } from "../api/errors.js";
import { RentctlError } from "../base/errors.js";
import { activeOf, EXTRA_MEMBER_ALIASES, memberOf } from "../contract/extra-fields.js";
import type { JsonObject } from "../contract/records.js";
import type { CoreDeps } from "../deps.js";
import { EXTRA, fetchRecord, serverMembers } from "../resources/safe-edit.js";
import { sendWrite } from "./send.js";
import { recordWrite } from "./undo.js";
import { createRecorded, type RemoveOutcome, type ReplaceOutcome, type RowWrite } from "./vehicles.js";

/**
 * The extra writes of bulk jobs (`account apply`, undo of an apply), as
 * ./vehicles.ts does for vehicles: each reads first, is guarded against an
 * extra that moved since the plan, records undo history as `w.undo` says,
 * calls `w.beforeWrite` right before its one request. Members are compared
 * under the contract's names or their declared aliases (the contract shows
 * no extra members), and an update sends the server's record back under its
 * own names with the planned values over it (a full replacement).
 */

/** The extra as the server holds it now, or undefined when it is gone. */
export async function currentExtra(deps: CoreDeps, id: number): Promise<JsonObject | undefined> {
  try {
    return await fetchRecord(deps, EXTRA, id);
  } catch (e) {
    if (e instanceof NotFoundError) return undefined;
    throw e;
  }
}

const same = (a: unknown, b: unknown) =>
  (a === undefined || a === null ? null : Number(a)) === (b === undefined || b === null ? null : Number(b));

/** The members (contract names) in which the extra differs from `expect`. */
export function movedMembers(record: JsonObject, expect: Record<string, unknown>): string[] {
  return Object.keys(expect).filter((k) => !same(memberOf(record, k), expect[k]));
}

/** Create an extra (option_id, price, currency_id, period, quantity); returns its id. */
export async function createExtra(deps: CoreDeps, record: Record<string, number>, w: RowWrite): Promise<number> {
  return createRecorded(deps, "extra", { locale_id: await deps.locale(), ...record }, w);
}

/**
 * Guarded full replacement of a planned extra update: refused (nothing sent)
 * when the extra moved since `before` (when given), `already` when it holds
 * `after`.
 */
export async function replaceExtraPlanned(
  deps: CoreDeps,
  id: number,
  plan: { before?: Record<string, unknown>; after: Record<string, unknown> },
  w: RowWrite,
): Promise<ReplaceOutcome> {
  const now = await currentExtra(deps, id);
  if (!now) return { status: "conflict", moved: [], gone: true };
  if (movedMembers(now, plan.after).length === 0) return { status: "already" };
  if (plan.before) {
    const moved = movedMembers(now, plan.before);
    if (moved.length) return { status: "conflict", moved, gone: false };
  }
  const payload: Record<string, string | number> = serverMembers(now) as Record<string, string | number>;
  delete payload.locale_id;
  for (const [k, v] of Object.entries(plan.after)) {
    if (v === undefined || v === null) continue;
    const name = [k, ...(EXTRA_MEMBER_ALIASES[k] ?? [])].find((n) => now[n] !== undefined) ?? k;
    payload[name] = v as number;
  }
  await recordWrite(deps, w.undo, "extra.update", id, now, plan.after as JsonObject);
  await w.beforeWrite?.();
  await sendWrite(
    deps,
    "extras.update",
    { ...payload, extra_id: id, locale_id: await deps.locale() },
    { signal: w.signal },
  );
  return { status: "changed" };
}

export type SwitchOutcome = { status: "switched" } | { status: "already" } | { status: "gone" };

/**
 * Make an extra on or off: read its state and switch only when it differs
 * (the switch toggles, so it is never sent blind). An extra whose record
 * shows no state is an error: toggling it could turn it either way.
 */
export async function setExtraActive(deps: CoreDeps, id: number, on: boolean, w: RowWrite): Promise<SwitchOutcome> {
  const now = await currentExtra(deps, id);
  if (!now) return { status: "gone" };
  const state = activeOf(now);
  if (state === undefined)
    throw new RentctlError(`extra ${id}: the server's record shows no on/off state; not switched`, {
      hint: "`rentctl extra switch ID` toggles it without reading the state",
    });
  if (state === on) return { status: "already" };
  await recordWrite(deps, w.undo, "extra.switch", id, now, { active: on ? 1 : 0 });
  await w.beforeWrite?.();
  await sendWrite(deps, "extras.switch", { extra_id: id }, { signal: w.signal });
  return { status: "switched" };
}

/** Delete a planned extra: refused when it moved since `expect` (when given); gone is not an error. */
export async function removeExtraPlanned(
  deps: CoreDeps,
  id: number,
  plan: { expect?: Record<string, unknown> },
  w: RowWrite,
): Promise<RemoveOutcome> {
  const now = await currentExtra(deps, id);
  if (!now) return { status: "gone" };
  if (plan.expect) {
    const moved = movedMembers(now, plan.expect);
    if (moved.length) return { status: "conflict", moved };
  }
  await recordWrite(deps, w.undo, "extra.delete", id, now);
  await w.beforeWrite?.();
  try {
    await sendWrite(deps, "extras.delete", { extra_id: id }, { signal: w.signal });
  } catch (e) {
    if (e instanceof NotFoundError) return { status: "gone" };
    throw e;
  }
  return { status: "removed" };
}
