import { afterAll, describe, expect, it } from "vitest";
import { json, runBuilt, runMain, sandboxEnv, tempHome } from "../helpers/cli.js";

/**
 * Issue 41 item 11: a dry run against the embedded sandbox prints a stable
 * address (`sandbox:`), not `http://127.0.0.1:<a new port each run>`, so two
 * dry runs print the same request; a sandbox reached by its address keeps it.
 */

const home = tempHome();
afterAll(() => home.cleanup());
const env = { ...home.env, RENTCTL_ENV: "sandbox", RENTCTL_SANDBOX_MEMORY: "1" };

describe("dry runs on the embedded sandbox", () => {
  it("print sandbox: as the address, the same in two runs (requests and the acting line)", async () => {
    const args = ["vehicle", "remove", "1", "--dry-run", "-o", "json"];
    const a = await runBuilt(args, env);
    const b = await runBuilt(args, env);
    expect(a.code, a.stderr).toBe(0);
    expect(json<{ url: string }>(a.stdout).url).toBe("sandbox:/api/v302/vehicles/remove");
    expect(b.stdout).toBe(a.stdout);
    const edit = await runMain(["vehicle", "edit", "1", "--price-per-day", "50", "--dry-run"], env);
    expect(edit.code, edit.stderr).toBe(0);
    expect(edit.stderr).toContain("POST sandbox:/api/v302/vehicles/edit was not sent");
    expect(edit.stderr).not.toMatch(/127\.0\.0\.1/);
  });

  it("a sandbox reached by its base address is shown by it", async () => {
    const s = await sandboxEnv();
    try {
      const r = await runMain(["vehicle", "remove", "1", "--dry-run", "-o", "json"], s.env);
      expect(json<{ url: string }>(r.stdout).url).toBe(`${s.env.RENTCTL_BASE_URL}/api/v302/vehicles/remove`);
    } finally {
      await s.cleanup();
    }
  });
});
