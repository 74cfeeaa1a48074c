import type { JsonObject } from "../../contract/records.js";
import { fetchRecord, VEHICLE } from "../../resources/safe-edit.js";
import type { OpContext } from "../context.js";

/** One vehicle's whole record, as the server keeps it (normalized: `id` first). Not found: NotFoundError (exit 5). */
export async function getVehicle(ctx: OpContext, input: { id: number }): Promise<JsonObject> {
  return fetchRecord(ctx, VEHICLE, input.id);
}
