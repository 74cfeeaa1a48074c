import { UsageError } from "../../base/errors.js";
import { readAll } from "../../base/io.js";
import { accountOf, openKeychain } from "../../config/secrets.js";
import {
  DEFAULT_TIMEOUT_S,
  type Environment,
  maskKey,
  type Profile,
  parseEnvironment,
  parsePositiveInt,
  parseTimeout,
  validateUrl,
} from "../../config/settings.js";
import { embeddedSandboxUrl } from "../../config/target.js";
import type { Deps } from "../../deps.js";
import { flag } from "../flags.js";
import { defineVerb } from "../verb.js";
import { verifyKey } from "./verify.js";

export const verb = defineVerb({
  name: "login",
  description: "Save a profile with its environment, base address, owner id and API key (the key is checked first)",
  flags: {
    withToken: flag.bool("--with-token", "read the API key from stdin instead of a hidden prompt"),
    verify: flag.bool("--no-verify", "save without checking the key against the API"),
    use: flag.bool("--use", "make the profile the current one (production profiles are not made current otherwise)"),
    insecureStorage: flag.bool(
      "--insecure-storage",
      "keep the key in config.json (mode 0600) instead of the system keychain (needed where no keychain is usable)",
    ),
  },
  examples: [
    "rentctl auth login --env production --base-url https://partner.example --user 1001",
    'printf %s "$RENTAL_KEY" | rentctl auth login --with-token --env test --base-url https://test.example --user 1001',
    "rentctl auth login --profile staging --env test --base-url https://test.example --user 1001",
    'printf %s "$KEY" | rentctl auth login --with-token --insecure-storage --env test --base-url https://test.example --user 1001   # no keychain here',
  ],
  run: (deps, _args, opts) => run(deps, opts),
});

export interface LoginOptions {
  withToken?: boolean;
  verify?: boolean;
  use?: boolean;
  insecureStorage?: boolean;
}

/**
 * Save a profile with a key. The key is read hidden on a TTY, or from stdin
 * with --with-token; never from argv. It is checked with a cheap
 * authenticated call before it is saved.
 */
export async function run(deps: Deps, opts: LoginOptions): Promise<void> {
  const store = deps.store();
  const name = deps.flags.profile ?? deps.env.RENTCTL_PROFILE ?? store.current ?? "default";
  const existing: Profile = store.get(name) ?? {};
  const env: Environment =
    parseEnvironment(deps.flags.env, "--env") ??
    parseEnvironment(deps.env.RENTCTL_ENV, "RENTCTL_ENV") ??
    existing.env ??
    "production";
  const baseUrl =
    deps.flags.baseUrl ?? deps.env.RENTCTL_BASE_URL ?? (existing.env === env ? existing.baseUrl : undefined);
  const userId =
    parsePositiveInt(deps.flags.user, "--user") ??
    parsePositiveInt(deps.env.RENTCTL_USER_ID, "RENTCTL_USER_ID") ??
    existing.userId;
  if (baseUrl) validateUrl(baseUrl);
  if (!baseUrl && env !== "sandbox") {
    throw new UsageError(`the ${env} environment needs its base address`, {
      hint: `the marketplace issues it: rentctl auth login --env ${env} --base-url https://… --user ID`,
    });
  }
  if (userId === undefined) {
    throw new UsageError("the owner id is needed", { hint: "pass --user ID (the owner the key belongs to)" });
  }
  // Never replace silently a profile that holds another owner's key or another environment's.
  const named = deps.flags.profile ?? deps.env.RENTCTL_PROFILE;
  if (
    !named &&
    (existing.apiKey || existing.keyStore === "keychain") &&
    (existing.userId !== userId || (existing.env ?? "production") !== env)
  ) {
    const what = `profile ${name} holds the key of owner ${existing.userId ?? "?"} (${existing.env ?? "production"})`;
    const ok =
      deps.io.stdinTTY && deps.io.stderrTTY && !opts.withToken
        ? await deps.prompt.confirm(`${what}: replace it with owner ${userId} (${env})?`, false)
        : false;
    if (!ok)
      throw new UsageError(`${what}; nothing was changed`, {
        hint: `log in to another profile with --profile NAME (e.g. --profile ${env}-${userId}), or name --profile ${name} to replace it`,
      });
  }
  const access = opts.insecureStorage ? undefined : await openKeychain(deps.env);
  if (access && !access.ok)
    throw new UsageError(`no system keychain is usable here, so no key was asked for: ${access.reason}`, {
      hint: "pass --insecure-storage to keep it in config.json (mode 0600), or give it to each run as RENTCTL_API_KEY (CI)",
    });
  let key: string;
  if (opts.withToken) key = (await readAll(deps.io.stdin)).trim();
  else if (deps.io.stdinTTY) key = (await deps.prompt.password(`API key for owner ${userId} (${env})`)).trim();
  else {
    throw new UsageError("no TTY to read the key from", {
      hint: 'pipe it in: printf %s "$KEY" | rentctl auth login --with-token …',
    });
  }
  if (!key) throw new UsageError("the API key is empty");
  if (/\s/.test(key)) throw new UsageError("the API key contains white space; check what was pasted");

  if (opts.verify !== false) {
    let verifyUrl = baseUrl;
    if (env === "sandbox" && !verifyUrl) {
      // Not deps.target(): it would look up the profile being created (`--profile NAME`) and fail.
      verifyUrl = await embeddedSandboxUrl(deps.paths, deps.env, deps.onExit, (m) => deps.msg.warn(m));
    }
    // The profile may not exist yet, so the timeout is read here rather than from deps.settings().
    const timeoutS =
      parseTimeout(deps.flags.timeout, "--timeout") ??
      parseTimeout(deps.env.RENTCTL_TIMEOUT, "RENTCTL_TIMEOUT") ??
      existing.timeout ??
      DEFAULT_TIMEOUT_S;
    const { total } = await verifyKey(deps, verifyUrl!, key, userId, timeoutS * 1000);
    deps.msg.info(`key accepted for owner ${userId}${total !== undefined ? ` (${total} vehicles)` : ""}`);
  }
  // Production is made current only when asked (or when there is no current profile): a login for
  // later never silently turns the next script's commands to production.
  let current = false;
  const keychain = access?.ok ? access.keychain : undefined;
  if (keychain) keychain.set(accountOf(name), key);
  await store.write((data) => {
    const { apiKey: _old, keyStore: _store, ...rest } = existing;
    data.profiles[name] = {
      ...rest,
      env,
      ...(baseUrl ? { baseUrl } : {}),
      userId,
      ...(keychain ? { keyStore: "keychain" as const } : { apiKey: key }),
    };
    current = opts.use || env !== "production" || !data.current || data.current === name;
    if (current) data.current = name;
  });
  // a key that moved to the file leaves no copy behind in the keychain
  if (!keychain && existing.keyStore === "keychain") {
    const was = await openKeychain(deps.env);
    if (was.ok) was.keychain.delete(accountOf(name));
  }
  deps.msg.success(
    `logged in: profile ${name} · ${env} · owner ${userId} · key ${maskKey(key)} (${keychain ? `in the ${keychain.backend}` : `in ${store.file}: insecure storage, file mode 0600`})`,
  );
  if (!current)
    deps.msg.info(
      `profile ${name} is not the current one: use it with --profile ${name}, or rentctl profile use ${name}`,
    );
}
