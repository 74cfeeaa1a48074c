import { EXTRA_COLUMNS } from "../../contract/columns.js";
import type { Deps } from "../../deps.js";
import { listExtras } from "../../ops/extra/list.js";
import { flag } from "../flags.js";
import { pageFlags } from "../page-flags.js";
import type { PagedListOptions } from "../paged-list.js";
import { listProgress, printListing, wholeListFor } from "../paged-list.js";
import { defineVerb } from "../verb.js";
import { applyView, tableFlags } from "../view-flags.js";

/** `--used-by`: the ids of the vehicles that use the extra. */
const USED_BY_COLUMN = { key: "used_by", header: "USED BY" };

export const verb = defineVerb({
  name: "list",
  description: "List the account's extras",
  flags: {
    ...pageFlags("extras"),
    search: flag.string("--search <text>", "only extras whose option name contains TEXT (any case, accents folded)"),
    usedBy: flag.bool(
      "--used-by",
      "also the vehicles that use each extra (a USED BY column, used_by in other formats): lists every vehicle once",
    ),
    ...tableFlags(),
  },
  examples: [
    "rentctl extra list",
    "rentctl extra list --search seat",
    "rentctl extra list --used-by",
    "rentctl extra list -o json",
  ],
  run: (deps, _args, opts) => {
    applyView(deps, opts);
    return list(deps, opts);
  },
});

/** `extra list`: the op's listing, printed (a program reading gets every row; a table one page and a footer). */
export async function list(deps: Deps, opts: PagedListOptions & { search?: string; usedBy?: boolean }): Promise<void> {
  const input = { ...wholeListFor(deps, opts), search: opts.search, usedBy: opts.usedBy };
  const progress = listProgress(deps, "extras");
  const listing = await listExtras(deps, input, { onProgress: progress.onProgress });
  await printListing(
    deps,
    { kind: "extra", noun: "extras", columns: opts.usedBy ? [...EXTRA_COLUMNS, USED_BY_COLUMN] : EXTRA_COLUMNS },
    listing,
    input,
    progress.line,
  );
}
