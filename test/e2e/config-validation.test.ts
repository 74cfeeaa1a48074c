import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runMain, tempHome } from "../helpers/cli.js";

// A config file with wrong types is reported (file, profile, field; exit 2)
// and never rewritten, whatever command meets it first.
describe("config file validation", () => {
  const homes: Array<ReturnType<typeof tempHome>> = [];
  afterEach(() => {
    for (const h of homes.splice(0)) h.cleanup();
  });

  const bad = { current: "work", profiles: { work: { env: "sandbox", userId: "1001", baseUrl: ["x"] } } };

  for (const args of [
    ["profile", "list"],
    ["auth", "login", "--env", "sandbox", "--user", "1001", "--with-token"],
    ["vehicle", "list"],
  ]) {
    it(`rentctl ${args.join(" ")}: exit 2 naming the file, profile and field; the file is unchanged`, async () => {
      const home = tempHome();
      homes.push(home);
      const file = join(home.env.RENTCTL_CONFIG_DIR!, "config.json");
      mkdirSync(home.env.RENTCTL_CONFIG_DIR!, { recursive: true });
      const text = `${JSON.stringify(bad, null, 2)}\n`;
      writeFileSync(file, text);
      const r = await runMain(args, { ...home.env, RENTCTL_SANDBOX_MEMORY: "1" }, { input: "secret-key\n" });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(file);
      expect(r.stderr).toContain('profile "work"');
      expect(r.stderr).toContain("userId");
      expect(r.stderr).not.toMatch(/this is a bug|unexpected/);
      expect(readFileSync(file, "utf8")).toBe(text);
    });
  }

  it("a valid file still reads and writes (conf enforces the same schema on write)", async () => {
    const home = tempHome();
    homes.push(home);
    const set = await runMain(["profile", "set", "timeout", "5"], home.env);
    expect(set.code).toBe(0);
    expect(set.stderr).not.toContain("strict mode");
    const list = await runMain(["profile", "list", "-o", "json"], home.env);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('"timeout": 5');
  });
});
