import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FaultProxy, ndjson, spawnBuilt, startProxy, vehicleRow, waitFor } from "../fleet/helpers.js";
import { runBuilt, sandboxEnv, tempHome } from "../helpers/cli.js";

/**
 * Convergence across machines (issue "exactly once, even two at a time",
 * §2): two rentctl processes with SEPARATE config and data dirs (two
 * machines: no lock can reach between them) run the same import or apply
 * against one server at the same time. A proxy holds every create until both
 * runs have listed the account, so both really plan the same creates: the
 * race is certain, not a matter of timing. The identity check after the
 * creates must leave each registration exactly once, with both runs exiting 0;
 * the same race with --no-dedupe shows that the check is what does it.
 */

const ROUNDS = Number(process.env.RENTCTL_TWO_MACHINE_ROUNDS ?? 3);
const LIST = "GET /api/v302/vehicles/list";
const CREATE = "POST /api/v302/vehicles/create";

let sandbox: Awaited<ReturnType<typeof sandboxEnv>>;
let proxy: FaultProxy;
const machines = [tempHome(), tempHome()];

beforeAll(async () => {
  sandbox = await sandboxEnv();
  proxy = await startProxy(sandbox.sb.url);
});
afterAll(async () => {
  await proxy.close();
  await sandbox.cleanup();
  for (const m of machines) m.cleanup();
});

/** The env of machine `i`: its own config and data dir, the shared server behind the proxy. */
const machine = (i: number, user: number) => ({
  ...machines[i]!.env,
  RENTCTL_ENV: "sandbox",
  RENTCTL_BASE_URL: proxy.url,
  RENTCTL_USER_ID: String(user),
});

/** Every create waits until `n` more account listings have been answered (each run lists before it creates). */
function holdCreatesUntilListed(n: number): void {
  const base = proxy.counts.get(LIST) ?? 0;
  const listed = waitFor(() => (proxy.counts.get(LIST) ?? 0) >= base + n, 60_000);
  proxy.decide = (req) => (`${req.method} ${req.path}` === CREATE ? { kind: "wait", until: listed } : { kind: "pass" });
}

/** Registration numbers of an owner, straight from the server (no proxy), with how often each occurs. */
async function regCounts(user: number, prefix: string): Promise<Map<string, number>> {
  const r = await runBuilt(["vehicle", "list", "--all", "-o", "ndjson", "--user", String(user)], sandbox.env);
  expect(r.code, r.stderr).toBe(0);
  const counts = new Map<string, number>();
  for (const line of r.stdout.split("\n").filter(Boolean)) {
    const reg = String((JSON.parse(line) as { vehicle_reg_number: string }).vehicle_reg_number);
    if (reg.startsWith(prefix)) counts.set(reg, (counts.get(reg) ?? 0) + 1);
  }
  return counts;
}

const rowsOf = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => vehicleRow(`${prefix}-${String(i).padStart(3, "0")}`));

