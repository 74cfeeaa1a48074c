import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { type FaultProxy, ndjson, spawnBuilt, startProxy, vehicleRow, waitFor } from "../fleet/helpers.js";
import { runBuilt, sandboxEnv, tempHome } from "../helpers/cli.js";

/**
 * Convergence across machines (issue "exactly once, even two at a time",
 * §2): two rentctl processes with SEPARATE config and data dirs (two
 * machines: no lock can reach between them) run the same import or apply
 * against one server at the same time. A proxy holds every create until both
 * runs have sent their first create (so both planned the whole account
 * before any create landed): the race is certain, not a matter of timing. The identity check after the
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

/**
 * The env of machine `i`: its own config and data dir, the shared server behind the proxy. Machine 0 asks
 * for locale 25, so the proxy can tell its requests from machine 1's (every create carries `locale_id`).
 */
const machine = (i: number, user: number) => ({
  ...machines[i]!.env,
  RENTCTL_ENV: "sandbox",
  RENTCTL_BASE_URL: proxy.url,
  RENTCTL_USER_ID: String(user),
  ...(i === 0 ? { RENTCTL_LOCALE: "25" } : {}),
});

const fromMachine0 = (body: Buffer) => /locale_id=25\b/.test(body.toString());

/**
 * Every create (vehicles and extras) waits until both machines have sent one: a run sends its first create
 * only once its plan is made, so both plans are made before any create lands, whatever the page count of
 * the listings or the start-up time of either process.
 */
function holdCreatesUntilBothPlanned(): void {
  const seen = [false, false];
  let release!: () => void;
  const both = new Promise<void>((r) => {
    release = r;
  });
  proxy.decide = (req) => {
    if (req.method !== "POST" || !/\/(vehicles|extras)\/create$/.test(req.path)) return { kind: "pass" };
    seen[fromMachine0(req.body) ? 0 : 1] = true;
    if (seen[0] && seen[1]) release();
    return { kind: "wait", until: both };
  };
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
      holdCreatesUntilBothPlanned();
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
    holdCreatesUntilBothPlanned();
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
    holdCreatesUntilBothPlanned();
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

/** The extras of an owner, straight from the server. */
async function extrasOf(user: number): Promise<Array<{ id: number; option_id: number; period: number }>> {
  const r = await runBuilt(["extra", "list", "--all", "-o", "ndjson", "--user", String(user)], sandbox.env);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: number; option_id: number; period: number });
}

/** An account file: `extras` (option, period) new to the account, and `n` vehicles using all of them. */
async function accountFile(name: string, prefix: string, extras: Array<[number, number]>, n: number): Promise<string> {
  const base = parse((await runBuilt(["account", "export", "-", "--user", "1001"], sandbox.env)).stdout) as {
    vehicles: Record<string, unknown>[];
  };
  const sample = { ...base.vehicles[0]! };
  delete sample.extras;
  delete sample.vehicle_vin;
  const file = join(machines[0]!.dir, name);
  writeFileSync(
    file,
    stringify({
      extras: extras.map(([option, period]) => ({ option, period, price: 4, currency: 1, quantity: 2 })),
      vehicles: Array.from({ length: n }, (_, i) => ({
        ...sample,
        vehicle_reg_number: `${prefix}-${String(i).padStart(3, "0")}`,
        extras: extras.map(([option, period]) => ({ option, period })),
      })),
    }),
  );
  return file;
}

/** The account's state for a prefix: the extras of these options, the vehicles of the prefix (with their links). */
async function accountState(user: number, prefix: string, options: number[]) {
  const extras = (await extrasOf(user)).filter((e) => options.includes(Number(e.option_id)));
  const r = await runBuilt(["vehicle", "list", "--all", "-o", "ndjson", "--user", String(user)], sandbox.env);
  const vehicles = r.stdout
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: number; vehicle_reg_number: string; vehicle_extras?: number[] })
    .filter((v) => v.vehicle_reg_number.startsWith(`${prefix}-`));
  return { extras, vehicles };
}

