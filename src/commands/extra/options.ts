import type { Deps } from "../../deps.js";
import { run } from "../catalog/show.js";
import { defineVerb } from "../verb.js";

export const verb = defineVerb({
  name: "options",
  description: "List the extra option types (public catalog)",
  run: (deps) => options(deps),
});

export async function options(deps: Deps): Promise<void> {
  await run(deps, { op: "catalog.extra_options" });
}
