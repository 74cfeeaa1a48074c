import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { released, tempFor } from "../base/temp-files.js";
import { DEFAULT_LOCALE, DEFAULT_SEGMENT } from "../contract/operations.js";
import { isObject, type JsonObject } from "../contract/records.js";

/**
 * The local catalog cache, read by the catalog service (names <-> ids, with an
 * expiry) and by shell completion (names for `--brand`, `--segment`, ...).
 * One file per catalog and parameters:
 *
 *   <dataDir>/cache/catalog-<name>[.<param>-<value>…].json
 *   { "version": 1, "catalog": "brands", "fetchedAt": "2026-01-02T03:04:05.000Z",
 *     "scope": "sandbox", "params": {"segment_id": 3}, "items": [ {…}, … ] }
 *
 * `<name>` is the `rentctl catalog <name>` name (`brands`, `segments`, ...);
 * parameters at their defaults (segment 1, locale 40) are left out of the
 * name, so `catalog-brands.json` holds the car brands in English and
 * `catalog-brands.segment_id-3.json` the boat brands. `scope` names the
 * server the items came from (`sandbox`, or the base address): the service
 * ignores a file from another scope. Writing is best effort and atomic
 * (temp file + rename); a cache that cannot be written or read is absent.
 */

export const CATALOG_CACHE_VERSION = 1;

/** How long the service trusts a cached catalog. */
export const CATALOG_TTL_MS = 24 * 60 * 60 * 1000;

export type CacheParams = Readonly<Record<string, string | number | boolean | undefined | null | readonly unknown[]>>;

export interface CatalogCache {
  version: number;
  catalog: string;
  fetchedAt: string;
  scope?: string;
  params?: Record<string, string | number>;
  items: JsonObject[];
}

const NAME = /^[a-z0-9][a-z0-9_-]*$/;

export function catalogCacheDir(paths: { dataDir: string }): string {
  return join(paths.dataDir, "cache");
}

/** The parameters that tell two fetches of a catalog apart (defaults dropped), sorted. */
export function cacheParams(params: CacheParams = {}): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const k of Object.keys(params).sort()) {
    const v = params[k];
    if (v === undefined || v === null || v === "" || typeof v === "object" || typeof v === "boolean") continue;
    if (k === "locale_id" && Number(v) === DEFAULT_LOCALE) continue;
    if (k === "segment_id" && Number(v) === DEFAULT_SEGMENT) continue;
    out[k] = v;
  }
  return out;
}

/** The cache file of one catalog (and its parameters). */
export function catalogCacheFile(paths: { dataDir: string }, name: string, params: CacheParams = {}): string {
  if (!NAME.test(name)) throw new Error(`not a catalog name: ${JSON.stringify(name)}`);
  const suffix = Object.entries(cacheParams(params))
    .map(([k, v]) => `.${k}-${String(v).replace(/[^A-Za-z0-9_-]/g, "_")}`)
    .join("");
  return join(catalogCacheDir(paths), `catalog-${name}${suffix}.json`);
}

/**
 * Remember a fetched catalog. Never throws: returns false when the file
 * could not be written.
 */
export function writeCatalogCache(
  paths: { dataDir: string },
  name: string,
  items: readonly JsonObject[],
  now: Date = new Date(),
  meta: { scope?: string; params?: CacheParams } = {},
): boolean {
  try {
    const file = catalogCacheFile(paths, name, meta.params);
    mkdirSync(catalogCacheDir(paths), { recursive: true, mode: 0o700 });
    const params = cacheParams(meta.params);
    const data: CatalogCache = {
      version: CATALOG_CACHE_VERSION,
      catalog: name,
      fetchedAt: now.toISOString(),
      ...(meta.scope !== undefined ? { scope: meta.scope } : {}),
      ...(Object.keys(params).length ? { params } : {}),
      items: [...items],
    };
    const tmp = tempFor(file);
    writeFileSync(tmp, `${JSON.stringify(data)}\n`, { mode: 0o600 });
    renameSync(tmp, file);
    released(tmp);
    return true;
  } catch {
    return false;
  }
}

/** A catalog's cached items, or undefined when there is no usable cache. */
export function readCatalogCache(
  paths: { dataDir: string },
  name: string,
  params: CacheParams = {},
): CatalogCache | undefined {
  try {
    return parseCache(name, readFileSync(catalogCacheFile(paths, name, params), "utf8"));
  } catch {
    return undefined;
  }
}

function parseCache(name: string, text: string): CatalogCache | undefined {
  const parsed: unknown = JSON.parse(text);
  if (!isObject(parsed) || parsed.version !== CATALOG_CACHE_VERSION || !Array.isArray(parsed.items)) return undefined;
  const params: Record<string, string | number> = {};
  if (isObject(parsed.params))
    for (const [k, v] of Object.entries(parsed.params))
      if (typeof v === "string" || typeof v === "number") params[k] = v;
  return {
    version: CATALOG_CACHE_VERSION,
    catalog: name,
    fetchedAt: typeof parsed.fetchedAt === "string" ? parsed.fetchedAt : "",
    ...(typeof parsed.scope === "string" ? { scope: parsed.scope } : {}),
    params,
    items: parsed.items.filter(isObject),
  };
}

/** Every cached fetch of a catalog, whatever its parameters (unreadable files are skipped). */
export function listCatalogCaches(paths: { dataDir: string }, name: string): CatalogCache[] {
  if (!NAME.test(name)) return [];
  let files: string[];
  try {
    files = readdirSync(catalogCacheDir(paths));
  } catch {
    return [];
  }
  const out: CatalogCache[] = [];
  for (const f of files) {
    if (f !== `catalog-${name}.json` && !(f.startsWith(`catalog-${name}.`) && f.endsWith(".json"))) continue;
    try {
      const c = parseCache(name, readFileSync(join(catalogCacheDir(paths), f), "utf8"));
      if (c) out.push(c);
    } catch {
      // absent
    }
  }
  return out;
}

/** True when a cache entry is younger than `ttlMs` at `now` (a future or unreadable date is stale). */
export function isFresh(cache: CatalogCache, now: number, ttlMs: number = CATALOG_TTL_MS): boolean {
  const at = Date.parse(cache.fetchedAt);
  return Number.isFinite(at) && at <= now + 60_000 && now - at < ttlMs;
}
