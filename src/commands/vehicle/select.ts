import { UsageError } from "../../base/errors.js";
import type { JsonObject } from "../../contract/records.js";
import type { Deps } from "../../deps.js";
import { vehicleIds } from "../../ops/handles.js";
import { selectionPages, type VehicleSelection } from "../../ops/vehicle/select.js";

// the where selection lives in the ops layer (src/ops/vehicle/select.ts); its names are kept here for the commands
export { prepareSelection, whereItems, whereResolver } from "../../ops/vehicle/select.js";

/**
 * Which vehicles a command acts on: ids, or `--where` expressions matched in
 * the client over the listed pages (the contract has no server-side filter),
 * or every vehicle (`--all`). Catalog names in expressions are resolved once,
 * through the catalog service, before any page is matched.
 */
export interface SelectOptions {
  ids?: string[];
  where?: string[];
  all?: boolean;
}

/** True when the options name a selection rather than single ids. */
export function isSelection(opts: SelectOptions): boolean {
  return Boolean(opts.where?.length || opts.all);
}

/** The options' selection as an op takes it: handles resolved to ids (checked before anything else is read). */
export async function opSelection(deps: Deps, opts: SelectOptions): Promise<VehicleSelection> {
  if (!isSelection(opts)) {
    const ids = await vehicleIds(deps, opts.ids ?? []);
    if (ids.length === 0) {
      throw new UsageError(
        `name the vehicles: give ids or --where FIELD OP VALUE${opts.all !== undefined ? ", or --all" : ""}`,
        {
          hint: "example: --where segment=cars --where price_per_day<40",
        },
      );
    }
    return { ids };
  }
  if (opts.ids?.length) throw new UsageError("give ids or --where/--all, not both");
  return { where: opts.where ?? [], all: true };
}

/** The selected vehicles, page by page (ids: one record each, in the order given). */
export async function* selectedPages(deps: Deps, opts: SelectOptions): AsyncGenerator<JsonObject[]> {
  yield* selectionPages(deps, await opSelection(deps, opts));
}

/** Every selected vehicle (a bulk change plans over all of them before sending anything). */
export async function selectedVehicles(deps: Deps, opts: SelectOptions): Promise<JsonObject[]> {
  const out: JsonObject[] = [];
  for await (const page of selectedPages(deps, opts)) out.push(...page);
  return out;
}
