import { describe, expect, it } from "vitest";
import { json, runMain, tempHome } from "../helpers/cli.js";

/**
 * Logging in without surprises (issue "Hostile input", Logging in): a login
 * without --profile never replaces silently a profile holding another owner's
 * key or another environment's (refused in scripts, exit 2, naming the way
 * out); a production login is not made current unless asked (--use).
 */
describe("auth login", () => {
  it("refuses to replace another owner's key in the current profile; --profile names another one", async () => {
    const home = tempHome();
    try {
      const env = { ...home.env, RENTCTL_ENV: "sandbox" };
      const login = (user: string, ...more: string[]) =>
        runMain(["auth", "login", "--with-token", "--no-verify", "--user", user, ...more], env, {
          input: `sandbox-key-${user}`,
        });
      expect((await login("1001")).code).toBe(0);
      const again = await login("1002");
      expect(again.code).toBe(2);
      expect(again.stderr).toMatch(/profile default holds the key of owner 1001 \(sandbox\); nothing was changed/);
      expect(again.stderr).toMatch(/--profile NAME/);
      const status = json<{ user_id: number }>(
        (await runMain(["auth", "status", "--no-verify", "-o", "json"], env)).stdout,
      );
      expect(status.user_id).toBe(1001);
      // the same owner again is a plain re-login; naming the profile replaces it on purpose
      expect((await login("1001")).code).toBe(0);
      expect((await login("1002", "--profile", "default")).code).toBe(0);
      expect((await login("1003", "--profile", "other")).code).toBe(0);
    } finally {
      home.cleanup();
    }
  });

  it("a production login is not made current unless --use; auth status exits 4 without a key", async () => {
    const home = tempHome();
    try {
      const env = { ...home.env };
      const sb = await runMain(
        ["auth", "login", "--env", "sandbox", "--with-token", "--no-verify", "--user", "1001"],
        env,
        { input: "sandbox-key-1001" },
      );
      expect(sb.code, sb.stderr).toBe(0);
      const prod = await runMain(
        [
          "auth",
          "login",
          "--profile",
          "prod",
          "--env",
          "production",
          "--base-url",
          "https://x.example",
          "--user",
          "7",
          "--with-token",
          "--no-verify",
        ],
        env,
        { input: "prodkey123" },
      );
      expect(prod.code, prod.stderr).toBe(0);
      expect(prod.stderr).toMatch(/profile prod is not the current one/);
      const cur = json<{ profile: string }>(
        (await runMain(["auth", "status", "--no-verify", "-o", "json"], env)).stdout,
      );
      expect(cur.profile).toBe("default");
      const used = await runMain(
        [
          "auth",
          "login",
          "--profile",
          "prod",
          "--env",
          "production",
          "--base-url",
          "https://x.example",
          "--user",
          "7",
          "--with-token",
          "--no-verify",
          "--use",
        ],
        env,
        { input: "prodkey123" },
      );
      expect(used.code, used.stderr).toBe(0);
      const now = json<{ profile: string }>(
        (await runMain(["auth", "status", "--no-verify", "-o", "json"], env)).stdout,
      );
      expect(now.profile).toBe("prod");
      expect((await runMain(["auth", "logout"], env)).code).toBe(0);
      const none = await runMain(["auth", "status", "--no-verify"], env);
      expect(none.code).toBe(4);
      expect(none.stdout).toMatch(/api_key_source\s+none/);
    } finally {
      home.cleanup();
    }
  });
});
