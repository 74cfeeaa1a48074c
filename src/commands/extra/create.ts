import { EXTRA_FIELDS } from "../../contract/extra-fields.js";
import type { Deps } from "../../deps.js";
import type { InputSources } from "../input.js";
import { defineVerb } from "../verb.js";
import { extraInput, extraInputFlags } from "./input-flags.js";

export const verb = defineVerb({
  name: "create",
  description: "Create an extra",
  flags: extraInputFlags,
  examples: ["rentctl extra create --option 'child seat' --price 8 --currency EUR --period 1 --quantity 2"],
  run: (deps, _args, opts) => create(deps, extraInput(opts)),
});

export async function create(deps: Deps, src: InputSources): Promise<void> {
  const [{ printCreated, prepareExtra }, { EXTRA }, { gatherInput, resolveNamedRefs }] = await Promise.all([
    import("../../resources/create.js"),
    import("../../resources/safe-edit.js"),
    import("../input.js"),
  ]);
  const values = await gatherInput(deps, EXTRA_FIELDS, src);
  await resolveNamedRefs(deps, EXTRA_FIELDS, values);
  const record = await prepareExtra(deps, values);
  const { createRecord } = await import("../../gateway/records.js");
  const result = await createRecord(deps, EXTRA, record);
  if (result) await printCreated(deps, "extra", result);
}
