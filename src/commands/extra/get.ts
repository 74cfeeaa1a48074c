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
  await showRecord(deps, EXTRA, rawId);
  if (deps.flags.quiet) return;
  // Which vehicles use it (one walk of the account): said on stderr, the record stays the server's.
  const [{ vehiclesUsingExtra }, { parseId }] = await Promise.all([
    import("../../resources/list.js"),
    import("../ids.js"),
  ]);
  deps.msg.info(usedByText(await vehiclesUsingExtra(deps, parseId(rawId, "extra"))));
}

/** `used by 2 vehicles: 1 (B-SC 1001), 4 (M-SC 2002)`, at most 10 named. */
export function usedByText(users: ReadonlyArray<{ id: number; reg: string }>): string {
  if (!users.length) return "used by no vehicle";
  const named = users.slice(0, 10).map((u) => `${u.id}${u.reg ? ` (${u.reg})` : ""}`);
  if (users.length > 10) named.push(`and ${users.length - 10} more`);
  return `used by ${users.length} vehicle${users.length === 1 ? "" : "s"}: ${named.join(", ")}`;
}
