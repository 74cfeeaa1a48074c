import { type JsonObject, recordId } from "../contract/records.js";
import type { Page } from "./decode.js";

export interface WalkOptions {
  limit: number;
  offset?: number;
  kind: "vehicle" | "extra";
  /** Told once when the walk stops early because the server repeated itself. */
  warn?: (message: string) => void;
  /** Upper bound on pages, whatever the server says (a last line of defence). */
  maxPages?: number;
  /**
   * Pages requested ahead while the current one is used (0: one at a time).
   * Only after a full page and while the server's total says more follow; a
   * page fetched ahead is used only for the offset the walk reaches anyway.
   */
  readAhead?: number;
}

export interface WalkedPage {
  items: JsonObject[];
  page: Page;
  offset: number;
}

/**
 * Walk every page of a Paginated operation. Loop-safe against servers that
 * ignore `offset` or report a wrong total: an item already seen (by id) is
 * never yielded twice, and a page that brings nothing new ends the walk with a
 * warning. Stops on an empty or short page, or when `total` is reached.
 */
export async function* walkPages(
  fetchPage: (offset: number, limit: number) => Promise<Page>,
  opts: WalkOptions,
): AsyncGenerator<WalkedPage> {
  const seen = new Set<number | string>();
  let offset = opts.offset ?? 0;
  const maxPages = opts.maxPages ?? 100_000;
  const ahead = new Map<number, Promise<Page>>();
  const fetchAt = (at: number): Promise<Page> => {
    const early = ahead.get(at);
    ahead.delete(at);
    return early ?? fetchPage(at, opts.limit);
  };
  for (let n = 0; n < maxPages; n++) {
    const page = await fetchAt(offset);
    const fresh: JsonObject[] = [];
    for (const item of page.items) {
      const id = recordId(item, opts.kind) ?? JSON.stringify(item);
      if (seen.has(id)) continue;
      seen.add(id);
      fresh.push(item);
    }
    const step = page.items.length;
    const next = offset + step;
    const pageSize = page.perPage ?? page.limit ?? opts.limit;
    const more =
      step > 0 &&
      fresh.length > 0 &&
      !(page.total !== undefined && next >= page.total) &&
      step >= Math.min(pageSize, opts.limit);
    // The next pages, while this one is used: only where full pages of the
    // walk's size will land (a page fetched ahead at another offset is never used).
    if (more && opts.readAhead && step === opts.limit && page.total !== undefined)
      for (let k = 0, at = next; k < opts.readAhead && at < page.total; k++, at += step)
        if (!ahead.has(at)) {
          const p = fetchPage(at, opts.limit);
          p.catch(() => {}); // its error, if any, is thrown where the walk reaches it
          ahead.set(at, p);
        }
    if (fresh.length > 0) yield { items: fresh, page, offset };
    if (step === 0) return;
    if (fresh.length === 0) {
      opts.warn?.(`stopped at offset ${offset}: the server sent only items already listed (it may ignore offset)`);
      return;
    }
    if (!more) return;
    offset = next;
  }
  opts.warn?.(`stopped after ${maxPages} pages`);
}

/** Footer text such as `page 2 of 7 · 15 of 98 vehicles`. */
export function pageFooter(page: Page, offset: number, shown: number, noun: string): string {
  const limit = page.perPage ?? page.limit ?? Math.max(shown, 1);
  const current = page.currentPage && page.currentPage > 0 ? page.currentPage : Math.floor(offset / limit) + 1;
  const parts: string[] = [];
  if (page.lastPage !== undefined) parts.push(`page ${page.total === 0 ? 0 : current} of ${page.lastPage}`);
  else parts.push(`page ${current}`);
  parts.push(
    page.total !== undefined
      ? `${shown} of ${page.total} ${plural(page.total, noun)}`
      : `${shown} ${plural(shown, noun)}`,
  );
  return parts.join(" · ");
}

/** `1 vehicle`, `2 vehicles`: a plural noun (`vehicles`, `extras`) made singular for one. */
export function plural(n: number, noun: string): string {
  return n === 1 && noun.endsWith("s") ? noun.slice(0, -1) : noun;
}

/** `1 vehicle`, `2 vehicles`, `0 fields`: the count with its noun (given plural) in the right number. */
export function counted(n: number, noun: string): string {
  return `${n} ${plural(n, noun)}`;
}
