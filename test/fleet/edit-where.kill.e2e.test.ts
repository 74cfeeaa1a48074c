import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, runBuilt, sandboxEnv } from "../helpers/cli.js";
import { type FaultProxy, killAndRerun, ndjson, startProxy, vehicleRow } from "./helpers.js";

/**
 * Crash safety of a change to many vehicles (issue 14): `vehicle edit --where
 * … --price-per-day +10%` over 300 vehicles, against a server that commits
 * edits late, drops the connection after committing or never answers, with
 * the CLI SIGKILLed at random moments (20+). The rerun continues the first
 * run's plan, so after the final rerun every price is the old price +10%
 * exactly once: never twice, never missing.
 */

let sandbox: Awaited<ReturnType<typeof sandboxEnv>>;
let proxy: FaultProxy;
let env: NodeJS.ProcessEnv;
const dir = mkdtempSync(join(tmpdir(), "edit-where-kill-"));
const USER = "1003";

beforeAll(async () => {
  sandbox = await sandboxEnv();
  proxy = await startProxy(sandbox.sb.url);
  env = { ...sandbox.env, RENTCTL_BASE_URL: proxy.url };
});
afterAll(async () => {
  await proxy.close();
  await sandbox.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

const edits = () => proxy.counts.get("POST /api/v302/vehicles/edit") ?? 0;

async function prices(): Promise<Map<string, number>> {
  const listed = await runBuilt(["vehicle", "list", "--all", "-o", "ndjson", "--user", USER], sandbox.env);
  const out = new Map<string, number>();
  for (const l of listed.stdout.split("\n").filter(Boolean)) {
    const v = json<Record<string, unknown>>(l);
    if (/^EK-/.test(String(v.vehicle_reg_number))) out.set(String(v.vehicle_reg_number), Number(v.price_per_day));
  }
  return out;
}

describe("edit --where +10% crash safety (built CLI)", () => {
  it("20+ random SIGKILLs over 300 vehicles: every price +10% exactly once", async () => {
    const rows = Array.from({ length: 300 }, (_, i) =>
      vehicleRow(`EK-${String(i).padStart(3, "0")}`, { price_per_day: 100 + i }),
    );
    writeFileSync(join(dir, "seed.ndjson"), ndjson(rows));
    const seeded = await runBuilt(
      ["vehicle", "import", join(dir, "seed.ndjson"), "--user", USER, "--concurrency", "8"],
      sandbox.env,
    );
    expect(seeded.code, seeded.stderr).toBe(0);
    const before = await prices();
    expect(before.size).toBe(300);

    proxy.decide = ({ method, path }) => {
      if (!(method === "POST" && path.endsWith("/vehicles/edit"))) return { kind: "pass" };
      const r = Math.random();
      if (r < 0.15) return { kind: "late", delayMs: 500 + Math.random() * 1000 };
      if (r < 0.19) return { kind: "drop" };
      if (r < 0.21) return { kind: "hang" };
      return { kind: "late", delayMs: 100 };
    };
    const args = [
      "vehicle",
      "edit",
      "--where",
      "vehicle_reg_number~^EK-",
      "--price-per-day",
      "+10%",
      "--clamp", // prices whose +10% is fractional are rounded half up (the expected prices below)
      "--yes",
      "--user",
      USER,
      "--concurrency",
      "2",
      "--timeout",
      "2",
    ];
    const { kills, last } = await killAndRerun({
      args,
      env,
      writes: edits,
      // at most 6 edits per killed run: 300 vehicles need far more than 20 runs, so 20+ kills always happen
      maxWritesPerRun: 6,
      maxMs: 1800,
      clearFaults: () => {
        proxy.decide = () => ({ kind: "pass" });
      },
    });
    expect(kills).toBeGreaterThanOrEqual(20);
    expect(last.code, last.stderr).toBe(0);
    // A late write of a killed run may still land: it carries the same planned record (the rerun continued
    // the first run's plan), so it cannot change the outcome checked here.
    const after = await prices();
    const wrong = [...before].filter(([reg, p]) => after.get(reg) !== Math.floor(p * 1.1 + 0.5));
    expect(wrong).toEqual([]);
  }, 600_000);
});
