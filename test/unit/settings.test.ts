import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/base/errors.js";
import {
  DEFAULT_TIMEOUT_S,
  type GlobalFlags,
  maskKey,
  type Profile,
  parsePositiveInt,
  resolveSettings,
  type Settings,
  validateUrl,
} from "../../src/config/settings.js";

function profiles(all: Record<string, Profile>, current?: string) {
  return { current, get: (name: string) => all[name] };
}

const PROFILE: Profile = {
  env: "test",
  baseUrl: "https://profile.example",
  apiKey: "profile-key-0123456789",
  userId: 30,
  locale: 3,
  output: "yaml",
  timeout: 3,
};

const ENV = {
  RENTCTL_ENV: "production",
  RENTCTL_BASE_URL: "https://env.example",
  RENTCTL_API_KEY: "env-key-0123456789",
  RENTCTL_USER_ID: "20",
  RENTCTL_LOCALE: "2",
  RENTCTL_OUTPUT: "csv",
  RENTCTL_TIMEOUT: "2",
};

const FLAGS: GlobalFlags = {
  env: "production",
  baseUrl: "https://flag.example",
  user: "10",
  locale: "1",
  output: "ndjson",
  timeout: "1",
};

/** Resolve with the profile `work` as current. */
function resolve(flags: GlobalFlags, env: NodeJS.ProcessEnv, profile: Profile | null = PROFILE): Settings {
  return resolveSettings(flags, env, profiles(profile ? { work: profile } : {}, profile ? "work" : undefined));
}

function usage(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    expect((e as UsageError).exitCode).toBe(2);
    return e as UsageError;
  }
  throw new Error("expected a UsageError");
}

describe("resolveSettings precedence: flag > env var > profile > default", () => {
  it("flags win over everything", () => {
    const s = resolve(FLAGS, ENV);
    expect(s).toMatchObject({
      env: "production",
      baseUrl: "https://flag.example",
      userId: 10,
      locale: 1,
      output: "ndjson",
      timeoutMs: 1000,
    });
    expect(s.sources).toMatchObject({
      env: "flag",
      baseUrl: "flag",
      userId: "flag",
      locale: "flag",
      output: "flag",
      timeout: "flag",
    });
  });

  it("environment variables win over the profile", () => {
    const s = resolve({}, { ...ENV, RENTCTL_ENV: "test" });
    expect(s).toMatchObject({
      env: "test",
      baseUrl: "https://env.example",
      apiKey: "env-key-0123456789",
      userId: 20,
      locale: 2,
      output: "csv",
      timeoutMs: 2000,
    });
    expect(s.sources).toMatchObject({
      env: "env",
      baseUrl: "env",
      apiKey: "env",
      userId: "env",
      locale: "env",
      output: "env",
      timeout: "env",
    });
  });

  it("the profile wins over defaults", () => {
    const s = resolve({}, {});
    expect(s).toMatchObject({
      profileName: "work",
      env: "test",
      baseUrl: "https://profile.example",
      apiKey: "profile-key-0123456789",
      userId: 30,
      locale: 3,
      output: "yaml",
      timeoutMs: 3000,
    });
    expect(s.sources).toMatchObject({
      profile: "profile",
      env: "profile",
      baseUrl: "profile",
      apiKey: "profile",
      userId: "profile",
      locale: "profile",
      output: "profile",
      timeout: "profile",
    });
  });

  it("defaults: table output, locale 40, 30 s, nothing else", () => {
    const s = resolve({}, {}, null);
    expect(s).toMatchObject({ locale: 40, output: "table", timeoutMs: DEFAULT_TIMEOUT_S * 1000 });
    expect(DEFAULT_TIMEOUT_S).toBe(30);
    expect(s.env).toBeUndefined();
    expect(s.baseUrl).toBeUndefined();
    expect(s.apiKey).toBeUndefined();
    expect(s.userId).toBeUndefined();
    expect(s.profileName).toBeUndefined();
    expect(s.sources).toEqual({ locale: "default", output: "default", timeout: "default" });
  });

  it("empty strings count as not given", () => {
    const s = resolve({ baseUrl: "", output: "" }, { RENTCTL_BASE_URL: "", RENTCTL_OUTPUT: "", RENTCTL_API_KEY: "" });
    expect(s.baseUrl).toBe("https://profile.example");
    expect(s.output).toBe("yaml");
    expect(s.apiKey).toBe("profile-key-0123456789");
  });

  it("the key has no flag: only RENTCTL_API_KEY or the profile", () => {
    expect(resolve(FLAGS, { RENTCTL_API_KEY: "from-env-000000" }).apiKey).toBe("from-env-000000");
  });

  it("--json means json output and beats -o and RENTCTL_OUTPUT", () => {
    expect(resolve({ json: true }, {}).output).toBe("json");
    expect(resolve({ json: true, output: "csv" }, { RENTCTL_OUTPUT: "yaml" }).output).toBe("json");
    expect(resolve({ json: true }, {}).sources.output).toBe("flag");
  });

  it("formats and environments are case-insensitive", () => {
    expect(resolve({ output: "JSON", env: "Sandbox" }, {})).toMatchObject({ output: "json", env: "sandbox" });
  });

  it("a locale name is kept as text (resolved later through the catalog)", () => {
    expect(resolve({ locale: "English" }, {}).locale).toBe("English");
    expect(resolve({ locale: " 40 " }, {}).locale).toBe(40);
  });

  it("--fields is split, trimmed and empty entries dropped", () => {
    expect(resolve({ fields: " id, vehicle_reg_number ,,price_per_day" }, {}).fields).toEqual([
      "id",
      "vehicle_reg_number",
      "price_per_day",
    ]);
    expect(resolve({ fields: " , " }, {}).fields).toBeUndefined();
  });

  it("fractional timeouts are accepted in seconds", () => {
    expect(resolve({ timeout: "0.25" }, {}).timeoutMs).toBe(250);
  });
});

