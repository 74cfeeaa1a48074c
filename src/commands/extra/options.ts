import type { Deps } from "../../deps.js";

export async function options(deps: Deps): Promise<void> {
  const { run } = await import("../catalog/show.js");
  await run(deps, { op: "catalog.extra_options" });
}
