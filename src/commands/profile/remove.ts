import type { Deps } from "../../deps.js";
import { confirmDestructive } from "../confirm.js";
import { arg } from "../flags.js";
import { defineVerb } from "../verb.js";
import { need } from "./profile.js";

export const verb = defineVerb({
  name: "remove",
  description: "Remove a profile and its key (asks first; --yes in scripts)",
  args: { name: arg.required() },
  run: (deps, args) => remove(deps, args.name),
});

export async function remove(deps: Deps, name: string): Promise<void> {
  need(deps, name);
  await confirmDestructive(deps, `Remove profile ${name} and its key?`, `remove profile ${name}`);
  await deps.store().write((d) => {
    delete d.profiles[name];
    if (d.current === name) d.current = undefined;
  });
  deps.msg.success(`profile ${name} removed`);
}