describe("resolveSettings: which profile", () => {
  const all = { a: { userId: 1 }, b: { userId: 2 }, c: { userId: 3 } };

  it("--profile > RENTCTL_PROFILE > current", () => {
    expect(resolveSettings({ profile: "a" }, { RENTCTL_PROFILE: "b" }, profiles(all, "c"))).toMatchObject({
      profileName: "a",
      userId: 1,
      sources: { profile: "flag" },
    });
    expect(resolveSettings({}, { RENTCTL_PROFILE: "b" }, profiles(all, "c"))).toMatchObject({
      profileName: "b",
      userId: 2,
      sources: { profile: "env" },
    });
    expect(resolveSettings({}, {}, profiles(all, "c"))).toMatchObject({
      profileName: "c",
      userId: 3,
      sources: { profile: "profile" },
    });
  });

  it("an unknown profile named by flag or env var is a usage error", () => {
    expect(usage(() => resolveSettings({ profile: "nope" }, {}, profiles(all))).message).toMatch(/nope/);
    usage(() => resolveSettings({}, { RENTCTL_PROFILE: "nope" }, profiles(all)));
  });

  it("a dangling `current` is not an error, just no profile", () => {
    const s = resolveSettings({}, {}, profiles(all, "gone"));
    expect(s.profile).toBeUndefined();
    expect(s.userId).toBeUndefined();
  });
});

