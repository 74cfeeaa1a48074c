import type { Deps } from "../../deps.js";
import { accountFileSchema } from "../../plans/account-schema.js";
import { defineVerb } from "../verb.js";

export const verb = defineVerb({
  name: "schema",
  description: "Print the JSON Schema (2020-12) of account files, for editors and CI (generated from the contract)",
  examples: [
    "rentctl account schema > rentctl-account.schema.json",
    "# then, first line of account.yaml: # yaml-language-server: $schema=rentctl-account.schema.json",
  ],
  run: (deps) => run(deps),
});

/** `account schema`: the schema on stdout (exports point to rentctl-account.schema.json beside them). */
export async function run(deps: Deps): Promise<void> {
  deps.io.stdout.write(`${JSON.stringify(accountFileSchema(), null, 2)}\n`);
}