describe("two machines, the same work at the same time (built CLI, separate data dirs)", () => {
  it(`the same import of 300 rows, ${ROUNDS} rounds: each registration exactly once, both exit 0`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const prefix = `M${round}`;
      const file = join(machines[0]!.dir, `${prefix}.ndjson`);
      writeFileSync(file, ndjson(rowsOf(prefix, 300)));
      holdCreatesUntilListed(2);
      const runs = await Promise.all(
        [0, 1].map((i) => runBuilt(["vehicle", "import", file, "-o", "ndjson"], machine(i, 1003))),
      );
      for (const r of runs) expect(r.code, r.stderr).toBe(0);
      const counts = await regCounts(1003, `${prefix}-`);
      expect(counts.size).toBe(300);
      expect([...counts.values()].filter((n) => n !== 1)).toEqual([]);
      // Both runs created (the race was real); what one run created twice, it removed again.
      const dedup = runs.map((r) => Number(/deduplicated (\d+)/.exec(r.stderr)?.[1] ?? 0));
      const created = runs.map((r) => Number(/created (\d+)/.exec(r.stderr)?.[1] ?? 0));
      expect(created[0]! + created[1]!, runs.map((r) => r.stderr).join("\n")).toBe(300);
      expect(dedup[0]! + dedup[1]!).toBeGreaterThan(0);
      // The per-row report says which rows ended as the other run's vehicle.
      const statuses = new Set(
        runs.flatMap((r) =>
          r.stdout
            .split("\n")
            .filter(Boolean)
            .map((l) => (JSON.parse(l) as { status: string }).status),
        ),
      );
      expect(statuses.has("deduplicated")).toBe(true);
    }
  }, 300_000);

  it("the same race with --no-dedupe leaves duplicates: the identity check is what converges", async () => {
    const file = join(machines[0]!.dir, "nodedupe.ndjson");
    writeFileSync(file, ndjson(rowsOf("ND", 50)));
    holdCreatesUntilListed(2);
    const runs = await Promise.all(
      [0, 1].map((i) => runBuilt(["vehicle", "import", file, "--no-dedupe"], machine(i, 1002))),
    );
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    const counts = await regCounts(1002, "ND-");
    expect([...counts.values()].filter((n) => n > 1).length).toBeGreaterThan(0);
  }, 120_000);

  it("the same apply (100 creates, 100 changes) at once: each registration once, the changes made, both exit 0", async () => {
    const base = rowsOf("AP", 100);
    const seed = join(machines[0]!.dir, "ap-seed.ndjson");
    writeFileSync(seed, ndjson(base));
    proxy.decide = () => ({ kind: "pass" });
    expect((await runBuilt(["vehicle", "import", seed], machine(0, 1001))).code).toBe(0);
    const file = join(machines[0]!.dir, "ap.ndjson");
    writeFileSync(file, ndjson([...base.map((r) => ({ ...r, price_per_day: 77 })), ...rowsOf("AQ", 100)]));
    holdCreatesUntilListed(2);
    const runs = await Promise.all(
      [0, 1].map((i) => runBuilt(["vehicle", "apply", "-f", file, "--yes"], machine(i, 1001))),
    );
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    const created = await regCounts(1001, "AQ-");
    expect(created.size).toBe(100);
    expect([...created.values()].filter((n) => n !== 1)).toEqual([]);
    // The later run found the changes already made: unchanged, not "changed by someone else".
    expect(runs.some((r) => /unchanged \d+/.test(r.stderr))).toBe(true);
    const list = await runBuilt(["vehicle", "list", "--all", "-o", "ndjson", "--user", "1001"], sandbox.env);
    const prices = list.stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { vehicle_reg_number: string; price_per_day: number })
      .filter((v) => v.vehicle_reg_number.startsWith("AP-"))
      .map((v) => Number(v.price_per_day));
    expect(prices).toHaveLength(100);
    expect(new Set(prices)).toEqual(new Set([77]));
  }, 180_000);
});

describe("--no-wait (one machine)", () => {
  it("a second run of the same import while the first holds it: exit 9 at once, naming the holder; the first finishes", async () => {
    const file = join(machines[0]!.dir, "nowait.ndjson");
    writeFileSync(file, ndjson(rowsOf("NW", 5)));
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    proxy.decide = (req) => (`${req.method} ${req.path}` === CREATE ? { kind: "wait", until: held } : { kind: "pass" });
    const env = machine(0, 1002);
    const first = spawnBuilt(["vehicle", "import", file], env);
    const creates = proxy.creates();
    await waitFor(() => proxy.creates() > creates);
    const second = await runBuilt(["vehicle", "import", file, "--no-wait"], env);
    expect(second.code, second.stderr).toBe(9);
    expect(second.stderr).toMatch(/this import of .*nowait\.ndjson is busy: held by pid \d+/);
    expect(second.stderr).not.toMatch(/waiting for/);
    release();
    const done = await first.done;
    expect(done.code, done.stderr).toBe(0);
    const counts = await regCounts(1002, "NW-");
    expect(counts.size).toBe(5);
  }, 60_000);
});

describe("a killed run's lock", () => {
  it("is taken over at once: a rerun with --no-wait after SIGKILL is not refused on behalf of the dead process", async () => {
    const file = join(machines[1]!.dir, "killed.ndjson");
    writeFileSync(file, ndjson(rowsOf("KL", 40)));
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    proxy.decide = (req) => (`${req.method} ${req.path}` === CREATE ? { kind: "wait", until: held } : { kind: "pass" });
    const env = machine(1, 1002);
    const first = spawnBuilt(["vehicle", "import", file, "--timeout", "2"], env);
    const creates = proxy.creates();
    await waitFor(() => proxy.creates() > creates);
    first.child.kill("SIGKILL");
    await first.done;
    release();
    proxy.decide = () => ({ kind: "pass" });
    const again = await runBuilt(["vehicle", "import", file, "--no-wait", "--timeout", "2"], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toMatch(/busy|waiting for the same/);
    expect(again.stderr).toMatch(/resuming an interrupted import/);
    const counts = await regCounts(1002, "KL-");
    expect(counts.size).toBe(40);
    expect([...counts.values()].filter((n) => n !== 1)).toEqual([]);
  }, 60_000);
});
