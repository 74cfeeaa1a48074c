import { UsageError } from "../../base/errors.js";
import type { Deps } from "../../deps.js";
import { arg } from "../flags.js";
import { defineVerb } from "../verb.js";
import { need, view } from "./profile.js";

export const verb = defineVerb({
  name: "show",
  description: "Show one profile (key masked)",
  args: { name: arg.optional("profile (default: the current one)") },
  run: (deps, args) => show(deps, args.name),
});

export async function show(deps: Deps, name?: string): Promise<void> {
  const store = deps.store();
  const n = name ?? deps.flags.profile ?? store.current;
  if (!n) throw new UsageError("no profile is current", { hint: "rentctl profile list" });
  await deps.out.record(view(n, need(deps, n), n === store.current));
}
