import { UsageError } from "../base/errors.js";
import type { JsonObject } from "../contract/records.js";
import { itemId, itemLabel, itemNames } from "./items.js";

/** What one item of a catalog is called in messages. */
export const NOUNS: Readonly<Record<string, string>> = {
  "catalog.segments": "segment",
  "catalog.brands": "brand",
  "catalog.models": "model",
  "catalog.equipments": "configuration",
  "catalog.locales": "locale",
  "catalog.currencies": "currency",
  "catalog.extra_options": "extra option",
  "catalog.classes_or_types": "class",
  "catalog.fuel_policy": "fuel policy",
  "catalog.years_of_issue": "year",
};

export function nounOf(opId: string): string {
  return NOUNS[opId] ?? "item";
}

function list(xs: JsonObject[]): string {
  return (
    xs
      .slice(0, 15)
      .map((i) => `${itemId(i)} ${itemLabel(i)}`)
      .join(", ") + (xs.length > 15 ? `, … (${xs.length - 15} more)` : "")
  );
}

/**
 * Match a name against catalog items, case-insensitively on names and codes:
 * an exact match wins, else a unique prefix, else a unique substring. Several
 * candidates are an error that lists them; none is an error listing the known.
 * `extraNames` adds names per id (the English names when another locale is in use).
 */
export function matchByName(
  items: JsonObject[],
  value: string,
  noun: string,
  flag: string,
  extraNames?: ReadonlyMap<number, readonly string[]>,
): number {
  const needle = value.trim().toLowerCase();
  const withIds = items.filter((i) => itemId(i) !== undefined);
  const namesOf = (i: JsonObject) => [...itemNames(i), ...(extraNames?.get(itemId(i)!) ?? [])];
  const by = (test: (n: string) => boolean) => withIds.filter((i) => namesOf(i).some((n) => test(n.toLowerCase())));
  let pool = by((n) => n === needle);
  if (pool.length === 0) pool = by((n) => n.startsWith(needle));
  if (pool.length === 0) pool = by((n) => n.includes(needle));
  if (pool.length === 1) return itemId(pool[0]!)!;
  if (pool.length > 1) {
    throw new UsageError(`${flag}: ${JSON.stringify(value)} matches ${pool.length} ${noun}s: ${list(pool)}`, {
      hint: "give the id or the full name",
    });
  }
  throw new UsageError(`${flag}: no ${noun} named ${JSON.stringify(value)}`, {
    hint: withIds.length ? `known: ${list(withIds)}` : `the ${noun} catalog is empty here`,
  });
}
