import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Paths } from "../config/paths.js";
import { isObject, type JsonObject } from "../contract/records.js";

/**
 * The local catalog cache that shell completion reads (names for `--brand`,
 * `--segment`, ...). One file per catalog:
 *
 *   <dataDir>/cache/catalog-<name>.json
 *   { "version": 1, "catalog": "brands", "fetchedAt": "2026-01-02T03:04:05.000Z", "items": [ {…}, … ] }
 *
 * `<name>` is the `rentctl catalog <name>` name (`brands`, `segments`,
 * `currencies`, ...); `items` are the catalog items as the API returned them.
 * Writing is best effort and atomic (temp file + rename); a cache that cannot
 * be written or read is simply absent.
 */

export const CATALOG_CACHE_VERSION = 1;

export interface CatalogCache {
  version: number;
  catalog: string;
  fetchedAt: string;
  items: JsonObject[];
}

const NAME = /^[a-z0-9][a-z0-9_-]*$/;

export function catalogCacheDir(paths: Paths): string {
  return join(paths.dataDir, "cache");
}

/** The cache file of one catalog. */
export function catalogCacheFile(paths: Paths, name: string): string {
  if (!NAME.test(name)) throw new Error(`not a catalog name: ${JSON.stringify(name)}`);
  return join(catalogCacheDir(paths), `catalog-${name}.json`);
}

/**
 * Remember a fetched catalog for completion. Never throws: returns false
 * when the file could not be written.
 */
export function writeCatalogCache(
  paths: Paths,
  name: string,
  items: readonly JsonObject[],
  now: Date = new Date(),
): boolean {
  try {
    const file = catalogCacheFile(paths, name);
    mkdirSync(catalogCacheDir(paths), { recursive: true });
    const data: CatalogCache = {
      version: CATALOG_CACHE_VERSION,
      catalog: name,
      fetchedAt: now.toISOString(),
      items: [...items],
    };
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(data)}\n`);
    renameSync(tmp, file);
    return true;
  } catch {
    return false;
  }
}

/** A catalog's cached items, or undefined when there is no usable cache. */
export function readCatalogCache(paths: Paths, name: string): CatalogCache | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(catalogCacheFile(paths, name), "utf8"));
    if (!isObject(parsed) || parsed.version !== CATALOG_CACHE_VERSION || !Array.isArray(parsed.items)) return undefined;
    return {
      version: CATALOG_CACHE_VERSION,
      catalog: name,
      fetchedAt: typeof parsed.fetchedAt === "string" ? parsed.fetchedAt : "",
      items: parsed.items.filter(isObject),
    };
  } catch {
    return undefined;
  }
}
