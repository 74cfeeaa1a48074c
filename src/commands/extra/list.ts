import { EXTRA_COLUMNS } from "../../contract/columns.js";
import type { Deps } from "../../deps.js";
import { pageFlags } from "../page-flags.js";
import type { PagedListOptions } from "../paged-list.js";
import { defineVerb } from "../verb.js";
import { applyView, tableFlags } from "../view-flags.js";

export const verb = defineVerb({
  name: "list",
  description: "List the account's extras",
  flags: { ...pageFlags("extras"), ...tableFlags() },
  run: (deps, _args, opts) => {
    applyView(deps, opts);
    return list(deps, opts);
  },
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
