import { EXTRA_COLUMNS } from "../../contract/columns.js";
import type { Deps } from "../../deps.js";
import { flag } from "../flags.js";
import { pageFlags } from "../page-flags.js";
import type { PagedListOptions } from "../paged-list.js";
import { defineVerb } from "../verb.js";
import { applyView, tableFlags } from "../view-flags.js";

export const verb = defineVerb({
  name: "list",
  description: "List the account's extras",
  flags: {
    ...pageFlags("extras"),
    search: flag.string("--search <text>", "only extras whose option name contains TEXT (any case, accents folded)"),
    ...tableFlags(),
  },
  examples: ["rentctl extra list", "rentctl extra list --search seat", "rentctl extra list --all -o json"],
  run: (deps, _args, opts) => {
    applyView(deps, opts);
    return list(deps, opts);
  },
});

export async function list(deps: Deps, opts: PagedListOptions & { search?: string }): Promise<void> {
  const { pagedList } = await import("../paged-list.js");
  const filter =
    opts.search !== undefined ? (await import("../search.js")).searchFilter(deps, "extra", opts.search) : undefined;
  await pagedList(
    deps,
    {
      opId: "extras.list",
      kind: "extra",
      noun: "extras",
      params: { locale_id: await deps.locale() },
      columns: EXTRA_COLUMNS,
      filter,
    },
    opts,
  );
}
