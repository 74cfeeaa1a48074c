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
export async function run(deps: Deps, opts: { where: string[]; sort?: string }): Promise<void> {
  const { selectedPages } = await import("./select.js");
  const quiet = Boolean(deps.flags.quiet);
  const writer = deps.out.listWriter(VEHICLE_COLUMNS);
  const emit = async (items: Parameters<typeof writer.push>[0]) => {
    if (quiet) await deps.out.ids(items.map((i) => recordId(i, "vehicle") ?? "?"));
    else await writer.push(items);
  };
  const pages = selectedPages(deps, { where: opts.where, all: true });
  let shown = 0;
  if (opts.sort) {
    const { parseSort, sortComparator } = await import("../../fleet/where.js");
    const cmp = sortComparator(parseSort(opts.sort));
    const all: Parameters<typeof writer.push>[0] = [];
    for await (const page of pages) all.push(...page);
    all.sort(cmp);
    shown = all.length;
    await emit(all);
  } else {
    for await (const page of pages) {
      shown += page.length;
      await emit(page);
    }
  }
  if (!quiet) await writer.end();
  if (deps.settings().output === "table" && !quiet)
    deps.msg.info(deps.color.dim(`${shown} vehicle${shown === 1 ? "" : "s"} matched`));
}
