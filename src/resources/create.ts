import type { EncodableRecord } from "../api/encode.js";
import { InputError } from "../base/errors.js";
import { requireUser } from "../config/target.js";
import { EXTRA_FIELDS } from "../contract/extra-fields.js";
import type { JsonObject } from "../contract/records.js";
import { crossFieldProblems, validateRecord } from "../contract/validate.js";
import { VEHICLE_FIELDS } from "../contract/vehicle-fields.js";
import type { CoreDeps } from "../deps.js";
import { problemsError } from "./safe-edit.js";

/** Fill the owner and locale, check every contract rule; throws with every problem listed by field. */
export async function prepareVehicle(deps: CoreDeps, values: Record<string, unknown>): Promise<EncodableRecord> {
  const userId = await requireUser(deps);
  if (values.user_id !== undefined && String(values.user_id) !== String(userId)) {
    throw new InputError(`user_id ${values.user_id} is not the configured owner ${userId}`, {
      hint: "leave user_id out: rentctl fills it from the profile (or pass --user)",
    });
  }
  const input = { ...values, user_id: userId, locale_id: values.locale_id ?? (await deps.locale()) };
  const { record, problems } = validateRecord(input, VEHICLE_FIELDS, { requireRequired: true, allowUnknown: true });
  problems.push(...crossFieldProblems(record));
  if (problems.length) throw problemsError(problems, "vehicle");
  return record;
}

/** Fill the locale and check every contract rule of an extra; throws with every problem listed by member. */
export async function prepareExtra(deps: CoreDeps, values: Record<string, unknown>): Promise<EncodableRecord> {
  const { record, problems } = validateRecord(
    { ...values, locale_id: values.locale_id ?? (await deps.locale()) },
    EXTRA_FIELDS,
    { requireRequired: true, allowUnknown: true },
  );
  if (problems.length) throw problemsError(problems, "extra");
  return record;
}

export interface CreateResult {
  id?: number;
  record: JsonObject;
  /** The undo entry that removes it again. */
  undoOp?: string;
}
