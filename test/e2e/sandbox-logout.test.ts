import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { json, runMain, tempHome } from "../helpers/cli.js";

// Issue 17 item 13: `auth logout` on a sandbox profile visibly logs out; the
// sandbox's demo key is used only when the user asks for the sandbox now.

let home: ReturnType<typeof tempHome>;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  home = tempHome();
  env = { ...home.env, RENTCTL_SANDBOX_MEMORY: "1" };
});
afterEach(() => home.cleanup());

interface Status {
  env: string;
  api_key: string | null;
  api_key_source: string;
}

describe("auth logout on a sandbox profile", () => {
  it("leaves no key in force; --env sandbox still uses the demo key and says so", async () => {
    const login = await runMain(
      ["auth", "login", "--with-token", "--env", "sandbox", "--user", "1001", "--no-verify"],
      env,
      { input: "sk_test_profile_key" },
    );
    expect(login.code, login.stderr).toBe(0);
    const before = json<Status>((await runMain(["auth", "status", "--no-verify", "-o", "json"], env)).stdout);
    expect(before).toMatchObject({ env: "sandbox", api_key_source: "keychain" });

    const out = await runMain(["auth", "logout"], env);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toMatch(/logged out/);

    // no key: status prints what it found, and exits 4 (as gh auth status) so CI can gate on it
    const after = await runMain(["auth", "status", "--no-verify", "-o", "json"], env);
    expect(after.code, after.stderr).toBe(4);
    expect(json<Status>(after.stdout)).toMatchObject({ env: "sandbox", api_key: null, api_key_source: "none" });
    const list = await runMain(["vehicle", "list", "-q"], env);
    expect(list.code).toBe(4);
    expect(list.stderr).toMatch(/no API key/);

    const asked = await runMain(["--env", "sandbox", "auth", "status", "-o", "json"], env);
    expect(asked.code, asked.stderr).toBe(0);
    expect(json<Status>(asked.stdout).api_key_source).toBe("sandbox-demo");
    const listed = await runMain(["--env", "sandbox", "vehicle", "list", "-q"], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout.trim().length).toBeGreaterThan(0);
  }, 120_000);
});
