import type { Deps } from "../../deps.js";
import { arg } from "../flags.js";
import { defineVerb } from "../verb.js";
import { applyView, cardFlags } from "../view-flags.js";

export const verb = defineVerb({
  name: "get",
  aliases: ["show"],
  description: "Show one extra",
  args: { id: arg.required("extra id") },
  flags: cardFlags(),
  run: (deps, args, opts) => {
    applyView(deps, opts);
    return get(deps, args.id);
  },
});

export async function get(deps: Deps, rawId: string): Promise<void> {
  const [{ EXTRA }, { showRecord }] = await Promise.all([
    import("../../resources/safe-edit.js"),
    import("../resource.js"),
  ]);
  return showRecord(deps, EXTRA, rawId);
}
