import { spawn } from "node:child_process";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BIN, json, runBuilt, runMain, tempHome } from "../helpers/cli.js";

let home: ReturnType<typeof tempHome>;
beforeEach(() => {
  home = tempHome();
});
afterEach(() => home.cleanup());

describe("sandbox commands", () => {
  it("--env sandbox runs the embedded sandbox over the default data file: state persists between commands", async () => {
    const env = { ...home.env, RENTCTL_ENV: "sandbox" };
    const list = await runBuilt(["vehicle", "list", "-q"], env);
    expect(list.code, list.stderr).toBe(0);
    const first = list.stdout.trim().split("\n")[0]!;
    expect((await runBuilt(["vehicle", "edit", first, "--price-per-day", "66", "-q"], env)).code).toBe(0);
    const got = await runBuilt(["vehicle", "get", first, "-o", "json"], env);
    expect(json<{ price_per_day: number }>(got.stdout).price_per_day).toBe(66);
    const reset = await runBuilt(["sandbox", "reset"], env);
    expect(reset.code, reset.stderr).toBe(0);
    const after = await runBuilt(["vehicle", "get", first, "-o", "json"], env);
    expect(json<{ price_per_day: number }>(after.stdout).price_per_day).not.toBe(66);
  });

  it("serve prints its address, answers, shows up in info -o json, and stops cleanly on SIGINT", async () => {
    const child = spawn(process.execPath, [BIN, "sandbox", "serve", "--port", "0"], { env: home.env });
    let err = "";
    child.stderr.on("data", (d) => {
      err += d;
    });
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.once("data", (d: Buffer) => resolve(d.toString().trim()));
      child.once("exit", (c) => reject(new Error(`serve exited ${c}: ${err}`)));
    });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    try {
      const r = await runMain(["catalog", "currencies", "-o", "json"], {
        ...home.env,
        RENTCTL_ENV: "sandbox",
        RENTCTL_BASE_URL: url,
      });
      expect(r.code, r.stderr).toBe(0);
      const info = await runMain(["sandbox", "info", "-o", "json"], home.env);
      const data = json<{ url: string; running: boolean; owners: Array<{ user_id: number; api_key: string }> }>(
        info.stdout,
      );
      expect(data).toMatchObject({ url, running: true });
      expect(data.owners[0]).toEqual({ user_id: 1001, api_key: "sandbox-key-1001", name: expect.any(String) });
      expect(err).toContain("not the marketplace");
    } finally {
      child.kill("SIGINT");
    }
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(0);
    const info = await runMain(["sandbox", "info", "-o", "json"], home.env);
    expect(json<{ running: boolean }>(info.stdout).running).toBe(false);
  });

  it("rejects bad fault switch values before starting", async () => {
    const r = await runMain(["sandbox", "serve", "--fail-rate", "2"], home.env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--fail-rate: expected a number from 0 to 1/);
  });
});
