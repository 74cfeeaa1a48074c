import { NotConfiguredError } from "../api/errors.js";
import { RentctlError, UsageError } from "../base/errors.js";
import { lockTimeoutMs } from "../base/lock.js";
import { DEMO_OWNERS } from "../sandbox/owners.js";
import { type Paths, sandboxDataFile } from "./paths.js";
import { accountOf, openKeychain } from "./secrets.js";
import type { Environment, Settings } from "./settings.js";

/**
 * Where API commands go, decided in one place from the resolved settings:
 * a configured base address, or the embedded sandbox (started on first use),
 * or a clear error naming `auth login` and `--env sandbox`. The tool never
 * talks to an environment the user did not choose.
 */

export interface Target {
  env: Environment | "custom";
  baseUrl: string;
  apiKey?: string;
  userId?: number;
  profileName?: string;
  /**
   * Where the key came from: `env` (RENTCTL_API_KEY), `keychain` (the system keychain), `file` (the
   * profile in config.json: insecure storage), `sandbox-demo`, or none.
   */
  keySource?: "env" | "keychain" | "file" | "sandbox-demo";
  /** True when the sandbox runs inside this process. */
  embeddedSandbox: boolean;
  /** The embedded sandbox's data file (null: in memory); undefined when not embedded. */
  sandboxDataFile?: string | null;
  /** Why the embedded sandbox can answer no more (it lost its data file): the command stops with it. */
  sandboxFailure?: () => Error | undefined;
}

export interface TargetInputs {
  settings: Settings;
  env: NodeJS.ProcessEnv;
  paths: Paths;
  /** Register a clean-up to run at exit (stopping an embedded sandbox). */
  onExit(fn: () => Promise<void> | void): void;
  /** Tell the user something the embedded sandbox noticed (e.g. a torn last journal line it dropped). */
  warn(text: string): void;
}

export async function resolveTarget({ settings, env, paths, onExit, warn }: TargetInputs): Promise<Target> {
  // Name the profile only when it supplies a setting in force (not when --env and friends override it all).
  const fromProfile = (["env", "baseUrl", "apiKey", "userId"] as const).some((k) => settings.sources[k] === "profile");
  const profileName = fromProfile ? settings.profileName : undefined;
  const fromKeychain = settings.keychainProfile !== undefined;
  const s = fromKeychain ? { ...settings, apiKey: await keychainKey(env, settings.keychainProfile!) } : settings;
  const profileKeySource: Target["keySource"] =
    s.apiKey === undefined ? undefined : s.sources.apiKey === "env" ? "env" : fromKeychain ? "keychain" : "file";
  if (s.env === "sandbox") {
    // The demo owner: the one --user names, else the one whose demo key is given, else the first.
    const owner =
      DEMO_OWNERS.find((o) => o.userId === s.userId) ??
      DEMO_OWNERS.find((o) => o.apiKey === s.apiKey) ??
      DEMO_OWNERS[0]!;
    // The demo key only when the user asks for the sandbox now (--env sandbox or RENTCTL_ENV), never
    // behind a sandbox profile whose key was removed: `auth logout` must visibly log out.
    const asked = s.sources.env === "flag" || s.sources.env === "env";
    const apiKey = s.apiKey ?? (asked ? owner.apiKey : undefined);
    const keySource: Target["keySource"] = profileKeySource ?? (asked ? "sandbox-demo" : undefined);
    const userId = s.userId ?? owner.userId;
    const common = { env: "sandbox" as const, apiKey, keySource, userId, profileName };
    if (s.baseUrl) return { ...common, baseUrl: s.baseUrl, embeddedSandbox: false };
    const dataFile = env.RENTCTL_SANDBOX_MEMORY ? null : sandboxDataFile(paths);
    const sb = await startEmbedded(dataFile, env, warn);
    onExit(() => sb.close());
    let failure: Error | undefined;
    const sandboxFailure = () => {
      const lost = sb.unavailable();
      if (lost && !failure) {
        failure = asEmbeddedError(dataFile, lost);
        if (failure instanceof RentctlError) failure.stopsRun = true; // a bulk job stops here, with this exit code
      }
      return failure;
    };
    return { ...common, baseUrl: sb.url, embeddedSandbox: true, sandboxDataFile: dataFile, sandboxFailure };
  }
  if (!s.baseUrl) {
    if (s.env === undefined) {
      throw new NotConfiguredError("no environment selected", {
        hint: "run `rentctl auth login` to set up a profile, or add `--env sandbox` to try the built-in sandbox",
      });
    }
    throw new NotConfiguredError(`no base address for the ${s.env} environment`, {
      hint: "the marketplace issues it: pass --base-url URL, set RENTCTL_BASE_URL, or save it with `rentctl auth login --base-url URL`; or use --env sandbox",
    });
  }
  return {
    env: s.env ?? "custom",
    baseUrl: s.baseUrl,
    apiKey: s.apiKey,
    keySource: profileKeySource,
    userId: s.userId,
    profileName,
    embeddedSandbox: false,
  };
}

