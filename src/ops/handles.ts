import { UsageError } from "../base/errors.js";
import { IdentityIndex, identityOf } from "../contract/identity.js";
import { recordId } from "../contract/records.js";
import { accountExtras, type ExtraName, extraName, matchExtra, near, unknown } from "../plans/extra-names.js";
import { listVehicles } from "../resources/list.js";
import type { OpContext } from "./context.js";

/**
 * The handles a person (or a program) uses for a vehicle or an extra,
 * wherever an id is taken: the CLI's positional ids and `--attach`, `--add` /
 * `--remove` members and `vehicle_extras` in flags and files, the MCP tools'
 * arguments and the library's methods. One rule for every front end:
 *
 * - a **vehicle**: an id, or a registration number, matched through the one
 *   identity rule of import and diff (src/contract/identity.ts: trimmed,
 *   case-insensitive, any country);
 * - an **extra**: an id, or its option's name (`GPS navigator`), with its
 *   period when the account has two extras of that option
 *   (`Child seat (period 2)`, the label every view prints).
 *
 * Digits alone (or a number) are an id, sent as given (the server is the judge
 * of its ids); anything else is a name. A registration number of digits alone
 * is written `reg:12345`; `id:42` is accepted too. An unknown name is exit 2
 * naming the nearest; a name that matches several records is exit 2 listing
 * them. Nothing is sent before every handle is resolved.
 */
export type Handle = number | string;

/** A resource id: a whole number of at least 1, exact (below 2^53). The one check of an id a person gives. */
export function parseId(raw: string, noun: string): number {
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < 1) {
    throw new UsageError(`${noun} id must be a whole number of at least 1, got ${JSON.stringify(raw)}`);
  }
  // beyond 2^53 a number is no longer exact: it would reach the server as another id
  if (!Number.isSafeInteger(Number(raw)))
    throw new UsageError(
      `${noun} id ${raw.trim()} is too large (at most ${Number.MAX_SAFE_INTEGER}); nothing was sent`,
    );
  return Number(raw);
}

/** An id given as such (a number, digits, `id:N`), else the name it gives (`reg:` taken off); empty names are refused. */
function split(raw: Handle, noun: string, prefix: RegExp): { id: number } | { name: string } {
  if (typeof raw === "number") {
    if (!Number.isSafeInteger(raw) || raw < 1)
      throw new UsageError(`${noun} id must be a whole number of at least 1, got ${JSON.stringify(raw)}`);
    return { id: raw };
  }
  if (typeof raw !== "string") throw new UsageError(`${noun}: give an id or a name, got ${JSON.stringify(raw)}`);
  const t = raw.trim();
  if (/^(id:)?\s*\d+$/i.test(t)) return { id: parseId(t.replace(/^id:\s*/i, ""), noun) };
  const name = t.replace(prefix, "").trim();
  if (!name) throw new UsageError(`${noun} ${JSON.stringify(raw)}: give an id or a ${HANDLE_NAME[noun] ?? "name"}`);
  return { name };
}

const HANDLE_NAME: Record<string, string> = { vehicle: "registration number", extra: "option name" };

