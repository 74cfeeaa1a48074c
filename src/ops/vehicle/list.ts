import { requireUser } from "../../config/target.js";
import type { JsonObject } from "../../contract/records.js";
import type { SelectionTerms } from "../../plans/where.js";
import { parseSort, sortComparator } from "../../plans/where.js";
import type { OpContext, OpOptions } from "../context.js";
import {
  boundedMatches,
  DEFAULT_PAGE_SIZE,
  type Listing,
  type ListProgress,
  type PageInput,
  pagedListing,
  pageOffset,
} from "../listing.js";
import { searchPages } from "../search.js";
import { wherePages } from "./select.js";

/** What `vehicle list` takes: a page or every page, optionally a `where` selection, a search text and a sort. */
export interface VehicleListInput extends PageInput {
  /** FIELD OP VALUE expressions (all must hold), matched over every page. */
  where?: readonly string[];
  /** Text in the registration, model name, location, features or benefits (any case, accents folded). */
  search?: string;
  /** A field, optionally `:desc`; holds the matches (not the fleet) to sort them. */
  sort?: string;
  /** How refusals name where, sort and the fields (default: the CLI's flags). */
  terms?: SelectionTerms;
}

/** True when the input selects (where, search or sort): every page is walked and filtered in the client. */
export function isFiltered(input: VehicleListInput): boolean {
  return Boolean(input.where?.length || input.sort || input.search !== undefined);
}

/**
 * The owner's vehicles, page by page. Without a selection: one page of the
 * server (or every page with `all`). With `where`, `search` or `sort`: every
 * page is walked and filtered in the client, the matches stream out; `limit`
 * and `offset` / `page` then count matches (after the sort), and without a
 * limit every match is returned.
 */
export async function listVehicles(
  ctx: OpContext,
  input: VehicleListInput,
  opts: OpOptions<ListProgress> = {},
): Promise<Listing> {
  if (!isFiltered(input)) {
    const params = { user_id: await requireUser(ctx), locale_id: await ctx.locale() };
    return pagedListing(ctx, { opId: "vehicles.list", kind: "vehicle", params }, input, opts);
  }
  let pages: AsyncIterable<JsonObject[]> = wherePages(ctx, input.where ?? [], input.terms);
  if (input.search !== undefined) pages = searchPages(ctx, "vehicle", input.search, pages);
  let sort: ((a: JsonObject, b: JsonObject) => number) | undefined;
  if (input.sort) {
    sort = sortComparator(parseSort(input.sort, undefined, input.terms));
  }
  return boundedMatches(pages, {
    limit: input.all ? undefined : input.limit,
    offset: pageOffset(input, input.limit ?? DEFAULT_PAGE_SIZE),
    sort,
  });
}
