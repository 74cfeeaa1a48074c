import type { Page } from "../api/decode.js";
import type { EncodableRecord } from "../api/encode.js";
import { walkPages } from "../api/paginate.js";
import { UsageError } from "../base/errors.js";
import { WALK_PAGE_SIZE } from "../contract/operations.js";
import { type JsonObject, normalizeRecord } from "../contract/records.js";
import type { OpContext, OpOptions } from "./context.js";

/**
 * The one paged listing of the ops layer (vehicle list, extra list): one page
 * (`limit` + `offset` or `page`), or every page (`all`), or every page kept
 * through a filter (a selection, a search). It returns the records page by
 * page as they arrive (a caller streams them) and, once they are read, what a
 * footer needs. It never prints.
 */

/** How much of a listing: a page, or every page. */
export interface PageInput {
  /** Records a page (default 15 for one page; the walk's page size for every page). */
  limit?: number;
  /** Records to skip. */
  offset?: number;
  /** 1-based page number (uses limit); not with offset. */
  page?: number;
  /** Every page (streamed). */
  all?: boolean;
}

/** The default size of one page of a listing for a person. */
export const DEFAULT_PAGE_SIZE = 15;

/** What a listing saw, once its pages are read: the footer of a table. */
export interface ListSummary {
  /**
   * "page": one page of the server; "all": every page; "filtered": every page,
   * kept through a filter; "selection": matches bounded by limit / offset
   * (`fetched` then counts matches).
   */
  mode: "page" | "all" | "filtered" | "selection";
  /** Records returned. */
  shown: number;
  /** Records the server listed (before a filter). */
  fetched: number;
  /** The server's total, when it said one. */
  total?: number;
  /** The server's last page number, when it said one (one page only). */
  lastPage?: number;
  /** One page only: the server's page description (current page, page size), for a footer. */
  page?: Omit<Page, "items">;
  offset: number;
  limit: number;
  /** A bound (limit) was reached before the listing ended: more may follow. */
  stoppedEarly: boolean;
}

/** A listing's records, page by page, and its summary once they are read. */
export interface Listing {
  pages: AsyncIterable<JsonObject[]>;
  /** Valid once `pages` is read to its end (or left early). */
  summary(): ListSummary;
}

/** Progress of a walk over every page. */
export interface ListProgress {
  fetched: number;
  total?: number;
}

export interface ListSource {
  opId: string;
  kind: "vehicle" | "extra";
  params: EncodableRecord;
  /** Keep only these records of each page (every page is walked). */
  filter?: (items: JsonObject[]) => Promise<JsonObject[]>;
}

/** `page` and `offset` together are refused (one place for the rule). */
export function pageOffset(input: PageInput, limit: number): number {
  if (input.page !== undefined && input.offset !== undefined)
    throw new UsageError("--page and --offset cannot be combined");
  return input.page !== undefined ? (input.page - 1) * limit : (input.offset ?? 0);
}

export function pagedListing(
  ctx: OpContext,
  source: ListSource,
  input: PageInput,
  opts: OpOptions<ListProgress> & { warn?: (m: string) => void } = {},
): Listing {
  const every = Boolean(input.all || source.filter);
  const limit = input.limit ?? (every ? WALK_PAGE_SIZE : DEFAULT_PAGE_SIZE);
  const offset = pageOffset(input, limit);
  const summary: ListSummary = {
    mode: source.filter ? "filtered" : every ? "all" : "page",
    shown: 0,
    fetched: 0,
    offset,
    limit,
    stoppedEarly: false,
  };
  const fetchPage = async (at: number, size: number) => {
    opts.signal?.throwIfAborted();
    const client = await ctx.client();
    const r = await client.call(source.opId, { ...source.params, limit: size, offset: at });
    if (r.decoded.kind !== "paginated") throw new UsageError(`${source.opId} did not answer with a page`);
    return { ...r.decoded.page, items: r.decoded.page.items.map((i) => normalizeRecord(i, source.kind)) };
  };
  async function* pages(): AsyncGenerator<JsonObject[]> {
    if (!every) {
      const page = await fetchPage(offset, limit);
      summary.fetched = summary.shown = page.items.length;
      summary.total = page.total;
      const { items: _items, ...meta } = page;
      summary.page = meta;
      summary.lastPage = page.lastPage ?? (page.total !== undefined ? Math.ceil(page.total / limit) : undefined);
      summary.stoppedEarly =
        page.total !== undefined ? offset + page.items.length < page.total : page.items.length === limit;
      yield page.items;
      return;
    }
    for await (const { items, page } of walkPages(fetchPage, {
      limit,
      offset,
      kind: source.kind,
      warn: opts.warn ?? ((m) => ctx.msg.warn(m)),
    })) {
      const kept = source.filter ? await source.filter(items) : items;
      summary.fetched += items.length;
      summary.shown += kept.length;
      summary.total = page.total;
      if (kept.length) yield kept;
      opts.onProgress?.({ fetched: summary.fetched, total: summary.total });
    }
  }
  return { pages: pages(), summary: () => ({ ...summary }) };
}

/**
 * Records of a listing kept through `offset` / `limit` counted in matches (a
 * selection: the first N that match), or sorted first (the sort holds the
 * matches, not the fleet). The summary counts matches.
 */
export function boundedMatches(
  matches: AsyncIterable<JsonObject[]>,
  bound: { limit?: number; offset?: number; sort?: (a: JsonObject, b: JsonObject) => number },
): Listing {
  const skip = bound.offset ?? 0;
  const take = bound.limit ?? Number.POSITIVE_INFINITY;
  const summary: ListSummary = {
    mode: "selection",
    shown: 0,
    fetched: 0,
    offset: skip,
    limit: Number.isFinite(take) ? take : 0,
    stoppedEarly: false,
  };
  async function* pages(): AsyncGenerator<JsonObject[]> {
    if (bound.sort) {
      const all: JsonObject[] = [];
      for await (const page of matches) all.push(...page);
      all.sort(bound.sort);
      summary.fetched = all.length;
      const slice = all.slice(skip, skip + take);
      summary.shown = slice.length;
      if (slice.length) yield slice;
      return;
    }
    for await (const page of matches) {
      const from = Math.max(0, skip - summary.fetched);
      summary.fetched += page.length;
      const part = page.slice(from, Math.max(from, from + take - summary.shown));
      summary.shown += part.length;
      if (part.length) yield part;
      if (summary.shown >= take) {
        summary.stoppedEarly = true;
        return;
      }
    }
  }
  return { pages: pages(), summary: () => ({ ...summary }) };
}

/** Every record of a listing, in one array (a bounded listing: a tool's page, a test). */
export async function collect(listing: Listing): Promise<JsonObject[]> {
  const out: JsonObject[] = [];
  for await (const page of listing.pages) out.push(...page);
  return out;
}
