import { DEFAULT_LOCALE } from "../contract/operations.js";
import { FORMATS, type Format, REVIEW_FORMATS } from "../output/formats.js";

export { FORMATS, type Format, REVIEW_FORMATS };

import { UsageError } from "../base/errors.js";

/**
 * Global settings and their precedence, decided in one place:
 *   flag > environment variable > active profile > built-in default.
 */

export const ENVIRONMENTS = ["production", "test", "sandbox"] as const;
export type Environment = (typeof ENVIRONMENTS)[number];
export const DEFAULT_TIMEOUT_S = 30;

export interface Profile {
  env?: Environment;
  baseUrl?: string;
  apiKey?: string;
  /** `keychain`: the key is in the system keychain (src/config/secrets.ts), not in this file. */
  keyStore?: "keychain";
  userId?: number;
  locale?: number | string;
  output?: Format;
  timeout?: number;
}

/** Profile keys users may set with `profile set KEY VALUE`. */
export const PROFILE_KEYS = ["env", "base-url", "api-key", "user", "locale", "output", "timeout"] as const;

/** Global flags as parsed by the CLI (undefined when not given). */
export interface GlobalFlags {
  profile?: string;
  env?: string;
  baseUrl?: string;
  user?: string;
  locale?: string;
  output?: string;
  json?: boolean;
  timeout?: string;
  color?: boolean;
  quiet?: boolean;
  verbose?: boolean;
  yes?: boolean;
  dryRun?: boolean;
  fields?: string;
  raw?: boolean;
  /** --settle: seconds a rerun waits for the stopped run's requests in flight (at least the timeout). */
  settle?: number;
  /** false with --no-wait: a bulk job held by another process is exit 9 at once. */
  wait?: boolean;
}

export type Source = "flag" | "env" | "profile" | "default" | "sandbox";

export interface Settings {
  profileName?: string;
  profile?: Profile;
  env?: Environment;
  baseUrl?: string;
  apiKey?: string;
  /** The profile whose key is in the system keychain (read by resolveTarget, only when a key is needed). */
  keychainProfile?: string;
  userId?: number;
  /** An id, or a name/code to resolve through the locales catalog. */
  locale: number | string;
  output: Format;
  timeoutMs: number;
  fields?: string[];
  sources: Partial<
    Record<"env" | "baseUrl" | "apiKey" | "userId" | "locale" | "output" | "timeout" | "profile", Source>
  >;
}

function pick<T>(
  sources: Settings["sources"],
  key: keyof Settings["sources"],
  candidates: Array<[Source, T | undefined]>,
): T | undefined {
  for (const [source, value] of candidates) {
    if (value !== undefined && value !== "") {
      sources[key] = source;
      return value;
    }
  }
  return undefined;
}

function orDefault<T>(
  sources: Settings["sources"],
  key: keyof Settings["sources"],
  value: T | undefined,
  fallback: T,
): T {
  if (value !== undefined) return value;
  sources[key] = "default";
  return fallback;
}

export function parseEnvironment(v: string | undefined, where: string): Environment | undefined {
  if (v === undefined || v === "") return undefined;
  const e = v.toLowerCase();
  if ((ENVIRONMENTS as readonly string[]).includes(e)) return e as Environment;
  throw new UsageError(`${where}: unknown environment ${JSON.stringify(v)} (expected ${ENVIRONMENTS.join(", ")})`);
}

/** Which commands print each review format (their VerbSpec.outputs). */
const REVIEW_PRINTERS: Readonly<Record<string, string>> = {
  markdown: "`account diff` and `vehicle diff` only (and by `lint`)",
  sarif: "`lint` only",
};

export function parseFormat(v: string | undefined, where: string): Format | undefined {
  if (v === undefined || v === "") return undefined;
  const f = v.toLowerCase();
  if ((FORMATS as readonly string[]).includes(f)) return f as Format;
  if ((REVIEW_FORMATS as readonly string[]).includes(f))
    throw new UsageError(`${where}: ${f} is printed by ${REVIEW_PRINTERS[f] ?? "`lint` only"}`, {
      hint: `this command prints ${FORMATS.join(", ")}`,
    });
  throw new UsageError(`${where}: unknown output format ${JSON.stringify(v)} (expected ${FORMATS.join(", ")})`);
}

export function parsePositiveInt(v: string | number | undefined, where: string, min = 1): number | undefined {
  if (v === undefined || v === "") return undefined;
  const s = String(v).trim();
  if (!/^\d+$/.test(s) || Number(s) < min) {
    throw new UsageError(`${where}: expected a whole number of at least ${min}, got ${JSON.stringify(v)}`);
  }
  return Number(s);
}