describe("two machines, the same account apply at the same time (issue 41 item 0)", () => {
  // one round per option the account has no extra of yet (6, 7, 8)
  const XA_ROUNDS = Math.min(ROUNDS, 3);
  it(`2 extras and 50 vehicles, ${XA_ROUNDS} rounds: each extra once (the lowest id), each vehicle once using it, both exit 0, reruns plan nothing`, async () => {
    for (let round = 0; round < XA_ROUNDS; round++) {
      // an option no extra of the account has yet, with both periods the server knows
      const option = 6 + round;
      const prefix = `XA${round}`;
      const file = await accountFile(
        `xa${round}.yaml`,
        prefix,
        [
          [option, 1],
          [option, 2],
        ],
        50,
      );
      const before = new Set((await extrasOf(1002)).map((e) => e.id));
      holdCreatesUntilBothPlanned();
      const runs = await Promise.all(
        [0, 1].map((i) => runBuilt(["account", "apply", "-f", file, "--yes", "-o", "ndjson"], machine(i, 1002))),
      );
      proxy.decide = () => ({ kind: "pass" });
      for (const r of runs) expect(r.code, r.stderr).toBe(0);
      const { extras, vehicles } = await accountState(1002, prefix, [option]);
      expect(extras.map((e) => [Number(e.option_id), Number(e.period)]).sort()).toEqual([
        [option, 1],
        [option, 2],
      ]);
      // The race was real: both runs created each extra, and the later copies are gone (the lowest ids kept).
      const count = (word: string) =>
        runs.map((r) => Number(new RegExp(`${word} (\\d+)`).exec(r.stderr)?.[1] ?? 0)).reduce((a, b) => a + b);
      // each run did all 52 rows; what one created twice it removed again (deduplicated), keeping the other's
      expect(count("created"), runs.map((r) => r.stderr).join("\n")).toBe(52);
      expect(count("deduplicated")).toBe(52);
      for (const e of extras) expect(before.has(e.id)).toBe(false);
      // Duplicate extras are counted and reported per row, as duplicate vehicles are.
      const statuses = runs.flatMap((r) =>
        r.stdout
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { status: string; identity?: string; key?: string }),
      );
      expect(statuses.filter((s) => s.status === "deduplicated").length).toBeGreaterThanOrEqual(2);
      expect(runs.some((r) => /deduplicated \d+/.test(r.stderr))).toBe(true);
      expect(vehicles).toHaveLength(50);
      expect(new Set(vehicles.map((v) => v.vehicle_reg_number)).size).toBe(50);
      const kept = extras.map((e) => e.id).sort((a, b) => a - b);
      for (const v of vehicles) expect([...(v.vehicle_extras ?? [])].sort((a, b) => a - b)).toEqual(kept);
      // Not stuck: each machine's rerun plans nothing.
      for (const i of [0, 1]) {
        const again = await runBuilt(["account", "diff", "-f", file], machine(i, 1002));
        expect(again.code, again.stderr).toBe(0);
        expect(again.stdout).toMatch(/0 to create, 0 to change, 0 to remove/);
      }
    }
  }, 300_000);

  /**
   * Machine 0 (locale 25, so the proxy can tell its requests) plans first; its creates are held until
   * machine 1 has applied the same file, so every vehicle or extra it creates is a later copy.
   */
  async function killedAfterTheOther(opts: {
    file: string;
    decideLate: (req: { method: string; path: string }) => "pass" | "hang";
    killWhen: () => boolean;
  }) {
    let otherDone!: () => void;
    const released = new Promise<void>((r) => {
      otherDone = r;
    });
    let after = false;
    const isCreate = (req: { method: string; path: string; body: Buffer }) =>
      req.method === "POST" && /\/(vehicles|extras)\/create$/.test(req.path);
    proxy.decide = (req) => {
      if (!isCreate(req) || !fromMachine0(req.body)) return { kind: "pass" };
      if (!after) return { kind: "wait", until: released };
      return { kind: opts.decideLate(req) };
    };
    const lists = proxy.counts.get(LIST) ?? 0;
    const env = machine(0, 1001);
    const killed = spawnBuilt(["account", "apply", "-f", opts.file, "--yes", "--concurrency", "2"], env);
    await waitFor(() => (proxy.counts.get(LIST) ?? 0) > lists);
    const other = await runBuilt(["account", "apply", "-f", opts.file, "--yes"], machine(1, 1001));
    expect(other.code, other.stderr).toBe(0);
    after = true;
    otherDone();
    await waitFor(opts.killWhen);
    killed.child.kill("SIGKILL");
    const k = await killed.done;
    expect(k.signal, k.stderr).toBe("SIGKILL");
    proxy.decide = () => ({ kind: "pass" });
    return env;
  }

  it("one of the two SIGKILLed midway: its rerun removes the duplicate vehicles it left, then finishes; each vehicle once", async () => {
    const options = [10, 11];
    const prefix = "XK";
    const file = await accountFile(
      "xk.yaml",
      prefix,
      options.map((o): [number, number] => [o, 1]),
      50,
    );
    const creates = proxy.creates();
    const env = await killedAfterTheOther({
      file,
      decideLate: () => "pass",
      // machine 1 created 50; machine 0's copies: 20 of them
      killWhen: () => proxy.creates() >= creates + 50 + 20,
    });
    // What the issue saw: the killed run's copies stay (the other run removed only its own, and had none).
    const left = await accountState(1001, prefix, options);
    expect(left.vehicles.length).toBeGreaterThanOrEqual(50 + 20);
    const rerun = await runBuilt(["account", "apply", "-f", file, "--yes", "-o", "ndjson"], env);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toMatch(/resuming an interrupted account apply/);
    expect(Number(/deduplicated (\d+)/.exec(rerun.stderr)?.[1])).toBeGreaterThanOrEqual(20);
    const rows = rerun.stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { status: string });
    expect(rows.filter((r) => r.status === "deduplicated").length).toBeGreaterThanOrEqual(20);
    const now = await accountState(1001, prefix, options);
    expect(now.extras).toHaveLength(2);
    expect(now.vehicles).toHaveLength(50);
    expect(new Set(now.vehicles.map((v) => v.vehicle_reg_number)).size).toBe(50);
    const ids = new Set(now.extras.map((e) => e.id));
    for (const v of now.vehicles) expect(new Set(v.vehicle_extras)).toEqual(ids);
    // The removals are recorded (in the undo history, as an op of their own): undoable.
    const journal = readFileSync(join(machines[0]!.dir, "data", "journal.jsonl"), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { op: string; action: string; batch?: string; before: { dedupe?: boolean } });
    const op = journal.find((e) => e.action === "vehicle.apply" && e.before.dedupe === true)?.op;
    expect(op).toBeDefined();
    expect(journal.filter((e) => e.batch === op && e.action === "vehicle.remove").length).toBeGreaterThanOrEqual(20);
  }, 180_000);

  it("SIGKILLed while its extra creates were in flight, which landed after the other run: the rerun's identity check removes the copies before the plan (which would refuse two extras of one option and period)", async () => {
    const options = [3, 8];
    const prefix = "XE";
    const file = await accountFile(
      "xe.yaml",
      prefix,
      options.map((o): [number, number] => [o, 2]),
      10,
    );
    const EXTRA_CREATE = "POST /api/v302/vehicles/extras/create";
    const made = () => proxy.counts.get(EXTRA_CREATE) ?? 0;
    const before = made();
    let release!: () => void;
    const released = new Promise<void>((r) => {
      release = r;
    });
    // machine 0's extra creates are held in the proxy (the server gets them later, after machine 1's)
    proxy.decide = (req) =>
      `${req.method} ${req.path}` === EXTRA_CREATE && fromMachine0(req.body)
        ? { kind: "wait", until: released }
        : { kind: "pass" };
    const env = machine(0, 1001);
    const killed = spawnBuilt(["account", "apply", "-f", file, "--yes", "--concurrency", "2"], env);
    await waitFor(() => made() >= before + 2 || killed.child.exitCode !== null);
    expect(killed.child.exitCode, killed.stderr()).toBeNull();
    killed.child.kill("SIGKILL");
    expect((await killed.done).signal).toBe("SIGKILL");
    const other = await runBuilt(["account", "apply", "-f", file, "--yes"], machine(1, 1001));
    expect(other.code, other.stderr).toBe(0);
    release();
    // the killed run's creates land now, after the other run's: the account holds each extra twice
    let left = await accountState(1001, prefix, options);
    for (let i = 0; i < 100 && left.extras.length < 4; i++) left = await accountState(1001, prefix, options);
    expect(left.extras).toHaveLength(4);
    proxy.decide = () => ({ kind: "pass" });
    const diff = await runBuilt(["account", "diff", "-f", file], env);
    expect(diff.code, diff.stderr).toBe(2);
    expect(diff.stderr).toMatch(/pin one with extra_id/);
    const rerun = await runBuilt(["account", "apply", "-f", file, "--yes", "--timeout", "2"], env);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toMatch(/deduplicated 2/);
    const now = await accountState(1001, prefix, options);
    // the kept ones are the lowest ids (machine 1's), which its vehicles use
    const lowest = left.extras.map((e) => e.id).sort((a, b) => a - b);
    expect(now.extras.map((e) => e.id).sort((a, b) => a - b)).toEqual(lowest.slice(0, 2));
    expect(now.vehicles).toHaveLength(10);
    for (const v of now.vehicles) expect(new Set(v.vehicle_extras)).toEqual(new Set(lowest.slice(0, 2)));
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
