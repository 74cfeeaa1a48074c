import type { Deps } from "../../deps.js";
import { fleetFileSchema } from "../../plans/account-schema.js";
import { defineVerb } from "../verb.js";

export const verb = defineVerb({
  name: "schema",
  description: "Print the JSON Schema (2020-12) of fleet files, for editors and CI (generated from the contract)",
  examples: ["rentctl vehicle schema > rentctl-fleet.schema.json"],
  run: (deps) => run(deps),
});

/** `vehicle schema`: the fleet file schema on stdout. */
export async function run(deps: Deps): Promise<void> {
  deps.io.stdout.write(`${JSON.stringify(fleetFileSchema(), null, 2)}\n`);
}