/** A profile's key from the system keychain, or a clear error (exit 4) saying why it cannot be read. */
async function keychainKey(env: NodeJS.ProcessEnv, profile: string): Promise<string> {
  const access = await openKeychain(env);
  if (!access.ok)
    throw new NotConfiguredError(`the key of profile ${profile} is in the system keychain, which cannot be read here`, {
      hint: `${access.reason}; set RENTCTL_API_KEY for this run`,
    });
  let key: string | undefined;
  try {
    key = access.keychain.get(accountOf(profile));
  } catch (e) {
    throw new NotConfiguredError(`the keychain did not give the key of profile ${profile}: ${(e as Error).message}`);
  }
  if (!key)
    throw new NotConfiguredError(`the keychain holds no key for profile ${profile}`, {
      hint: `log in again: rentctl auth login --profile ${profile}`,
    });
  return key;
}

/** The owner id of the target of deps (a Deps, CoreDeps), or a clear error. */
export async function requireUser(deps: { target(): Promise<Target> }): Promise<number> {
  return requireUserOf(await deps.target());
}

/** The owner id for account operations, or a clear error. */
export function requireUserOf(t: Target): number {
  if (t.userId === undefined) {
    throw new UsageError("no owner id configured", {
      hint: "pass --user ID, set RENTCTL_USER_ID, or save it in the profile (`rentctl profile set user ID`)",
    });
  }
  return t.userId;
}

/**
 * The embedded sandbox on the data file. It holds the file only while it
 * answers a request, so commands share it: a request waits for another
 * command's turn (bounded by RENTCTL_LOCK_TIMEOUT, then exit 9 naming the
 * holder). A running `rentctl sandbox serve` holds it for good: exit 2 naming
 * its pid and address, talk to it instead (at start, or at the next request
 * when it started meanwhile).
 */
/**
 * The embedded sandbox's address for this data dir, started for this process (stopped at exit):
 * for `auth login --env sandbox`, whose profile does not exist yet (so no target can be resolved).
 */
export async function embeddedSandboxUrl(
  paths: Paths,
  env: NodeJS.ProcessEnv,
  onExit: (fn: () => Promise<void> | void) => void,
  warn: (text: string) => void,
): Promise<string> {
  const sb = await startEmbedded(env.RENTCTL_SANDBOX_MEMORY ? null : sandboxDataFile(paths), env, warn);
  onExit(() => sb.close());
  return sb.url;
}

// A seam: the embedded sandbox's server loads when it starts, never on a call to an API.
async function startEmbedded(dataFile: string | null, env: NodeJS.ProcessEnv, warn: (text: string) => void) {
  const { startSandbox } = await import("../sandbox/server.js");
  try {
    return await startSandbox({
      host: "127.0.0.1",
      port: 0,
      dataFile,
      onWarning: warn,
      embedded: true,
      lockTimeoutMs: lockTimeoutMs(env),
      onLockWait: (h) =>
        warn(
          `waiting for the sandbox data file: ${h.role === "embedded" ? "another rentctl command" : "another rentctl process"}${h.pid ? ` (pid ${h.pid})` : ""} uses it`,
        ),
    });
  } catch (err) {
    throw asEmbeddedError(dataFile, err);
  }
}

/** A server holding the data file, said to a command that wanted the embedded sandbox; other errors as they are. */
function asEmbeddedError<E>(dataFile: string | null, err: E): E | UsageError {
  const busy = err as { code?: string; pid?: number; role?: string; address?: string };
  if (busy?.code !== "ESANDBOXBUSY" || busy.role !== "serve") return err;
  const at = busy.address;
  return new UsageError(
    `the sandbox data file ${dataFile} is in use by a running \`rentctl sandbox serve\` (pid ${busy.pid}, ${at ? `address ${at}` : "address unknown"})`,
    {
      hint: `talk to that server instead: add --base-url ${at ?? "with its address (it printed it when it started)"}, or set RENTCTL_SANDBOX_MEMORY=1 for a throw-away in-memory sandbox`,
    },
  );
}