describe("resolveSettings: a profile's address and key belong to its environment", () => {
  it("--env selecting another environment drops the profile's base url, key and owner", () => {
    const s = resolve({ env: "sandbox" }, {});
    expect(s.env).toBe("sandbox");
    expect(s.baseUrl).toBeUndefined();
    expect(s.apiKey).toBeUndefined();
    expect(s.userId).toBeUndefined();
    // settings that are not environment-bound still come from the profile
    expect(s.output).toBe("yaml");
    expect(s.locale).toBe(3);
  });

  it("RENTCTL_ENV selecting another environment does the same", () => {
    const s = resolve({}, { RENTCTL_ENV: "production" });
    expect(s.baseUrl).toBeUndefined();
    expect(s.apiKey).toBeUndefined();
  });

  it("--env naming the profile's own environment keeps them", () => {
    const s = resolve({ env: "test" }, {});
    expect(s.baseUrl).toBe("https://profile.example");
    expect(s.apiKey).toBe("profile-key-0123456789");
    expect(s.userId).toBe(30);
  });

  it("explicit flags and env vars still apply in the other environment", () => {
    const s = resolve(
      { env: "production", baseUrl: "https://prod.example", user: "5" },
      { RENTCTL_API_KEY: "k-000000000000" },
    );
    expect(s).toMatchObject({ baseUrl: "https://prod.example", apiKey: "k-000000000000", userId: 5 });
  });
});

describe("resolveSettings: invalid values are usage errors", () => {
  it.each<[string, GlobalFlags, NodeJS.ProcessEnv, RegExp]>([
    ["--env", { env: "staging" }, {}, /--env: unknown environment "staging"/],
    ["RENTCTL_ENV", {}, { RENTCTL_ENV: "prod" }, /RENTCTL_ENV/],
    ["--output", { output: "xml" }, {}, /--output: unknown output format "xml"/],
    ["RENTCTL_OUTPUT", {}, { RENTCTL_OUTPUT: "tsv" }, /RENTCTL_OUTPUT/],
    ["--timeout 0", { timeout: "0" }, {}, /--timeout/],
    ["--timeout -1", { timeout: "-1" }, {}, /--timeout/],
    ["--timeout abc", { timeout: "abc" }, {}, /--timeout/],
    ["RENTCTL_TIMEOUT", {}, { RENTCTL_TIMEOUT: "soon" }, /RENTCTL_TIMEOUT/],
    ["--user 0", { user: "0" }, {}, /--user/],
    ["--user abc", { user: "abc" }, {}, /--user/],
    ["--user 1.5", { user: "1.5" }, {}, /--user/],
    ["RENTCTL_USER_ID", {}, { RENTCTL_USER_ID: "-3" }, /RENTCTL_USER_ID/],
    ["--base-url junk", { baseUrl: "not a url" }, {}, /invalid base address/],
    ["--base-url ftp", { baseUrl: "ftp://x.example" }, {}, /only http and https/],
    ["RENTCTL_BASE_URL", {}, { RENTCTL_BASE_URL: "localhost:4010" }, /invalid base address|only http/],
  ])("%s", (_name, flags, env, message) => {
    expect(usage(() => resolve(flags, env, null)).message).toMatch(message);
  });
});

describe("helpers", () => {
  it("parsePositiveInt honours its minimum", () => {
    expect(parsePositiveInt("0", "--offset", 0)).toBe(0);
    expect(parsePositiveInt(" 12 ", "--limit")).toBe(12);
    expect(parsePositiveInt(undefined, "--limit")).toBeUndefined();
    usage(() => parsePositiveInt("0", "--limit"));
  });

  it("validateUrl accepts http and https", () => {
    expect(() => validateUrl("http://127.0.0.1:4010")).not.toThrow();
    expect(() => validateUrl("https://api.example/base")).not.toThrow();
  });

  it("maskKey never reveals the whole key", () => {
    expect(maskKey(undefined)).toBe("(none)");
    expect(maskKey("")).toBe("(none)");
    for (const key of ["a", "short", "0123456789", "01234567890", "sk_live_abcdefghijklmnopqrstuvwxyz"]) {
      const masked = maskKey(key);
      expect(masked).not.toContain(key);
      // at most a minority of the key shows
      const visible = masked.replace(/[*…]/g, "").length;
      expect(visible).toBeLessThanOrEqual(Math.floor(key.length / 2) + 1);
    }
    expect(maskKey("sk_live_abcdefghijklmnopqrstuvwxyz")).toMatch(/^sk_l….+$/);
    expect(maskKey("short")).toBe("****");
  });
});
