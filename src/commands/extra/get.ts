import type { Deps } from "../../deps.js";
import { arg } from "../flags.js";
import { defineVerb } from "../verb.js";

export const verb = defineVerb({
  name: "get",
  aliases: ["show"],
  description: "Show one extra",
  args: { id: arg.required("extra id") },
  run: (deps, args) => get(deps, args.id),
});

export async function get(deps: Deps, rawId: string): Promise<void> {
  const [{ EXTRA }, { showRecord }] = await Promise.all([
    import("../../resources/safe-edit.js"),
    import("../resource.js"),
  ]);
  return showRecord(deps, EXTRA, rawId);
}
