import type { JsonObject } from "../contract/records.js";
import type { CatalogPort } from "../files/resolver.js";
import { CURRENCY_CATALOG, catalogName, type ExtraState, extraKey, OPTION_CATALOG } from "./account-extras.js";

/**
 * The rows `account export` writes. Extras: option, price, currency, period,
 * quantity, active (on / off); with names, option and currency are catalog
 * names. `extra_id` is written only for extras whose identity (option +
 * period) the account has twice, so that the file can tell them apart.
 * Vehicles refer to their extras by identity: the option alone when the
 * account has one extra of that option, else `{option, period}`; an id the
 * account's extras do not hold stays in `vehicle_extras` (nothing is dropped).
 */

export interface ExtraNamer {
  /** The file's value for an option id (a name with --names, else the id). */
  option(id: number): Promise<string | number>;
  currency(id: number): Promise<string | number>;
}

export function extraNamer(port: CatalogPort | undefined): ExtraNamer {
  const cache = new Map<string, Promise<JsonObject[]>>();
  return {
    option: async (id) => (port ? ((await catalogName(port, OPTION_CATALOG, "option", id, cache)) ?? id) : id),
    currency: async (id) =>
      port ? ((await catalogName(port, CURRENCY_CATALOG, "currency", id, cache, "code")) ?? id) : id,
  };
}

export async function extraExportRow(
  e: ExtraState,
  namer: ExtraNamer,
  duplicated: ReadonlySet<string>,
): Promise<Record<string, unknown>> {
  const row: Record<string, unknown> = {};
  if (duplicated.has(extraKey(e.option_id, e.period))) row.extra_id = e.id;
  row.option = await namer.option(e.option_id);
  if (e.price !== undefined) row.price = e.price;
  if (e.currency_id !== undefined) row.currency = await namer.currency(e.currency_id);
  row.period = e.period;
  if (e.quantity !== undefined) row.quantity = e.quantity;
  if (e.active !== undefined) row.active = e.active ? "on" : "off";
  return row;
}

/** Identities the account has more than once. */
export function duplicatedKeys(extras: readonly ExtraState[]): Set<string> {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const e of extras) {
    const k = extraKey(e.option_id, e.period);
    if (seen.has(k)) dup.add(k);
    seen.add(k);
  }
  return dup;
}

/**
 * A vehicle's extras (ids) as references. Returns the references and the ids
 * that cannot be written as one (not an extra of the account, or one of two
 * extras of the same identity): those stay ids.
 */
export async function extraRefsOf(
  ids: readonly number[],
  extras: ReadonlyMap<number, ExtraState>,
  optionCount: ReadonlyMap<number, number>,
  duplicated: ReadonlySet<string>,
  namer: ExtraNamer,
): Promise<{ refs: unknown[]; ids: number[] }> {
  const refs: unknown[] = [];
  const left: number[] = [];
  for (const id of [...ids].sort((a, b) => a - b)) {
    const e = extras.get(id);
    if (!e || duplicated.has(extraKey(e.option_id, e.period))) {
      left.push(id);
      continue;
    }
    const option = await namer.option(e.option_id);
    refs.push((optionCount.get(e.option_id) ?? 0) === 1 ? option : { option, period: e.period });
  }
  return { refs, ids: left };
}
