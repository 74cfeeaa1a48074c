import { VEHICLE_COLUMNS } from "../../contract/columns.js";
import type { Deps } from "../../deps.js";
import { requireUser } from "../../deps.js";
import { type PagedListOptions, pagedList } from "../paged-list.js";

export async function list(deps: Deps, opts: PagedListOptions): Promise<void> {
  const userId = await requireUser(deps);
  await pagedList(
    deps,
    {
      opId: "vehicles.list",
      kind: "vehicle",
      noun: "vehicles",
      params: { user_id: userId, locale_id: await deps.locale() },
      columns: VEHICLE_COLUMNS,
    },
    opts,
  );
}
