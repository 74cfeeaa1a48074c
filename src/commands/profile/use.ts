import type { Deps } from "../../deps.js";
import { arg } from "../flags.js";
import { defineVerb } from "../verb.js";
import { need } from "./profile.js";

export const verb = defineVerb({
  name: "use",
  description: "Make a profile current",
  args: { name: arg.required() },
  run: (deps, args) => use(deps, args.name),
});

export async function use(deps: Deps, name: string): Promise<void> {
  need(deps, name);
  await deps.store().write((d) => {
    d.current = name;
  });
  deps.msg.success(`profile ${name} is now current`);
}