export function parseTimeout(v: string | number | undefined, where: string): number | undefined {
  if (v === undefined || v === "") return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0)
    throw new UsageError(`${where}: expected a number of seconds above 0, got ${JSON.stringify(v)}`);
  return n;
}

function parseLocale(v: string | number | undefined): number | string | undefined {
  if (v === undefined || v === "") return undefined;
  const s = String(v).trim();
  return /^\d+$/.test(s) ? Number(s) : s;
}

export function resolveSettings(
  flags: GlobalFlags,
  env: NodeJS.ProcessEnv,
  profiles: { current?: string; get(name: string): Profile | undefined },
): Settings {
  const sources: Settings["sources"] = {};
  const profileName = pick(sources, "profile", [
    ["flag", flags.profile],
    ["env", env.RENTCTL_PROFILE],
    ["profile", profiles.current],
  ]);
  const profile = profileName ? profiles.get(profileName) : undefined;
  if (profileName && !profile && sources.profile !== "profile") {
    throw new UsageError(`no profile named ${JSON.stringify(profileName)}`, {
      hint: "list them with `rentctl profile list`, or create it with `rentctl auth login --profile NAME`",
    });
  }
  const envName = pick(sources, "env", [
    ["flag", parseEnvironment(flags.env, "--env")],
    ["env", parseEnvironment(env.RENTCTL_ENV, "RENTCTL_ENV")],
    ["profile", profile?.env],
  ]);
  const output = orDefault(
    sources,
    "output",
    pick(sources, "output", [
      ["flag", flags.json ? "json" : parseFormat(flags.output, "--output")],
      ["env", parseFormat(env.RENTCTL_OUTPUT, "RENTCTL_OUTPUT")],
      ["profile", profile?.output],
    ]),
    "table" as Format,
  );
  const timeout = orDefault(
    sources,
    "timeout",
    pick(sources, "timeout", [
      ["flag", parseTimeout(flags.timeout, "--timeout")],
      ["env", parseTimeout(env.RENTCTL_TIMEOUT, "RENTCTL_TIMEOUT")],
      ["profile", profile?.timeout],
    ]),
    DEFAULT_TIMEOUT_S,
  );
  const locale = orDefault(
    sources,
    "locale",
    pick(sources, "locale", [
      ["flag", parseLocale(flags.locale)],
      ["env", parseLocale(env.RENTCTL_LOCALE)],
      ["profile", parseLocale(profile?.locale)],
    ]),
    DEFAULT_LOCALE as number | string,
  );
  // A profile's address and key belong to that profile's environment: when
  // --env or RENTCTL_ENV selects another one, they are not used.
  const profileApplies =
    profile !== undefined && (envName === undefined || profile.env === undefined || profile.env === envName);
  const baseUrl = pick(sources, "baseUrl", [
    ["flag", flags.baseUrl],
    ["env", env.RENTCTL_BASE_URL],
    ["profile", profileApplies ? profile?.baseUrl : undefined],
  ]);
  const apiKey = pick(sources, "apiKey", [
    ["env", env.RENTCTL_API_KEY],
    ["profile", profileApplies ? profile?.apiKey : undefined],
  ]);
  // A key in the keychain: only its reference here (reading it loads the binding: resolveTarget does, when needed).
  const keychainProfile =
    apiKey === undefined && profileApplies && profile?.keyStore === "keychain" ? profileName : undefined;
  if (keychainProfile) sources.apiKey = "profile";
  const userId = pick(sources, "userId", [
    ["flag", parsePositiveInt(flags.user, "--user")],
    ["env", parsePositiveInt(env.RENTCTL_USER_ID, "RENTCTL_USER_ID")],
    ["profile", profileApplies ? profile?.userId : undefined],
  ]);
  if (baseUrl !== undefined) validateUrl(baseUrl);
  const fields = flags.fields
    ?.split(",")
    .map((f) => f.trim())
    .filter(Boolean);
  return {
    profileName,
    profile,
    env: envName,
    baseUrl,
    apiKey,
    keychainProfile,
    userId,
    locale,
    output,
    timeoutMs: Math.round(timeout * 1000),
    fields: fields?.length ? fields : undefined,
    sources,
  };
}

export function validateUrl(url: string): void {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new UsageError(`invalid base address ${JSON.stringify(url)}: expected http(s)://host[:port]`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") {
    throw new UsageError(`invalid base address ${JSON.stringify(url)}: only http and https are supported`);
  }
}

/** Show a key as `abcd…wxyz` (or `****` when short): never the whole key. */
export function maskKey(key: string | undefined): string {
  if (!key) return "(none)";
  if (key.length <= 10) return "****";
  return `${key.slice(0, 4)}…${key.slice(-2)}`;
}
