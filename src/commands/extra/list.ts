import { EXTRA_COLUMNS } from "../../contract/columns.js";
import type { Deps } from "../../deps.js";
import { flag } from "../flags.js";
import type { PagedListOptions } from "../paged-list.js";
import { defineVerb } from "../verb.js";

export const verb = defineVerb({
  name: "list",
  description: "List the account's extras",
  flags: {
    limit: flag.int("--limit <n>", "extras per page (default 15; 100 with --all)", { min: 1 }),
    offset: flag.int("--offset <n>", "extras to skip", { min: 0 }),
    page: flag.int("--page <n>", "page number (1-based)", { min: 1 }),
    all: flag.bool("--all", "walk every page"),
  },
  run: (deps, _args, opts) => list(deps, opts),
});

export async function list(deps: Deps, opts: PagedListOptions): Promise<void> {
  const { pagedList } = await import("../paged-list.js");
  await pagedList(
    deps,
    {
      opId: "extras.list",
      kind: "extra",
      noun: "extras",
      params: { locale_id: await deps.locale() },
      columns: EXTRA_COLUMNS,
    },
    opts,
  );
}