/** Vehicle ids for handles (ids or registration numbers), in order, each vehicle once. */
export async function vehicleIds(ctx: OpContext, raws: readonly Handle[]): Promise<number[]> {
  const ids: Array<number | undefined> = [];
  const wanted: Array<{ at: number; reg: string }> = [];
  for (const raw of raws) {
    const h = split(raw, "vehicle", /^reg:/i);
    if ("id" in h) ids.push(h.id);
    else {
      wanted.push({ at: ids.length, reg: h.name });
      ids.push(undefined);
    }
  }
  if (wanted.length === 0) return unique(ids as number[]);
  const index = new IdentityIndex<number>();
  for (const [i, w] of wanted.entries()) {
    // invisible characters alone (a zero-width space) name no registration number
    const identity = identityOf({ vehicle_reg_number: w.reg });
    if (!identity) throw new UsageError(`vehicle ${JSON.stringify(w.reg)}: give an id or a registration number`);
    index.add(identity, i);
  }
  const found = wanted.map(() => [] as number[]);
  const regs: string[] = [];
  // One listing for all of them, read to the end (a second vehicle of a registration makes it ambiguous).
  for await (const page of listVehicles(ctx, { raw: true, lookup: true, warn: (m) => ctx.msg.warn(m) }))
    for (const v of page) {
      const identity = identityOf(v as Record<string, unknown>);
      if (!identity) continue;
      regs.push(String(v.vehicle_reg_number).trim());
      const id = recordId(v, "vehicle");
      if (id !== undefined) for (const i of index.find(identity)) found[i]!.push(id);
    }
  for (const [i, w] of wanted.entries()) {
    const hits = found[i]!;
    if (hits.length === 0)
      throw unknown(
        "vehicle with registration number",
        w.reg,
        await near(w.reg, regs),
        "check it with `rentctl vehicle list`; an id is a whole number, and a registration of digits only is written reg:4711",
      );
    if (hits.length > 1)
      throw new UsageError(
        `registration number ${JSON.stringify(w.reg)} matches ${hits.length} vehicles (${hits.join(", ")}); nothing was sent`,
        { hint: "give the id of the one you mean" },
      );
    ids[w.at] = hits[0];
  }
  return unique(ids as number[]);
}

/** One vehicle's id for a handle. */
export async function vehicleId(ctx: OpContext, raw: Handle): Promise<number> {
  return (await vehicleIds(ctx, [raw]))[0]!;
}

/**
 * Extra ids for handles (ids, or option names with an optional `(period N)`), in order, each once.
 * The account's extras are listed (and the option catalog read) only when a name is given.
 */
export async function extraIds(ctx: OpContext, raws: readonly Handle[]): Promise<number[]> {
  return unique(await extrasInOrder(ctx, raws));
}

/** One id per handle, in order (a record named twice appears twice). */
async function extrasInOrder(ctx: OpContext, raws: readonly Handle[]): Promise<number[]> {
  const ids: Array<number | undefined> = [];
  const wanted: Array<ExtraName & { at: number }> = [];
  for (const raw of raws) {
    const h = split(raw, "extra", /^option:/i);
    if ("id" in h) ids.push(h.id);
    else {
      wanted.push({ at: ids.length, ...extraName(h.name) });
      ids.push(undefined);
    }
  }
  if (wanted.length === 0) return ids as number[];
  const extras = await accountExtras(ctx);
  for (const w of wanted) ids[w.at] = await matchExtra(extras, w);
  return ids as number[];
}

/** One extra's id for a handle. */
export async function extraId(ctx: OpContext, raw: Handle): Promise<number> {
  return (await extraIds(ctx, [raw]))[0]!;
}

/**
 * `vehicle_extras` as given in a flag, an `--add` / `--remove` member or a file: its option names
 * resolved to extra ids (one listing for all), ids and anything else kept as given (the contract's
 * checks judge those).
 */
export async function extraMembers(ctx: OpContext, value: unknown): Promise<unknown> {
  const list = Array.isArray(value) ? value : [value];
  const named = list.flatMap((m, i) =>
    typeof m === "string" && m.trim() !== "" && !/^\s*(id:)?\s*\d+\s*$/i.test(m) ? [i] : [],
  );
  if (!named.length) return value;
  const ids = await extrasInOrder(
    ctx,
    named.map((i) => list[i] as string),
  );
  const out = [...list];
  named.forEach((i, k) => {
    out[i] = ids[k];
  });
  return Array.isArray(value) ? out : out[0];
}

/** The same record named twice (`1 "B-SC 1001"`) is one record: changed, counted and undone once. */
function unique(ids: number[]): number[] {
  return [...new Set(ids)];
}
