import { UsageError } from "../../base/errors.js";
import { VEHICLE_COLUMNS } from "../../contract/columns.js";
import type { Deps } from "../../deps.js";
import { listVehicles } from "../../ops/vehicle/list.js";
import { parseRange } from "../../plans/calendar.js";
import { flag } from "../flags.js";
import { pageFlags } from "../page-flags.js";
import type { PagedListOptions } from "../paged-list.js";
import { listProgress, printListing, wholeListFor } from "../paged-list.js";
import { defineVerb } from "../verb.js";
import { applyView, tableFlags } from "../view-flags.js";

export const verb = defineVerb({
  name: "list",
  description: "List the owner's vehicles, a page at a time or --all",
  flags: {
    ...pageFlags("vehicles"),
    where: flag.list(
      "--where <expr>",
      "only vehicles where FIELD OP VALUE holds (= != < <= > >= ~regex; repeat: all must hold); filtered in the client over every listed page, streamed like --all",
    ),
    freeOn: flag.string(
      "--free-on <date|range>",
      "only vehicles free on every day of it (2026-12-24, 24.12.2026, 2026-12-24..2026-12-26, 2026-12): --where available=…",
    ),
    sort: flag.string("--sort <field[:desc]>", "order by a field (stable; holds the selection in memory to sort it)"),
    search: flag.string(
      "--search <text>",
      "only vehicles whose registration, model name, location, features or benefits contain TEXT (any case, accents folded); streamed like --where",
    ),
    ...tableFlags(),
  },
  examples: [
    "rentctl vehicle list",
    "rentctl vehicle list --where segment=cars --where 'price_per_day<40'",
    "rentctl vehicle list --where vehicle_activity=0 --sort price_per_day:desc",
    "rentctl vehicle list --where model=corolla --free-on 24.12.2026",
    "rentctl vehicle list --search corolla",
    "rentctl vehicle list --page 2 --limit 20",
    "rentctl vehicle list --all -o ndjson | jq .id",
    "rentctl vehicle list --all -q",
  ],
  run: async (deps, _args, opts) => {
    applyView(deps, opts);
    if (opts.freeOn !== undefined) {
      // checked here so that an error names the flag that was typed
      try {
        parseRange(opts.freeOn);
      } catch (e) {
        throw new UsageError(
          `--free-on ${JSON.stringify(opts.freeOn)}: ${(e as Error).message.replace(/^date range "[^"]*": /, "")}`,
          {
            hint: "a date as 2026-12-24 or 24.12.2026, a range as 2026-12-24..2026-12-26, or a month as 2026-12",
          },
        );
      }
    }
    const where = opts.freeOn === undefined ? opts.where : [...opts.where, `available=${opts.freeOn}`];
    return list(deps, { ...opts, where });
  },
});

/** `vehicle list`: the op's listing, printed (a program reading gets every row; a table one page and a footer). */
export async function list(
  deps: Deps,
  opts: PagedListOptions & { where?: string[]; sort?: string; search?: string },
): Promise<void> {
  const input = { ...wholeListFor(deps, opts), where: opts.where, sort: opts.sort, search: opts.search };
  const progress = listProgress(deps, "vehicles");
  const listing = await listVehicles(deps, input, { onProgress: progress.onProgress });
  await printListing(
    deps,
    { kind: "vehicle", noun: "vehicles", columns: VEHICLE_COLUMNS },
    listing,
    input,
    progress.line,
  );
}
