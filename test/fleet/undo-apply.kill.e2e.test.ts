import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBuilt, runMain, sandboxEnv } from "../helpers/cli.js";
import { killAndRerun, spawnBuilt, stopWhen } from "../helpers/kill.js";
import { type FaultProxy, ndjson, startProxy, vehicleRow } from "./helpers.js";

/**
 * Undo of a `vehicle apply` runs in the one bulk job (src/bulk/job.ts), so it
 * has a row log: killed at random moments (SIGKILL, while the server commits
 * writes late or drops the connection after committing), the rerun of the
 * same `rentctl undo OP` reconciles the row that was in flight instead of
 * sending it again. After the last rerun the account is what it was before
 * the apply: no vehicle twice, none missing, every price back.
 */

let sandbox: Awaited<ReturnType<typeof sandboxEnv>>;
let proxy: FaultProxy;
let env: NodeJS.ProcessEnv;
const dir = mkdtempSync(join(tmpdir(), "fleet-undo-kill-"));
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

const WRITES = ["create", "edit", "remove"].map((w) => `POST /api/v302/vehicles/${w}`);
const writes = () => WRITES.reduce((n, k) => n + (proxy.counts.get(k) ?? 0), 0);

/** The account as rows without ids (a re-created vehicle gets a new id), sorted. */
async function accountRows(user = USER): Promise<string[]> {
  const r = await runMain(["vehicle", "export", "--format", "ndjson", "--user", user], sandbox.env);
  expect(r.code).toBe(0);
  return r.stdout
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.stringify(JSON.parse(l)))
    .sort();
}

