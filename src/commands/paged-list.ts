import type { EncodableRecord } from "../api/encode.js";
import { pageFooter, plural, walkPages } from "../api/paginate.js";
import { WALK_PAGE_SIZE } from "../contract/operations.js";
import { type JsonObject, normalizeRecord, recordId } from "../contract/records.js";
import type { Deps } from "../deps.js";
import { UsageError } from "../errors.js";
import type { Column } from "../output/render.js";
import { createStatusLine } from "../output/status-line.js";

/** `--limit`, `--offset`, `--page` (checked as whole numbers by their flags) and `--all`. */
export interface PagedListOptions {
  limit?: number;
  offset?: number;
  page?: number;
  all?: boolean;
}

export interface PagedListSpec {
  opId: string;
  kind: "vehicle" | "extra";
  /** Plural noun for the footer, e.g. `vehicles`. */
  noun: string;
  params: EncodableRecord;
  columns: Column[];
  /** `--search`: only the items it keeps; every page is walked (like --all), the matches stream out. */
  filter?: (items: JsonObject[]) => Promise<JsonObject[]>;
}

/**
 * One page (`--limit`, `--offset` or `--page`) or every page (`--all`, streamed
 * for ndjson and csv, loop-safe). Tables get a footer on stderr; `-q` prints ids.
 */
export async function pagedList(deps: Deps, spec: PagedListSpec, opts: PagedListOptions): Promise<void> {
  const { limit: limitArg, offset: offsetArg, page: pageArg } = opts;
  if (pageArg !== undefined && offsetArg !== undefined) throw new UsageError("--page and --offset cannot be combined");
  const client = await deps.client();
  const fetchPage = async (offset: number, limit: number) => {
    const r = await client.call(spec.opId, { ...spec.params, limit, offset });
    if (r.decoded.kind !== "paginated") throw new UsageError(`${spec.opId} did not answer with a page`);
    return { ...r.decoded.page, items: r.decoded.page.items.map((i) => normalizeRecord(i, spec.kind)) };
  };
  const format = deps.settings().output;
  const quiet = Boolean(deps.flags.quiet);
  const writer = deps.out.listWriter(spec.columns);
  let remembered = false;
  const emit = async (items: JsonObject[]) => {
    // for `vehicle get <TAB>`: the first page only, so a long --all walk does not rewrite the file per page
    if (spec.kind === "vehicle" && !remembered) deps.catalogs().rememberVehicles(items);
    remembered = true;
    if (quiet) await deps.out.ids(items.map((i) => recordId(i, spec.kind) ?? "?"));
    else await writer.push(items);
  };

  if (opts.all || spec.filter) {
    const limit = limitArg ?? WALK_PAGE_SIZE;
    const progress = createStatusLine(deps.io.stderr, deps.io.stderrTTY && !quiet);
    let shown = 0;
    let fetched = 0;
    let total: number | undefined;
    for await (const { items, page } of walkPages(fetchPage, {
      limit,
      offset: offsetArg ?? 0,
      kind: spec.kind,
      warn: (m) => deps.msg.warn(m),
    })) {
      const kept = spec.filter ? await spec.filter(items) : items;
      fetched += items.length;
      shown += kept.length;
      total = page.total;
      progress.clear(); // results may share the terminal: never on the progress line
      if (kept.length) await emit(kept);
      progress.update(deps.color.dim(`fetched ${fetched}${total !== undefined ? ` of ${total}` : ""} ${spec.noun}…`));
    }
    progress.clear();
    if (!quiet) await writer.end();
    if (format === "table" && !quiet)
      deps.msg.info(
        deps.color.dim(
          spec.filter
            ? `${shown} of ${fetched} ${plural(fetched, spec.noun)} matched`
            : `${shown} ${plural(shown, spec.noun)}`,
        ),
      );
    return;
  }
  const limit = limitArg ?? 15;
  const offset = pageArg !== undefined ? (pageArg - 1) * limit : (offsetArg ?? 0);
  const page = await fetchPage(offset, limit);
  await emit(page.items);
  if (!quiet) await writer.end();
  if (format === "table" && !quiet) {
    const last = page.lastPage ?? (page.total !== undefined ? Math.ceil(page.total / limit) : undefined);
    if (page.items.length === 0 && offset > 0 && page.total !== undefined && page.total > 0)
      deps.msg.info(
        `${pageArg !== undefined ? `page ${pageArg}` : `offset ${offset}`} is past the end: there ${page.total === 1 ? "is" : "are"} ${page.total} ${plural(page.total, spec.noun)}${last !== undefined ? ` on ${last} page${last === 1 ? "" : "s"} of ${limit}` : ""} (try --page ${Math.max(1, last ?? 1)})`,
      );
    else if (page.items.length === 0) deps.msg.info(`no ${spec.noun}${offset > 0 ? " on this page" : " yet"}`);
    // The next step, when there is more: the next page, or everything at once.
    const more = page.total !== undefined ? offset + page.items.length < page.total : page.items.length === limit;
    const next = more
      ? ` · next: --page ${Math.floor(offset / limit) + 2}${limitArg !== undefined ? ` --limit ${limit}` : ""}, or --all`
      : "";
    deps.msg.info(deps.color.dim(pageFooter(page, offset, page.items.length, spec.noun) + next));
  }
}
