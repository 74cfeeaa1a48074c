import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxEnv } from "../helpers/cli.js";
import {
  accountRegs,
  type FaultProxy,
  killAndRerun,
  ndjson,
  spawnBuilt,
  startProxy,
  vehicleRow,
  waitFor,
} from "./helpers.js";

/**
 * Crash safety of `vehicle import`: a server that sometimes commits a create
 * late, drops the connection after committing, or never answers; the CLI
 * SIGKILLed at random moments. After the final rerun every row exists
 * exactly once. Without the journal or the reconciliation, creates that land
 * after a rerun's account listing are sent again and this test finds
 * duplicates.
 */

let sandbox: Awaited<ReturnType<typeof sandboxEnv>>;
let proxy: FaultProxy;
let env: NodeJS.ProcessEnv;
const dir = mkdtempSync(join(tmpdir(), "fleet-kill-"));

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

const isCreate = (method: string, path: string) => method === "POST" && path.endsWith("/vehicles/create");

function expectEachOnce(regs: string[], expected: string[]): void {
  const counts = new Map<string, number>();
  for (const r of regs) counts.set(r, (counts.get(r) ?? 0) + 1);
  const dupes = [...counts].filter(([, n]) => n > 1);
  expect(dupes).toEqual([]);
  expect([...counts.keys()].sort()).toEqual([...expected].sort());
}

describe("vehicle import crash safety (built CLI)", () => {
  it("survives 20+ random SIGKILLs over a 500-row import against a faulty server: each row exactly once", async () => {
    const rows = Array.from({ length: 500 }, (_, i) => vehicleRow(`KL-${String(i).padStart(3, "0")}`));
    const f = join(dir, "kill.ndjson");
    writeFileSync(f, ndjson(rows));
    proxy.decide = ({ method, path }) => {
      if (!isCreate(method, path)) return { kind: "pass" };
      const r = Math.random();
      if (r < 0.15) return { kind: "late", delayMs: 800 + Math.random() * 1000 };
      if (r < 0.19) return { kind: "drop" };
      if (r < 0.21) return { kind: "hang" };
      return { kind: "late", delayMs: 150 };
    };
    const args = ["vehicle", "import", f, "--user", "1003", "--concurrency", "4", "--timeout", "2"];
    const { kills, last } = await killAndRerun({
      args,
      env,
      writes: () => proxy.creates(),
      maxWritesPerRun: 20,
      maxMs: 3000,
      clearFaults: () => {
        proxy.decide = () => ({ kind: "pass" });
      },
    });
    expect(kills).toBeGreaterThanOrEqual(20);
    expect(last.stderr).toMatch(/invalid 0/);
    expect(last.code).toBe(0);
    expectEachOnce(
      (await accountRegs(sandbox.env, 1003)).filter((r) => r.startsWith("KL-")),
      rows.map((r) => String(r.vehicle_reg_number)),
    );
  }, 600_000);

  it("Ctrl-C: stops sending, waits for the requests in flight, exits 130; the rerun completes", async () => {
    const rows = Array.from({ length: 150 }, (_, i) => vehicleRow(`CC-${i}`));
    const f = join(dir, "ctrlc.ndjson");
    writeFileSync(f, ndjson(rows));
    proxy.decide = ({ method, path }) => (isCreate(method, path) ? { kind: "late", delayMs: 100 } : { kind: "pass" });
    const before = proxy.creates();
    const p = spawnBuilt(["vehicle", "import", f, "--user", "1003"], env);
    await waitFor(() => proxy.creates() - before >= 10, 120_000);
    p.child.kill("SIGINT");
    const r = await p.done;
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/stopping: waiting for the requests in flight/);
    expect(r.stderr).toMatch(/created \d+, exists 0, failed 0, invalid 0 \(in [\d.]+ s\); interrupted/);
    const created = Number(/created (\d+)/.exec(r.stderr)![1]);
    expect(created).toBeGreaterThan(0);
    expect(created).toBeLessThan(150);

    proxy.decide = () => ({ kind: "pass" });
    const again = await spawnBuilt(["vehicle", "import", f, "--user", "1003"], env).done;
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(new RegExp(`resumed an interrupted run: ${created} rows done earlier`));
    expectEachOnce(
      (await accountRegs(sandbox.env, 1003)).filter((x) => x.startsWith("CC-")),
      rows.map((x) => String(x.vehicle_reg_number)),
    );
  }, 180_000);

  it("SIGTERM (a cancelled CI job): exit 143 with one line saying how to finish; the rerun completes", async () => {
    const rows = Array.from({ length: 150 }, (_, i) => vehicleRow(`TM-${i}`));
    const f = join(dir, "sigterm.ndjson");
    writeFileSync(f, ndjson(rows));
    proxy.decide = ({ method, path }) => (isCreate(method, path) ? { kind: "late", delayMs: 100 } : { kind: "pass" });
    const before = proxy.creates();
    const p = spawnBuilt(["vehicle", "import", f, "--user", "1003"], env);
    await waitFor(() => proxy.creates() - before >= 10, 120_000);
    p.child.kill("SIGTERM");
    const r = await p.done;
    expect(r.code).toBe(143);
    expect(r.stderr).toMatch(/terminated: the rows done are recorded; rerun the same command to finish/);
    expect(r.stderr).not.toMatch(/this is a bug/);

    proxy.decide = () => ({ kind: "pass" });
    const again = await spawnBuilt(["vehicle", "import", f, "--user", "1003"], env).done;
    expect(again.code, again.stderr).toBe(0);
    expectEachOnce(
      (await accountRegs(sandbox.env, 1003)).filter((x) => x.startsWith("TM-")),
      rows.map((x) => String(x.vehicle_reg_number)),
    );
  }, 180_000);
});
