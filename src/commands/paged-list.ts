import { pageFooter, plural } from "../api/paginate.js";
import { type JsonObject, recordId } from "../contract/records.js";
import type { Deps } from "../deps.js";
import type { Listing, ListSummary, PageInput } from "../ops/listing.js";
import type { Column } from "../output/render.js";
import { createStatusLine } from "../output/status-line.js";

/** `--limit`, `--offset`, `--page` (checked as whole numbers by their flags) and `--all`. */
export type PagedListOptions = PageInput;

export interface PagedListSpec {
  kind: "vehicle" | "extra";
  /** Plural noun for the footer, e.g. `vehicles`. */
  noun: string;
  columns: Column[];
}

/**
 * A program reading the list (a machine format: json, ndjson, csv, yaml; or
 * `-q`) gets every row, streamed page by page, unless `--limit`, `--page` or
 * `--offset` bound it; a person at a table gets one page and a footer that
 * says how to see more. The one place for that rule (every paged list reads it).
 */
export function wholeListFor(deps: Deps, opts: PagedListOptions): PagedListOptions {
  const forProgram = deps.settings().output !== "table" || Boolean(deps.flags.quiet);
  const bounded = opts.limit !== undefined || opts.page !== undefined || opts.offset !== undefined;
  return forProgram && !bounded ? { ...opts, all: true } : opts;
}

/**
 * Print a listing of the ops layer: its records as they arrive (every format
 * streams; `-q` prints ids), a progress line while every page is walked, and
 * for a table the footer on stderr (the page and how to see more, or the count).
 */
export async function printListing(
  deps: Deps,
  spec: PagedListSpec,
  listing: Listing,
  opts: PagedListOptions,
  progress?: ReturnType<typeof createStatusLine>,
): Promise<void> {
  const quiet = Boolean(deps.flags.quiet);
  const writer = deps.out.listWriter(spec.columns);
  let remembered = false;
  for await (const items of listing.pages) {
    progress?.clear(); // results may share the terminal: never on the progress line
    // for `vehicle get <TAB>`: the first page only, so a long --all walk does not rewrite the file per page
    if (spec.kind === "vehicle" && !remembered) deps.catalogs().rememberVehicles(items);
    remembered = true;
    if (quiet) await deps.out.ids(items.map((i: JsonObject) => recordId(i, spec.kind) ?? "?"));
    else await writer.push(items);
  }
  progress?.clear();
  if (!quiet) await writer.end();
  const s = listing.summary();
  if (deps.settings().output !== "table" || quiet) {
    // a page past the end is said on stderr in every format: `[]` alone would read as "no vehicles"
    if (s.mode === "page" && s.shown === 0 && s.offset > 0 && s.total !== undefined && s.total > 0)
      deps.msg.warn(pastTheEnd(s, opts, spec.noun));
    return;
  }
  listFooter(deps, spec.noun, s, opts);
}

/** A table's footer on stderr (the one for every paged list and the board): the page and how to see more, or the count. */
export function listFooter(deps: Deps, noun: string, s: ListSummary, opts: PagedListOptions): void {
  const spec = { noun };
  if (s.mode === "all") {
    deps.msg.info(deps.color.dim(`${s.shown} ${plural(s.shown, spec.noun)}`));
    return;
  }
  if (s.mode === "selection") {
    const v = (n: number) => `${n} ${plural(n, spec.noun)}`;
    deps.msg.info(
      deps.color.dim(
        s.stoppedEarly
          ? `the first ${v(s.shown)} that match${s.offset ? ` after ${s.offset}` : ""} (more may match: --limit N, or leave it out)`
          : s.shown === s.fetched
            ? `${v(s.fetched)} matched`
            : `${s.shown} of ${s.fetched} matching ${spec.noun} shown${s.offset ? ` (from match ${s.offset + 1})` : ""}`,
      ),
    );
    return;
  }
  if (s.mode === "filtered") {
    deps.msg.info(deps.color.dim(`${s.shown} of ${s.fetched} ${plural(s.fetched, spec.noun)} matched`));
    return;
  }
  const { offset, limit } = s;
  if (s.shown === 0 && offset > 0 && s.total !== undefined && s.total > 0) {
    // the line says the page count and where to go: no "page 5 of 1" footer under it
    deps.msg.info(pastTheEnd(s, opts, spec.noun));
    return;
  }
  if (s.shown === 0) deps.msg.info(`no ${spec.noun}${offset > 0 ? " on this page" : " yet"}`);
  // The next step, when there is more: the next page, or everything at once.
  const next = s.stoppedEarly
    ? ` · next: --page ${Math.floor(offset / limit) + 2}${opts.limit !== undefined ? ` --limit ${limit}` : ""}, or --all`
    : "";
  deps.msg.info(deps.color.dim(pageFooter({ items: [], ...s.page }, offset, s.shown, spec.noun) + next));
}

/** `page 9 is past the end: there are 20 vehicles on 2 pages of 15 (try --page 2)`. */
function pastTheEnd(
  s: { offset: number; limit: number; total?: number; lastPage?: number },
  opts: PagedListOptions,
  noun: string,
): string {
  const total = s.total ?? 0;
  return `${opts.page !== undefined ? `page ${opts.page}` : `offset ${s.offset}`} is past the end: there ${total === 1 ? "is" : "are"} ${total} ${plural(total, noun)}${s.lastPage !== undefined ? ` on ${s.lastPage} page${s.lastPage === 1 ? "" : "s"} of ${s.limit}` : ""} (try --page ${Math.max(1, s.lastPage ?? 1)})`;
}

/** The progress line of a walk over every page (on a terminal's stderr; never with -q). */
export function listProgress(deps: Deps, noun: string) {
  const line = createStatusLine(deps.io.stderr, deps.io.stderrTTY && !deps.flags.quiet);
  return {
    line,
    onProgress: (p: { fetched: number; total?: number }) =>
      line.update(deps.color.dim(`fetched ${p.fetched}${p.total !== undefined ? ` of ${p.total}` : ""} ${noun}…`)),
  };
}
