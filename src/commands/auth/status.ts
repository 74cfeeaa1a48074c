import { AuthError } from "../../api/errors.js";
import { EXIT, RentctlError } from "../../base/errors.js";
import { maskKey } from "../../config/settings.js";
import type { JsonObject } from "../../contract/records.js";
import type { Deps } from "../../deps.js";
import { flag } from "../flags.js";
import { defineVerb } from "../verb.js";
import { verifyKey } from "./verify.js";

export const verb = defineVerb({
  name: "status",
  description:
    "Show the profile, environment, owner and masked key in force, and check the key (exit 4 when there is no key)",
  flags: { verify: flag.bool("--no-verify", "do not call the API") },
  run: (deps, _args, opts) => run(deps, opts),
});

/** Which profile, environment and owner are in force, where each came from, and whether the key works. */
export async function run(deps: Deps, opts: { verify?: boolean }): Promise<void> {
  const s = deps.settings();
  const target = await deps.target();
  const status: JsonObject = {
    profile: s.profileName ?? null,
    env: target.env,
    base_url: target.embeddedSandbox ? `${target.baseUrl} (embedded sandbox)` : target.baseUrl,
    user_id: target.userId ?? null,
    api_key: target.apiKey ? maskKey(target.apiKey) : null,
    // where the key lives: env (RENTCTL_API_KEY), keychain, file (insecure), sandbox-demo, none
    api_key_source: target.keySource === "file" ? "file (insecure)" : (target.keySource ?? "none"),
    locale: s.locale,
    output: s.output,
    sources: Object.fromEntries(Object.entries(s.sources).map(([k, v]) => [snake(k), v ?? null])),
  };
  // A failed check is reported with what was found (stdout), then ends the command with its own
  // exit code: 4 the key was refused, 6 the server could not be reached (key_valid null: not known).
  let failed: RentctlError | undefined;
  if (opts.verify !== false && target.apiKey && target.userId !== undefined) {
    try {
      await verifyKey(deps, target.baseUrl, target.apiKey, target.userId, s.timeoutMs);
      status.key_valid = true;
    } catch (e) {
      if (!(e instanceof RentctlError)) throw e;
      failed = e;
      status.key_valid = e.exitCode === EXIT.auth ? false : null;
      status.key_error = e.message;
    }
  } else if (opts.verify !== false && !target.apiKey) status.key_valid = false;
  await deps.out.record(status);
  if (failed) {
    // the usual 401 hint points at this very command: here, what to do about the key shown
    if (failed.exitCode === EXIT.auth)
      failed.hint =
        "the key shown was refused: `rentctl auth login` again or set RENTCTL_API_KEY, and check that user_id is the key's owner";
    throw failed;
  }
  // like `gh auth status`: CI can gate on it; what was found is printed first
  if (!target.apiKey) {
    throw new AuthError(
      `no API key for ${s.profileName ? `profile ${s.profileName}` : `the ${target.env} environment`}`,
      {
        hint: "rentctl auth login, or set RENTCTL_API_KEY",
      },
    );
  }
}

/** `baseUrl` → `base_url`: json keys are snake_case throughout, as the API's. */
function snake(k: string): string {
  return k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
