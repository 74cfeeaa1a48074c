import type { EncodableRecord } from "../../api/encode.js";
import { operation } from "../../contract/operations.js";
import { isObject, type JsonObject } from "../../contract/records.js";
import type { Deps } from "../../deps.js";
import { UsageError } from "../../errors.js";

/**
 * Catalog items' fields are not shown by the contract beyond being objects:
 * an item's id is `id` (else the first `*_id` member), its name is `name`
 * (else `title`, `label`, `value`, `code`). Decided here for every catalog.
 */
export function itemId(item: JsonObject): number | undefined {
  const candidates = [
    item.id,
    ...Object.entries(item)
      .filter(([k]) => k.endsWith("_id"))
      .map(([, v]) => v),
  ];
  for (const v of candidates) {
    if (typeof v === "number" && Number.isSafeInteger(v)) return v;
    if (typeof v === "string" && /^\d+$/.test(v)) return Number(v);
  }
  return undefined;
}

export function itemNames(item: JsonObject): string[] {
  const names: string[] = [];
  for (const k of ["name", "title", "label", "value", "code", "symbol"]) {
    const v = item[k];
    if (typeof v === "string" && v.trim()) names.push(v.trim());
  }
  return names;
}

export function itemLabel(item: JsonObject): string {
  return itemNames(item)[0] ?? JSON.stringify(item);
}

const NOUNS: Record<string, string> = {
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

/** Catalogs whose names shell completion offers (`--brand`, `--segment`, ...), cached when fetched. */
const COMPLETION_CACHED = new Set(["segments", "brands", "currencies", "locales", "extra-options"]);

/** Remember a fetched catalog for shell completion (best effort, local file only). */
export async function rememberCatalog(deps: Deps, opId: string, items: JsonObject[]): Promise<void> {
  const name = operation(opId).catalogName;
  if (!name || !COMPLETION_CACHED.has(name) || items.length === 0) return;
  const { writeCatalogCache } = await import("../../completion/cache.js");
  writeCatalogCache(deps.paths, name, items);
}

/** Fetch a catalog's items (locale filled in where the operation takes one). */
export async function fetchCatalog(deps: Deps, opId: string, params: EncodableRecord = {}): Promise<JsonObject[]> {
  const client = await deps.client();
  const op = operation(opId);
  const p: EncodableRecord = { ...params };
  if (op.params.some((x) => x.name === "locale_id") && p.locale_id === undefined) p.locale_id = await deps.locale();
  const res = await client.call(opId, p);
  if (res.decoded.kind === "list") {
    await rememberCatalog(deps, opId, res.decoded.items);
    return res.decoded.items;
  }
  for (const v of Object.values(res.decoded.body)) if (Array.isArray(v)) return v.filter(isObject);
  return [];
}

/**
 * Match a name against catalog items, case-insensitively on names and codes:
 * an exact match wins, else a unique prefix, else a unique substring. Several
 * candidates are an error that lists them; none is an error listing the known.
 */
export function matchByName(items: JsonObject[], value: string, noun: string, flag: string): number {
  const needle = value.trim().toLowerCase();
  const withIds = items.filter((i) => itemId(i) !== undefined);
  const by = (test: (n: string) => boolean) => withIds.filter((i) => itemNames(i).some((n) => test(n.toLowerCase())));
  let pool = by((n) => n === needle);
  if (pool.length === 0) pool = by((n) => n.startsWith(needle));
  if (pool.length === 0) pool = by((n) => n.includes(needle));
  if (pool.length === 1) return itemId(pool[0]!)!;
  const list = (xs: JsonObject[]) =>
    xs
      .slice(0, 15)
      .map((i) => `${itemId(i)} ${itemLabel(i)}`)
      .join(", ") + (xs.length > 15 ? `, … (${xs.length - 15} more)` : "");
  if (pool.length > 1) {
    throw new UsageError(`${flag}: ${JSON.stringify(value)} matches ${pool.length} ${noun}s: ${list(pool)}`, {
      hint: "give the id or the full name",
    });
  }
  throw new UsageError(`${flag}: no ${noun} named ${JSON.stringify(value)}`, {
    hint: withIds.length ? `known: ${list(withIds)}` : `the ${noun} catalog is empty here`,
  });
}

/** An id passes through untouched (no request); a name is resolved through the catalog. */
export async function resolveRef(
  deps: Deps,
  opId: string,
  value: string | number | undefined,
  flag: string,
  params: EncodableRecord = {},
): Promise<number | undefined> {
  if (value === undefined || value === "") return undefined;
  const s = String(value).trim();
  if (/^\d+$/.test(s)) return Number(s);
  const items = await fetchCatalog(deps, opId, params);
  return matchByName(items, s, NOUNS[opId] ?? "item", flag);
}

export async function resolveLocale(deps: Deps, value: string): Promise<number> {
  const client = await deps.client();
  const res = await client.call("catalog.locales", {});
  const items = res.decoded.kind === "list" ? res.decoded.items : [];
  return matchByName(items, value, "locale", "--locale");
}
