import { UsageError } from "../../base/errors.js";
import { accountOf, openKeychain } from "../../config/secrets.js";
import type { Deps } from "../../deps.js";
import { defineVerb } from "../verb.js";

export const verb = defineVerb({
  name: "migrate",
  description: "Move the key of the current (or --profile) profile from config.json into the system keychain",
  examples: ["rentctl auth migrate", "rentctl auth migrate --profile staging"],
  run: (deps) => run(deps),
});

/** A key kept in the file (insecure storage) moves to the keychain; the file keeps only the reference. */
export async function run(deps: Deps): Promise<void> {
  const store = deps.store();
  const name = deps.flags.profile ?? deps.env.RENTCTL_PROFILE ?? store.current;
  const profile = name ? store.get(name) : undefined;
  if (!name || !profile)
    throw new UsageError(name ? `no profile named ${JSON.stringify(name)}` : "not logged in: no profile is current");
  if (profile.keyStore === "keychain") {
    deps.msg.info(`the key of profile ${name} is in the keychain already`);
    return;
  }
  const key = profile.apiKey;
  if (!key) throw new UsageError(`profile ${name} holds no key to move`, { hint: "rentctl auth login" });
  const access = await openKeychain(deps.env);
  if (!access.ok)
    throw new UsageError(`no system keychain is usable here: ${access.reason}`, {
      hint: "the key stays in config.json (mode 0600)",
    });
  access.keychain.set(accountOf(name), key);
  // read back before the file forgets it: a keychain that did not keep it must not lose the key
  if (access.keychain.get(accountOf(name)) !== key)
    throw new UsageError(`the ${access.keychain.backend} did not keep the key; it stays in config.json`);
  await store.write((data) => {
    const p = data.profiles[name];
    if (p) {
      delete p.apiKey;
      p.keyStore = "keychain";
    }
  });
  deps.msg.success(`the key of profile ${name} moved to the ${access.keychain.backend}; config.json keeps no copy`);
}
