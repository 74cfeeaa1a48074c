import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openKeychain } from "../../src/config/secrets.js";
import { json, runMain, tempHome } from "../helpers/cli.js";

/**
 * Secrets at rest (issue "Hostile input", Secrets): keys live in the system
 * keychain (here the stand-in keychain of RENTCTL_KEYCHAIN=file:…, which the
 * same code path writes); config.json keeps only a reference; no keychain
 * means a refusal unless --insecure-storage, never a silent fallback; status
 * says where the key lives; logout removes it from wherever it is; migrate
 * moves a file key into the keychain. The real binding is tried when this
 * machine has a keychain, else skipped with the reason printed.
 */
const KEY = "sandbox-key-1001";
const login = (env: NodeJS.ProcessEnv, ...more: string[]) =>
  runMain(["auth", "login", "--env", "sandbox", "--with-token", "--user", "1001", ...more], env, { input: KEY });
const status = async (env: NodeJS.ProcessEnv) =>
  json<{ api_key_source: string; api_key: string | null }>(
    (await runMain(["auth", "status", "--no-verify", "-o", "json"], env)).stdout,
  );
const configText = (env: NodeJS.ProcessEnv) => readFileSync(join(env.RENTCTL_CONFIG_DIR!, "config.json"), "utf8");

describe("keys in the keychain", () => {
  it("login stores the key in the keychain, the config keeps a reference; commands read it; logout removes it", async () => {
    const home = tempHome();
    try {
      const env = home.env;
      const r = await login(env);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/key sand…01 \(in the test keychain/);
      expect(configText(env)).not.toContain(KEY);
      expect(JSON.parse(configText(env)).profiles.default.keyStore).toBe("keychain");
      const kc = env.RENTCTL_KEYCHAIN!.slice(5);
      expect(readFileSync(kc, "utf8")).toContain(KEY);
      expect((statSync(kc).mode & 0o777).toString(8)).toBe("600");
      expect(await status(env)).toMatchObject({ api_key_source: "keychain" });
      const list = await runMain(["vehicle", "list", "-q"], { ...env, RENTCTL_ENV: "" });
      expect(list.code, list.stderr).toBe(0);
      const out = await runMain(["auth", "logout"], env);
      expect(out.code, out.stderr).toBe(0);
      expect(out.stderr).toMatch(/removed \(from the test keychain/);
      expect(readFileSync(kc, "utf8")).not.toContain(KEY);
      expect(JSON.parse(configText(env)).profiles.default.keyStore).toBeUndefined();
    } finally {
      home.cleanup();
    }
  });

  it("no keychain: login refuses (exit 2, the reason, nothing saved) unless --insecure-storage; status says file (insecure); migrate moves it", async () => {
    const home = tempHome();
    try {
      const off: NodeJS.ProcessEnv = { ...home.env, RENTCTL_KEYCHAIN: "off" };
      const refused = await login(off);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(
        /no system keychain is usable here, so no key was asked for: the keychain is turned off/,
      );
      expect(refused.stderr).toMatch(/--insecure-storage/);
      expect(existsSync(join(off.RENTCTL_CONFIG_DIR!, "config.json"))).toBe(false);
      const insecure = await login(off, "--insecure-storage");
      expect(insecure.code, insecure.stderr).toBe(0);
      expect(insecure.stderr).toMatch(/insecure storage, file mode 0600/);
      expect(configText(off)).toContain(KEY);
      expect(await status(off)).toMatchObject({ api_key_source: "file (insecure)" });
      // a profile whose key is in the keychain cannot be used where the keychain cannot be read: exit 4, said why
      const migrated = await runMain(["auth", "migrate"], home.env);
      expect(migrated.code, migrated.stderr).toBe(0);
      expect(configText(home.env)).not.toContain(KEY);
      expect(await status(home.env)).toMatchObject({ api_key_source: "keychain" });
      const unreadable = await runMain(["vehicle", "list"], off);
      expect(unreadable.code).toBe(4);
      expect(unreadable.stderr).toMatch(/in the system keychain, which cannot be read here/);
      // RENTCTL_API_KEY never touches any store
      const envKey = await runMain(["auth", "status", "--no-verify", "-o", "json"], { ...off, RENTCTL_API_KEY: KEY });
      expect(json<{ api_key_source: string }>(envKey.stdout).api_key_source).toBe("env");
    } finally {
      home.cleanup();
    }
  });

  it("the real binding, when this machine has a keychain (else skipped with the reason)", async (t) => {
    const access = await openKeychain({
      PATH: process.env.PATH,
      DBUS_SESSION_BUS_ADDRESS: process.env.DBUS_SESSION_BUS_ADDRESS,
    });
    if (!access.ok) {
      console.log(`skipped: no system keychain on this machine: ${access.reason}`);
      t.skip();
      return;
    }
    const account = `test:${process.pid}`;
    access.keychain.set(account, "secret-1");
    expect(access.keychain.get(account)).toBe("secret-1");
    expect(access.keychain.delete(account)).toBe(true);
    expect(access.keychain.get(account)).toBeUndefined();
  });
});
