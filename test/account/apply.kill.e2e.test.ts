import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { type FaultProxy, killAndRerun, startProxy } from "../fleet/helpers.js";
import { runBuilt, sandboxEnv } from "../helpers/cli.js";

/**
 * `account apply` killed at random moments (SIGKILL, through a proxy that counts the writes) and
 * run again until it completes: it converges on the file, with each extra once (a second extra of
 * the same identity would make every later plan refuse) and every vehicle once, using its extras.
 */

let sandbox: Awaited<ReturnType<typeof sandboxEnv>>;
let proxy: FaultProxy;
const dir = mkdtempSync(join(tmpdir(), "account-kill-"));

beforeAll(async () => {
  sandbox = await sandboxEnv();
  proxy = await startProxy(sandbox.sb.url);
}, 60_000);
afterAll(async () => {
  await proxy.close();
  await sandbox.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

describe("account apply under SIGKILL", () => {
  it("10 extras and 60 vehicles using them, killed up to 8 times: converges, nothing twice", async () => {
    const base = parse((await runBuilt(["account", "export", "-", "--user", "1001"], sandbox.env)).stdout) as {
      vehicles: Record<string, unknown>[];
    };
    const sample = { ...base.vehicles[0]! };
    delete sample.extras;
    delete sample.vehicle_vin;
    const extras = [];
    for (const option of [1, 2, 3, 4, 5])
      for (const period of [1, 2]) extras.push({ option, price: option + period, currency: 1, period, quantity: 3 });
    const vehicles = Array.from({ length: 60 }, (_, i) => ({
      ...sample,
      vehicle_reg_number: `KA-${i}`,
      extras: [
        { option: 1 + (i % 5), period: 1 },
        { option: 1 + ((i + 2) % 5), period: 2 },
      ],
    }));
    const file = join(dir, "account.yaml");
    writeFileSync(file, stringify({ extras, vehicles }));
    const env = { ...sandbox.env, RENTCTL_BASE_URL: proxy.url };
    const writes = () => [...proxy.counts].filter(([k]) => k.startsWith("POST")).reduce((n, [, c]) => n + c, 0);
    const { kills, last } = await killAndRerun({
      args: ["account", "apply", "-f", file, "--yes", "--user", "1003", "--concurrency", "4"],
      env,
      writes,
      // at most 8 writes (plus the 4 in flight) a killed run: 70 creates cannot all fit in fewer than 3 runs
      maxWritesPerRun: 8,
      maxMs: 2500,
      minKills: 8,
      clearFaults: () => {},
    });
    expect(last.code, last.stderr).toBe(0);
    expect(kills).toBeGreaterThanOrEqual(3); // usually 8 (minKills); a run completes only when fewer than its budget are left
    const d = await runBuilt(["account", "diff", "-f", file, "--user", "1003"], env);
    expect(d.code, d.stdout + d.stderr).toBe(0);
    const now = parse((await runBuilt(["account", "export", "-", "--user", "1003"], env)).stdout) as {
      extras: unknown[];
      vehicles: Array<{ vehicle_reg_number: string; extras?: unknown[] }>;
    };
    expect(now.extras).toHaveLength(10);
    expect(new Set(now.vehicles.map((v) => v.vehicle_reg_number)).size).toBe(60);
    expect(now.vehicles).toHaveLength(60);
    for (const v of now.vehicles) expect(v.extras).toHaveLength(2);
  }, 300_000);
});
