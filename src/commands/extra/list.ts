import { EXTRA_COLUMNS } from "../../contract/columns.js";
import type { Deps } from "../../deps.js";
import { type PagedListOptions, pagedList } from "../paged-list.js";

export async function list(deps: Deps, opts: PagedListOptions): Promise<void> {
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
