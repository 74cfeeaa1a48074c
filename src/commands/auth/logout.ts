import { UsageError } from "../../base/errors.js";
import { accountOf, openKeychain } from "../../config/secrets.js";
import type { Deps } from "../../deps.js";
import { defineVerb } from "../verb.js";

export const verb = defineVerb({
  name: "logout",
  description: "Remove the key of the current (or --profile) profile",
  run: (deps) => run(deps),
});

/** Forget the key of a profile, wherever it lives (the keychain or the file); the profile's other settings stay. */
export async function run(deps: Deps): Promise<void> {
  const store = deps.store();
  const name = deps.flags.profile ?? deps.env.RENTCTL_PROFILE ?? store.current;
  if (!name || !store.get(name))
    throw new UsageError(name ? `no profile named ${JSON.stringify(name)}` : "not logged in: no profile is current");
  const profile = store.get(name)!;
  if (!profile.apiKey && profile.keyStore !== "keychain") {
    deps.msg.info(`profile ${name} holds no key`);
    return;
  }
  let where = "config file";
  if (profile.keyStore === "keychain") {
    const access = await openKeychain(deps.env);
    if (!access.ok)
      throw new UsageError(`the key of profile ${name} is in the system keychain, which cannot be reached here`, {
        hint: `${access.reason}; log out where the keychain is available`,
      });
    access.keychain.delete(accountOf(name));
    where = access.keychain.backend;
  }
  await store.write((data) => {
    const p = data.profiles[name];
    if (p) {
      delete p.apiKey;
      delete p.keyStore;
    }
  });
  deps.msg.success(`logged out: the key of profile ${name} is removed (from the ${where})`);
  if (deps.env.RENTCTL_API_KEY) deps.msg.warn("RENTCTL_API_KEY is still set in this environment and will be used");
}
