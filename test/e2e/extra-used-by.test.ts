import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../../src/library/sandbox.js";
import { json, runMain, tempHome } from "../helpers/cli.js";

/**
 * Issue 41 item 6: `extra list` does not list the fleet to show which
 * vehicles use each extra; that is `extra get` and the opt-in `--used-by`.
 */

let sb: Sandbox;
const home = tempHome();
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  sb = await createSandbox();
  env = { ...home.env, RENTCTL_ENV: "sandbox", RENTCTL_BASE_URL: sb.url };
});
afterAll(async () => {
  await sb?.close();
  home.cleanup();
});

/** The operations a command sent. */
async function sent(args: string[]): Promise<{ ops: string[]; stdout: string; stderr: string }> {
  const before = sb.requests().length;
  const r = await runMain(args, env);
  expect(r.code, r.stderr).toBe(0);
  return {
    ops: sb
      .requests()
      .slice(before)
      .map((q) => q.operation),
    stdout: r.stdout,
    stderr: r.stderr,
  };
}

describe("extra list and the vehicles that use an extra", () => {
  it("extra list reads the extras only (no vehicle page), in every format", async () => {
    for (const o of ["table", "json", "csv"]) {
      const r = await sent(["extra", "list", "-o", o]);
      expect(r.ops, o).not.toContain("vehicles.list");
    }
    const r = await sent(["extra", "list", "-o", "json"]);
    expect(json<Array<Record<string, unknown>>>(r.stdout)[0]).not.toHaveProperty("used_by");
  });

  it("--used-by adds the vehicles (one walk of the fleet): used_by in json, a USED BY column in a table", async () => {
    const r = await sent(["extra", "list", "--used-by", "-o", "json"]);
    expect(r.ops.filter((o) => o === "vehicles.list").length).toBeGreaterThan(0);
    const extras = json<Array<{ id: number; used_by: number[] }>>(r.stdout);
    expect(extras.find((e) => e.id === 1)!.used_by).toContain(1);
    const t = await sent(["extra", "list", "--used-by"]);
    expect(t.stdout).toMatch(/USED BY/);
  });

  it("extra get still names the vehicles that use it", async () => {
    const r = await sent(["extra", "get", "1", "-o", "json"]);
    expect(r.stderr).toMatch(/used by 1 vehicle: 1 \(B-SC 1001\)/);
  });
});
