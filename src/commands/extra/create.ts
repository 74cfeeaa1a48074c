import { EXTRA_FIELDS } from "../../contract/extra-fields.js";
import type { Deps } from "../../deps.js";
import { createExtra } from "../../ops/extra/create.js";
import { EXTRA } from "../../resources/resource.js";
import type { InputSources } from "../input.js";
import { gatherInput, resolveNamedRefs } from "../input.js";
import { printCreateDryRun, printCreated } from "../record-output.js";
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
  const values = await gatherInput(deps, EXTRA_FIELDS, src, { noun: "extra", create: true });
  await resolveNamedRefs(deps, EXTRA_FIELDS, values);
  const r = await createExtra(
    deps,
    { values, dryRun: deps.flags.dryRun },
    { onProgress: (p) => deps.msg.acting(p.target, p.what) },
  );
  if (r.dryRun) return printCreateDryRun(deps, EXTRA, r.dryRun.request);
  await printCreated(deps, "extra", r);
}
