import type { Deps } from "../../deps.js";
import { UsageError } from "../../errors.js";
import { defineVerb } from "../verb.js";

export const verb = defineVerb({
  name: "logout",
  description: "Remove the key of the current (or --profile) profile",
  run: (deps) => run(deps),
});

/** Forget the key of a profile (the profile's other settings stay). */
export async function run(deps: Deps): Promise<void> {
  const store = deps.store();
  const name = deps.flags.profile ?? deps.env.RENTCTL_PROFILE ?? store.current;
  if (!name || !store.get(name))
    throw new UsageError(name ? `no profile named ${JSON.stringify(name)}` : "not logged in: no profile is current");
  if (!store.get(name)?.apiKey) {
    deps.msg.info(`profile ${name} holds no key`);
    return;
  }
  await store.write((data) => {
    const p = data.profiles[name];
    if (p) delete p.apiKey;
  });
  deps.msg.success(`logged out: the key of profile ${name} is removed`);
  if (deps.env.RENTCTL_API_KEY) deps.msg.warn("RENTCTL_API_KEY is still set in this environment and will be used");
}
