import { UsageError } from "../../base/errors.js";
import { CATALOG_OPERATIONS } from "../../contract/operations.js";
import type { JsonObject } from "../../contract/records.js";
import type { OpContext } from "../context.js";
import { fold } from "../search.js";

/** The catalogs by their short names (brands, models, classes, …), from the contract's operation table. */
export const CATALOG_NAMES: readonly string[] = CATALOG_OPERATIONS.map((o) => o.catalogName!);

export interface CatalogSearchInput {
  /** A catalog's short name (CATALOG_NAMES). */
  catalog: string;
  /** Text the entry contains (any case, accents folded); none: every entry. */
  query?: string;
  /** The catalog's own parameters: segment_id, brand_id (models), model_id (equipments). */
  params?: Record<string, number>;
  /** Entries returned at most (default 100); `count` still counts every match. */
  limit?: number;
}

export interface CatalogSearchResult {
  catalog: string;
  /** Every matching entry, also those past the limit. */
  count: number;
  items: JsonObject[];
}

/** Entries of a reference catalog whose text contains the query (through the catalog service: cached). */
export async function searchCatalog(ctx: OpContext, input: CatalogSearchInput): Promise<CatalogSearchResult> {
  const op = CATALOG_OPERATIONS.find((o) => o.catalogName === input.catalog);
  if (!op) throw new UsageError(`unknown catalog ${JSON.stringify(input.catalog)}: one of ${CATALOG_NAMES.join(", ")}`);
  const items = await ctx.catalogs().items(op.id, input.params ?? {});
  const q = input.query === undefined ? "" : fold(input.query.trim());
  const hits = q ? items.filter((i) => fold(JSON.stringify(i)).includes(q)) : items;
  return { catalog: input.catalog, count: hits.length, items: hits.slice(0, input.limit ?? 100) };
}
