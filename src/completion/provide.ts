import { readCatalogCache } from "../catalog/cache.js";
import { itemId, itemNames } from "../catalog/items.js";
import { CATALOG_OPERATIONS } from "../contract/operations.js";
import type { Deps } from "../deps.js";

/**
 * Dynamic completion values, printed by `rentctl completion __complete KIND
 * [ARGS…]` one per line as `value` or `value<TAB>description`. Local reads
 * only: the network is used only for a catalog that has no cache yet, and
 * only when RENTCTL_COMPLETE_FETCH=1.
 *
 *   profiles                 saved profile names
 *   catalog NAME             names of a cached catalog's items (description: the id)
 *   catalog NAME --ids       ids of a cached catalog's items (description: the name)
 */

export async function completionValues(deps: Deps, kind: string, args: readonly string[]): Promise<string[]> {
  switch (kind) {
    case "profiles":
      try {
        return deps.store().names();
      } catch {
        return [];
      }
    case "catalog": {
      const name = args[0];
      if (!name) return [];
      return catalogValues(deps, name, args.includes("--ids"));
    }
    default:
      return [];
  }
}

async function catalogValues(deps: Deps, name: string, ids: boolean): Promise<string[]> {
  let items = readCatalogCache(deps.paths, name)?.items;
  if (!items && deps.env.RENTCTL_COMPLETE_FETCH === "1") items = await fetchForCompletion(deps, name);
  if (!items) return [];
  const lines = new Set<string>();
  for (const item of items) {
    const id = itemId(item);
    const label = itemNames(item)[0];
    const tidy = (s: string) => s.replace(/[\t\r\n]+/g, " ").trim();
    if (ids && id !== undefined) lines.add(label ? `${id}\t${tidy(label)}` : String(id));
    else if (!ids && label) lines.add(id !== undefined ? `${tidy(label)}\t${id}` : tidy(label));
  }
  return [...lines];
}

/** Opt-in fetch of a catalog that takes no parameter but the locale; the result is cached. */
async function fetchForCompletion(deps: Deps, name: string) {
  const op = CATALOG_OPERATIONS.find((o) => o.catalogName === name);
  if (!op || op.params.some((p) => p.required && p.name !== "locale_id")) return undefined;
  try {
    return await deps.catalogs().items(op.id);
  } catch {
    return undefined;
  }
}
