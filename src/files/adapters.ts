import type { EncodableRecord } from "../api/encode.js";
import { RentctlError } from "../base/errors.js";
import { findItems, itemId, itemNames } from "../catalog/items.js";
import { matchByName } from "../catalog/match.js";
import { type JsonObject, normalizeRecord } from "../contract/records.js";
import type { WireRecord } from "../contract/validate.js";
import type { CoreDeps, Deps } from "../deps.js";
import { prepareVehicle } from "../resources/create.js";
import { inputOf, VEHICLE } from "../resources/safe-edit.js";
import type { RowProblem } from "./fields.js";
import type { CatalogPort } from "./resolver.js";

/**
 * Where fleet/ reaches the record and catalog services below it (the checks
 * of `vehicle create`, the input mapping of safe edit, the catalog service,
 * the account listing). Fleet code only reads: every write goes through
 * src/gateway/.
 */

/** Check a vehicle's input as `vehicle create` does (owner and locale filled); every problem listed. */
export async function checkVehicle(
  deps: CoreDeps,
  values: Record<string, unknown>,
): Promise<{ record?: EncodableRecord; problems: RowProblem[] }> {
  try {
    return { record: await prepareVehicle(deps, values), problems: [] };
  } catch (e) {
    if (e instanceof RentctlError && e.details.length) return { problems: e.details };
    throw e;
  }
}

/** The input fields of a vehicle as the server returns it: the same mapping safe edit uses. */
export async function vehicleInputMapper(): Promise<(record: JsonObject) => WireRecord> {
  return (record) => inputOf(VEHICLE, normalizeRecord(record, "vehicle"));
}

/** The catalog service (cached, memoised, locale-aware) as the fleet resolver's port. */
export async function catalogPort(deps: Pick<Deps, "catalogs">): Promise<CatalogPort> {
  const catalogs = deps.catalogs();
  return {
    items: (opId, params) => catalogs.items(opId, params),
    listIn: async (opId, params, key) => (findItems(await catalogs.body(opId, params), key) ?? []).map((i) => i.raw),
    models: (segmentId) => catalogs.models().entries(segmentId),
    match: (items, value, field) => matchByName(items, value, field.replace(/_id$/, "").replace(/_/g, " "), field),
    itemId,
    itemNames,
  };
}

export { listExtras, listVehicles } from "../resources/list.js";
