import { afterEach, describe, expect, it } from "vitest";
import { json, runMain, tempHome } from "../helpers/cli.js";

/**
 * `auth status` when the key check fails: what was found is printed first
 * (profile, env, base address, owner, where the key came from, the key
 * masked), with `key_valid: false`, then the error with its exit code (4).
 */

let home: ReturnType<typeof tempHome> | undefined;
afterEach(() => {
  home?.cleanup();
  home = undefined;
});

const KEY = "wrong-key-0123456789";

describe("auth status with a key the server refuses", () => {
  it("-o json: the status with key_valid false on stdout, the error on stderr, exit 4", async () => {
    home = tempHome();
    const r = await runMain(["--env", "sandbox", "auth", "status", "-o", "json"], {
      ...home.env,
      RENTCTL_API_KEY: KEY,
      RENTCTL_SANDBOX_MEMORY: "1",
    });
    expect(r.code).toBe(4);
    const status = json<Record<string, unknown>>(r.stdout);
    expect(status).toMatchObject({ env: "sandbox", user_id: 1001, api_key_source: "env", key_valid: false });
    expect(String(status.base_url)).toMatch(/embedded sandbox/);
    expect(status.key_error).toMatch(/401/);
    expect(r.stdout + r.stderr).not.toContain(KEY);
    expect(String(status.api_key)).toMatch(/…/);
    expect(json<{ error: { exit_code: number } }>(r.stderr.trim()).error.exit_code).toBe(4);
  });

  it("table: the same fields for a person, then one error line", async () => {
    home = tempHome();
    const r = await runMain(["--env", "sandbox", "auth", "status"], {
      ...home.env,
      RENTCTL_API_KEY: KEY,
      RENTCTL_SANDBOX_MEMORY: "1",
    });
    expect(r.code).toBe(4);
    expect(r.stdout).toMatch(/env\s+sandbox/);
    expect(r.stdout).toMatch(/api_key_source\s+env/);
    expect(r.stdout).toMatch(/key_valid\s+false/);
    expect(r.stderr).toMatch(/^error: not authorized \(401\)/);
    // the hint says what to do about the key, not "run auth status" again
    expect(r.stderr).toMatch(/hint: the key shown was refused: `rentctl auth login` again or set RENTCTL_API_KEY/);
    expect(r.stderr).not.toMatch(/auth status/);
    expect(r.stdout + r.stderr).not.toContain(KEY);
  });
});
