import { VEHICLE_FIELDS } from "../../contract/vehicle-fields.js";
import type { Deps } from "../../deps.js";
import { UsageError } from "../../errors.js";
import { prepareVehicle, printCreated } from "../../resources/create.js";
import { VEHICLE } from "../../resources/resource.js";
import { gatherInput, type InputSources, resolveNamedRefs } from "../input.js";

export async function create(deps: Deps, opts: InputSources): Promise<void> {
  const values = await gatherInput(deps, VEHICLE_FIELDS, opts);
  if (Object.keys(values).every((k) => k === "user_id" || k === "locale_id")) throw nothingToCreate();
  await resolveNamedRefs(deps, VEHICLE_FIELDS, values);
  const record = await prepareVehicle(deps, values);
  const { createRecord } = await import("../../gateway/records.js");
  const result = await createRecord(deps, VEHICLE, record);
  if (result) await printCreated(deps, "vehicle", result);
}

/** `vehicle create` with nothing given: the fields a vehicle needs, and three ways to give them at once. */
function nothingToCreate(): UsageError {
  const missing = VEHICLE_FIELDS.filter((f) => f.required === true && f.name !== "user_id");
  return new UsageError(`nothing to create: a vehicle needs ${missing.length} fields, none was given`, {
    details: missing.map((f) => ({ field: f.name, message: `is required (${f.description})` })),
    hint: [
      "answer the questions one by one:   rentctl vehicle wizard",
      "start from the shipped example:    rentctl vehicle create --from-file examples/vehicle.yaml",
      "copy a vehicle you have:           rentctl vehicle get ID -o json > car.json  (edit it, then --from-file car.json)",
    ].join("\n      "),
  });
}