describe("undo of an apply, crash safety (built CLI)", () => {
  it("random SIGKILLs over `undo OP` of an apply (creates, changes, removals): converges to the fleet before the apply, each vehicle once", async () => {
    const existing = Array.from({ length: 40 }, (_, i) => vehicleRow(`UK-${String(i).padStart(3, "0")}`));
    writeFileSync(join(dir, "seed.ndjson"), ndjson(existing));
    expect((await runBuilt(["vehicle", "import", join(dir, "seed.ndjson"), "--user", USER], sandbox.env)).code).toBe(0);
    const before = await accountRows();

    // The apply: 25 price changes, 20 creates, 15 removals (--prune).
    const kept = existing.slice(0, 25).map((r, i) => ({ ...r, price_per_day: 200 + i }));
    const created = Array.from({ length: 20 }, (_, i) => vehicleRow(`UN-${String(i).padStart(3, "0")}`));
    writeFileSync(join(dir, "apply.ndjson"), ndjson([...kept, ...created]));
    const applied = await runBuilt(
      ["vehicle", "apply", "-f", join(dir, "apply.ndjson"), "--prune", "--allow-mass-delete", "--yes", "--user", USER],
      env, // through the proxy: an undo runs only against the address its entry was taken on
    );
    expect(applied.stderr).toMatch(/created 20, changed 25, removed 15, conflict 0, failed 0/);
    const op = /undo with: rentctl undo (\S+)/.exec(applied.stderr)?.[1];
    expect(op).toBeDefined();

    proxy.counts.clear();
    proxy.decide = ({ method }) => {
      if (method !== "POST") return { kind: "pass" };
      const r = Math.random();
      if (r < 0.2) return { kind: "late", delayMs: 400 + Math.random() * 600 };
      if (r < 0.3) return { kind: "drop" };
      return { kind: "late", delayMs: 60 };
    };
    const { kills, last } = await killAndRerun({
      args: ["undo", op!, "--user", USER, "--timeout", "1"],
      env,
      writes,
      maxWritesPerRun: 8,
      maxMs: 2500,
      minKills: 8,
      clearFaults: () => {
        proxy.decide = () => ({ kind: "pass" });
      },
    });
    expect(kills).toBeGreaterThanOrEqual(8);
    expect(last.code).toBe(0);
    expect(last.stderr).toMatch(new RegExp(`apply ${op} undone`));

    // Exactly the fleet before the apply: nothing twice, nothing missing, every price back.
    expect(await accountRows()).toEqual(before);
    // And the undo is recorded as done: a further undo refuses.
    const again = await runBuilt(["undo", op!, "--user", USER], sandbox.env);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already undone/);
  }, 240_000);

  const KILLS = Number(process.env.RENTCTL_UNDO_KILLS ?? 20);

  it(`undo after an apply SIGKILLed at ${KILLS} random points (creates in flight included): the fleet before the apply, each vehicle once, exit 0`, async () => {
    const user = "1002";
    const existing = Array.from({ length: 20 }, (_, i) => vehicleRow(`KA-${String(i).padStart(3, "0")}`));
    writeFileSync(join(dir, "ka-seed.ndjson"), ndjson(existing));
    expect((await runBuilt(["vehicle", "import", join(dir, "ka-seed.ndjson"), "--user", user], sandbox.env)).code).toBe(
      0,
    );
    const before = await accountRows(user);
    // 10 price changes, 15 creates, 10 removals (--prune)
    const file = join(dir, "ka-apply.ndjson");
    writeFileSync(
      file,
      ndjson([
        ...existing.slice(0, 10).map((r, i) => ({ ...r, price_per_day: 300 + i })),
        ...Array.from({ length: 15 }, (_, i) => vehicleRow(`KB-${String(i).padStart(3, "0")}`)),
      ]),
    );
    const apply = ["vehicle", "apply", "-f", file, "--prune", "--allow-mass-delete", "--yes", "--restart"];
    let undone = 0;
    for (let k = 0; k < KILLS; k++) {
      // every write answered late: at the kill, some are in flight and land after the process died
      proxy.decide = ({ method }) =>
        method === "POST" ? { kind: "late", delayMs: 20 + Math.random() * 200 } : { kind: "pass" };
      const start = writes();
      const budget = 1 + Math.floor(Math.random() * 34);
      await stopWhen(spawnBuilt([...apply, "--user", user, "--timeout", "1"], env), () => writes() - start >= budget);
      proxy.decide = () => ({ kind: "pass" });
      const list = await runMain(["undo", "-o", "json", "--user", user], env);
      const entry = (JSON.parse(list.stdout) as Array<{ op: string; action: string; undone: string | null }>).find(
        (e) => e.action === "vehicle.apply" && !e.undone,
      );
      if (!entry) {
        expect(await accountRows(user)).toEqual(before); // killed before its first write
        continue;
      }
      // --settle 2: the killed apply's late writes land within it even on a loaded machine (a 1 s timeout alone is tight)
      const u = await runBuilt(["undo", entry.op, "--user", user, "--timeout", "1", "--settle", "2"], env);
      expect(u.code, u.stderr).toBe(0);
      undone++;
      expect(await accountRows(user), `kill ${k} after ${budget} writes\n${u.stderr}`).toEqual(before);
    }
    expect(undone).toBeGreaterThan(KILLS / 2);
  }, 600_000);

  it("undo of an apply leaves a vehicle changed since the apply alone (exit 7, named) unless --force", async () => {
    const user = "1001";
    const rows = Array.from({ length: 4 }, (_, i) => vehicleRow(`FG-${i}`, { price_per_day: 40 }));
    writeFileSync(join(dir, "fg-seed.ndjson"), ndjson(rows));
    proxy.decide = () => ({ kind: "pass" });
    expect((await runBuilt(["vehicle", "import", join(dir, "fg-seed.ndjson"), "--user", user], env)).code).toBe(0);
    writeFileSync(join(dir, "fg.ndjson"), ndjson(rows.map((r) => ({ ...r, price_per_day: 60 }))));
    const applied = await runBuilt(["vehicle", "apply", "-f", join(dir, "fg.ndjson"), "--yes", "--user", user], env);
    expect(applied.code, applied.stderr).toBe(0);
    const op = /undo with: rentctl undo (\S+)/.exec(applied.stderr)![1]!;
    // a person changes one of them after the apply
    const list = await runBuilt(["vehicle", "list", "--all", "-o", "ndjson", "--user", user], env);
    const fg0 = list.stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id: number; vehicle_reg_number: string })
      .find((v) => v.vehicle_reg_number === "FG-0")!;
    expect(
      (await runBuilt(["vehicle", "edit", String(fg0.id), "--price-per-day", "99", "--user", user], env)).code,
    ).toBe(0);

    const prices = async () => {
      const r = await runBuilt(["vehicle", "list", "--all", "-o", "ndjson", "--user", user], env);
      return Object.fromEntries(
        r.stdout
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { vehicle_reg_number: string; price_per_day: number })
          .filter((v) => v.vehicle_reg_number.startsWith("FG-"))
          .map((v) => [v.vehicle_reg_number, Number(v.price_per_day)]),
      );
    };
    const undo = await runBuilt(["undo", op, "--user", user], env);
    expect(undo.code, undo.stderr).toBe(7);
    expect(undo.stderr).toMatch(/changed since the apply \(price_per_day\)/);
    expect(await prices()).toEqual({ "FG-0": 99, "FG-1": 40, "FG-2": 40, "FG-3": 40 });
    const forced = await runBuilt(["undo", op, "--user", user, "--force"], env);
    expect(forced.code, forced.stderr).toBe(0);
    expect(await prices()).toEqual({ "FG-0": 40, "FG-1": 40, "FG-2": 40, "FG-3": 40 });
  }, 120_000);
});
