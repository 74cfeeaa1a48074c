import { EXTRA_FIELDS } from "../../contract/extra-fields.js";
import { validateRecord } from "../../contract/validate.js";
import type { Deps } from "../../deps.js";
import { printCreated } from "../../resources/create.js";
import { EXTRA, problemsError } from "../../resources/safe-edit.js";
import { gatherInput, type InputSources, resolveNamedRefs } from "../input.js";

export async function create(deps: Deps, src: InputSources): Promise<void> {
  const values = await gatherInput(deps, EXTRA_FIELDS, src);
  await resolveNamedRefs(deps, EXTRA_FIELDS, values);
  const { record, problems } = validateRecord(
    { ...values, locale_id: values.locale_id ?? (await deps.locale()) },
    EXTRA_FIELDS,
    {
      requireRequired: true,
      allowUnknown: true,
    },
  );
  if (problems.length) throw problemsError(problems, "extra");
  const { createRecord } = await import("../../gateway/records.js");
  const result = await createRecord(deps, EXTRA, record);
  if (result) await printCreated(deps, "extra", result);
}
