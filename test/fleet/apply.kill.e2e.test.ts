import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, runBuilt, sandboxEnv } from "../helpers/cli.js";
import { type FaultProxy, killAndRerun, ndjson, spawnBuilt, startProxy, vehicleRow, waitFor } from "./helpers.js";

/**
 * Crash safety of `vehicle apply` (as test/fleet/kill.e2e.test.ts for
 * import): a 300-row apply mixing 150 creates and 150 price changes, against
 * a server that commits writes late, drops the connection after committing,
 * or never answers, with the CLI SIGKILLed at random moments (20+). After
 * the final rerun: every row exists exactly once, every vehicle has the
 * file's price, and diff reports nothing.
 */

let sandbox: Awaited<ReturnType<typeof sandboxEnv>>;
let proxy: FaultProxy;
let env: NodeJS.ProcessEnv;
const dir = mkdtempSync(join(tmpdir(), "fleet-apply-kill-"));
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

const isWrite = (method: string, path: string) =>
  method === "POST" && (path.endsWith("/vehicles/create") || path.endsWith("/vehicles/edit"));
const writes = () =>
  (proxy.counts.get("POST /api/v302/vehicles/create") ?? 0) + (proxy.counts.get("POST /api/v302/vehicles/edit") ?? 0);

describe("vehicle apply crash safety (built CLI)", () => {
  it("20+ random SIGKILLs over a 300-row apply (150 creates, 150 changes): converges, each row once, each change in effect", async () => {
    const existing = Array.from({ length: 150 }, (_, i) => vehicleRow(`AK-${String(i).padStart(3, "0")}`));
    writeFileSync(join(dir, "seed.ndjson"), ndjson(existing));
    const seeded = await runBuilt(
      ["vehicle", "import", join(dir, "seed.ndjson"), "--user", USER, "--concurrency", "8"],
      sandbox.env,
    );
    expect(seeded.code).toBe(0);
    const rows: Record<string, unknown>[] = [
      ...existing.map((r, i) => ({ ...r, price_per_day: 100 + i })),
      ...Array.from({ length: 150 }, (_, i) =>
        vehicleRow(`AN-${String(i).padStart(3, "0")}`, { price_per_day: 300 + i }),
      ),
    ];
    const f = join(dir, "apply.ndjson");
    writeFileSync(f, ndjson(rows));
    proxy.decide = ({ method, path }) => {
      if (!isWrite(method, path)) return { kind: "pass" };
      const r = Math.random();
      if (r < 0.15) return { kind: "late", delayMs: 800 + Math.random() * 1000 };
      if (r < 0.19) return { kind: "drop" };
      if (r < 0.21) return { kind: "hang" };
      return { kind: "late", delayMs: 150 };
    };
    const args = ["vehicle", "apply", "-f", f, "--yes", "--user", USER, "--concurrency", "4", "--timeout", "2"];
    const { kills, last } = await killAndRerun({
      args,
      env,
      writes: writes,
      maxWritesPerRun: 20,
      maxMs: 3000,
      clearFaults: () => {
        proxy.decide = () => ({ kind: "pass" });
      },
    });
    expect(kills).toBeGreaterThanOrEqual(20);
    expect(last.code).toBe(0);

    const listed = await runBuilt(["vehicle", "list", "--all", "-o", "ndjson", "--user", USER], sandbox.env);
    const vehicles = listed.stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => json<Record<string, unknown>>(l))
      .filter((v) => /^A[KN]-/.test(String(v.vehicle_reg_number)));
    const counts = new Map<string, number>();
    for (const v of vehicles)
      counts.set(String(v.vehicle_reg_number), (counts.get(String(v.vehicle_reg_number)) ?? 0) + 1);
    expect([...counts].filter(([, n]) => n > 1)).toEqual([]);
    expect([...counts.keys()].sort()).toEqual(rows.map((r) => String(r.vehicle_reg_number)).sort());
    const want = new Map(rows.map((r) => [String(r.vehicle_reg_number), Number(r.price_per_day)]));
    expect(vehicles.filter((v) => Number(v.price_per_day) !== want.get(String(v.vehicle_reg_number)))).toEqual([]);
    const diff = await runBuilt(["vehicle", "diff", "-f", f, "--user", USER], sandbox.env);
    expect(diff.stdout).toBe(`Plan: 0 to create, 0 to change, 0 to remove, ${rows.length} unchanged.\n`);
    expect(diff.code).toBe(0);
  }, 600_000);

  it("Ctrl-C: stops sending, waits for the requests in flight, exits 130; the rerun completes", async () => {
    const rows = Array.from({ length: 120 }, (_, i) => vehicleRow(`AC-${i}`, { price_per_day: 20 + i }));
    const f = join(dir, "ctrlc.ndjson");
    writeFileSync(f, ndjson(rows));
    proxy.decide = ({ method, path }) => (isWrite(method, path) ? { kind: "late", delayMs: 100 } : { kind: "pass" });
    const before = writes();
    const args = ["vehicle", "apply", "-f", f, "--yes", "--user", "1002"];
    const p = spawnBuilt(args, env);
    await waitFor(() => writes() - before >= 10, 120_000);
    p.child.kill("SIGINT");
    const r = await p.done;
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/stopping: waiting for the requests in flight/);
    expect(r.stderr).toMatch(/created \d+, changed 0, removed 0, conflict 0, failed 0 \(in [\d.]+ s\); interrupted/);
    const created = Number(/created (\d+)/.exec(r.stderr)![1]);
    expect(created).toBeGreaterThan(0);
    expect(created).toBeLessThan(120);

    proxy.decide = () => ({ kind: "pass" });
    const again = await spawnBuilt(args, env).done;
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(
      new RegExp(`created ${120 - created},.*resumed an interrupted run: ${created} rows done earlier`),
    );
    const diff = await runBuilt(["vehicle", "diff", "-f", f, "--user", "1002"], sandbox.env);
    expect(diff.code).toBe(0);
  }, 180_000);
});
