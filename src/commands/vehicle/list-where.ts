import { VEHICLE_COLUMNS } from "../../contract/columns.js";
import { recordId } from "../../contract/records.js";
import type { Deps } from "../../deps.js";

/**
 * `vehicle list --where EXPR… [--sort FIELD[:desc]]`: every page is listed
 * and filtered in the client (the contract has no server-side filter), and
 * the matching vehicles stream out page by page like `--all`. `--sort` has
 * to see the whole selection first, so it holds the matches (not the whole
 * fleet) in memory; the sort is stable.
 */
export async function run(
  deps: Deps,
  opts: { where: string[]; sort?: string; limit?: number; offset?: number; search?: string },
): Promise<void> {
  const { selectedPages } = await import("./select.js");
  const quiet = Boolean(deps.flags.quiet);
  const writer = deps.out.listWriter(VEHICLE_COLUMNS);
  const emit = async (items: Parameters<typeof writer.push>[0]) => {
    if (quiet) await deps.out.ids(items.map((i) => recordId(i, "vehicle") ?? "?"));
    else await writer.push(items);
  };
  const pages = opts.search
    ? (await import("../search.js")).searchPages(
        deps,
        "vehicle",
        opts.search,
        selectedPages(deps, { where: opts.where, all: true }),
      )
    : selectedPages(deps, { where: opts.where, all: true });
  // --limit / --page / --offset count matches, after the sort (the first N of the sorted selection)
  const skip = opts.offset ?? 0;
  const take = opts.limit ?? Number.POSITIVE_INFINITY;
  let shown = 0;
  let matched = 0;
  let stoppedEarly = false;
  if (opts.sort) {
    const { parseSort, sortComparator } = await import("../../fleet/where.js");
    const cmp = sortComparator(parseSort(opts.sort));
    const all: Parameters<typeof writer.push>[0] = [];
    for await (const page of pages) all.push(...page);
    all.sort(cmp);
    matched = all.length;
    const slice = all.slice(skip, skip + take);
    shown = slice.length;
    await emit(slice);
  } else {
    for await (const page of pages) {
      const from = Math.max(0, skip - matched);
      matched += page.length;
      const part = page.slice(from, Math.max(from, from + take - shown));
      shown += part.length;
      if (part.length) await emit(part);
      if (shown >= take) {
        stoppedEarly = true;
        break;
      }
    }
  }
  if (!quiet) await writer.end();
  if (deps.settings().output === "table" && !quiet) {
    const v = (n: number) => `${n} vehicle${n === 1 ? "" : "s"}`;
    deps.msg.info(
      deps.color.dim(
        stoppedEarly
          ? `the first ${v(shown)} that match${skip ? ` after ${skip}` : ""} (more may match: --limit N, or leave it out)`
          : shown === matched
            ? `${v(matched)} matched`
            : `${shown} of ${matched} matching vehicles shown${skip ? ` (from match ${skip + 1})` : ""}`,
      ),
    );
  }
}
