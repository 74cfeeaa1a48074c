import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import type { CancelSignal } from "../api/cancel.js";
import type { EncodableRecord, FilePart } from "../api/encode.js";
import { itemId, itemNames } from "../catalog/items.js";
import { matchByName } from "../catalog/match.js";
import { UPLOAD_MAX_FILES, UPLOAD_PART_NAME } from "../contract/operations.js";
import { createdId, type JsonObject, normalizeRecord, uploadedImageIds } from "../contract/records.js";
import type { WireRecord } from "../contract/validate.js";
import type { Deps } from "../deps.js";
import { requireUser } from "../deps.js";
import { RentctlError } from "../errors.js";
import type { RowProblem } from "./fields.js";
import type { CatalogPort } from "./resolver.js";

/**
 * THE ONE PLACE where fleet/ reaches today's command-level functions
 * (prepareVehicle, fetchCatalog/matchByName, inputOf, the image upload
 * encoding). These imports point up a layer until the catalog / resource /
 * write code is restructured; re-point them here and nothing else changes.
 * Everything is loaded lazily (dynamic import), as commands do.
 */

/** Check a vehicle's input as `vehicle create` does (owner and locale filled); every problem listed. */
export async function checkVehicle(
  deps: Deps,
  values: Record<string, unknown>,
): Promise<{ record?: EncodableRecord; problems: RowProblem[] }> {
  const { prepareVehicle } = await import("../resources/create.js");
  try {
    return { record: await prepareVehicle(deps, values), problems: [] };
  } catch (e) {
    if (e instanceof RentctlError && e.details.length) return { problems: e.details };
    throw e;
  }
}

/** The input fields of a vehicle as the server returns it: the same mapping safe edit uses. */
export async function vehicleInputMapper(): Promise<(record: JsonObject) => WireRecord> {
  const { inputOf, VEHICLE } = await import("../resources/safe-edit.js");
  return (record) => inputOf(VEHICLE, normalizeRecord(record, "vehicle"));
}

/** The catalog service (cached, memoised, locale-aware) as the fleet resolver's port. */
export async function catalogPort(deps: Deps): Promise<CatalogPort> {
  const catalogs = deps.catalogs();
  return {
    items: (opId, params) => catalogs.items(opId, params),
    match: (items, value, field) => matchByName(items, value, field.replace(/_id$/, "").replace(/_/g, " "), field),
    itemId,
    itemNames,
  };
}

export { listVehicles } from "../resources/list.js";

/** One create; never retried once it may have reached the server (the client's policy). */
export async function sendCreate(deps: Deps, record: EncodableRecord, signal?: CancelSignal): Promise<number> {
  const client = await deps.client();
  const res = await client.call("vehicles.create", record, { signal });
  const id = createdId(res.decoded.body, "vehicle");
  if (id === undefined) throw new RentctlError("the server created the vehicle but sent no id");
  return id;
}

/** Upload image files in batches of at most 10 (as `image upload`); returns the ids in file order. */
export async function uploadFiles(deps: Deps, files: string[], signal?: CancelSignal): Promise<number[]> {
  const { contentTypeFor } = await import("../api/encode.js");
  const client = await deps.client();
  const userId = await requireUser(deps);
  const ids: number[] = [];
  for (let i = 0; i < files.length; i += UPLOAD_MAX_FILES) {
    const parts: FilePart[] = [];
    for (const f of files.slice(i, i + UPLOAD_MAX_FILES))
      parts.push({
        field: UPLOAD_PART_NAME,
        filename: basename(f),
        contentType: contentTypeFor(f),
        data: await readFile(f),
      });
    const res = await client.call("vehicles.upload", { user_id: userId }, { files: parts, signal });
    const got = uploadedImageIds(res.decoded.body);
    if (got.length !== parts.length)
      throw new RentctlError(`the server reported ${got.length} image ids for ${parts.length} files`);
    ids.push(...got);
  }
  return ids;
}

/** One vehicle as the server returns it now (safe edit's read: `fetchRecord` of resource.ts). */
export async function fetchVehicle(deps: Deps, id: number): Promise<JsonObject> {
  const { fetchRecord, VEHICLE } = await import("../resources/safe-edit.js");
  return fetchRecord(deps, VEHICLE, id);
}

/** The full record of a vehicle sent as an edit (the contract's edit clears what is omitted). */
export async function sendEdit(deps: Deps, id: number, record: EncodableRecord, signal?: CancelSignal): Promise<void> {
  const client = await deps.client();
  await client.call("vehicles.edit", { ...record, vehicle_id: id }, { signal });
}

/** Remove one vehicle. */
export async function sendRemove(deps: Deps, id: number, signal?: CancelSignal): Promise<void> {
  const client = await deps.client();
  await client.call("vehicles.remove", { user_id: await requireUser(deps), vehicle_id: id }, { signal });
}
