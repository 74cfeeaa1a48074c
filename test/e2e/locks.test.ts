import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ndjson, vehicleRow } from "../fleet/helpers.js";
import { runBuilt, sandboxEnv, tempHome } from "../helpers/cli.js";

/**
 * Files several rentctl processes share are changed under one lock module
 * (src/base/lock.ts), proven with real processes at the same time: config
 * writers lose nothing, concurrent edits get distinct undo ops, a lock held
 * by a live process ends a bounded wait with exit 9 naming the holder, and a
 * lock left by a dead process is taken over.
 */

describe("config writers at the same time (built CLI)", () => {
  it("20 concurrent `profile set` × 3 rounds: every write kept, the file valid and 0600", async () => {
    const home = tempHome();
    try {
      for (let round = 0; round < 3; round++) {
        const runs = Array.from({ length: 20 }, (_, i) =>
          runBuilt(["-p", `w${round}-${i}`, "profile", "set", "user", String(2000 + i)], home.env),
        );
        for (const r of await Promise.all(runs)) expect(r.code, r.stderr).toBe(0);
      }
      const file = join(home.dir, "config", "config.json");
      const config = JSON.parse(readFileSync(file, "utf8")) as { profiles: Record<string, { userId?: number }> };
      for (let round = 0; round < 3; round++)
        for (let i = 0; i < 20; i++) expect(config.profiles[`w${round}-${i}`], `w${round}-${i}`).toBeDefined();
      expect(Object.keys(config.profiles)).toHaveLength(60);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    } finally {
      home.cleanup();
    }
  }, 120_000);

  it("a lock held by a live process: a bounded wait, then exit 9 naming the holder; a dead holder's lock is taken over", async () => {
    const home = tempHome();
    try {
      const dir = join(home.dir, "config");
      mkdirSync(dir, { recursive: true });
      const lockFile = join(dir, "config.json.lock");
      const holder = { pid: process.pid, host: hostname(), command: "test holder", since: new Date().toISOString() };
      writeFileSync(lockFile, JSON.stringify(holder));
      const busy = await runBuilt(["profile", "set", "user", "7"], { ...home.env, RENTCTL_LOCK_TIMEOUT: "0.3" });
      expect(busy.code).toBe(9);
      expect(busy.stderr).toMatch(new RegExp(`the config file is busy: held by pid ${process.pid} on .*test holder`));
      expect(busy.stderr).not.toMatch(/at .*\.js:\d+/); // one clear line, no stack

      // The holder is gone (a process that has exited): its lock is stale and taken over at once.
      const dead = spawnSync(process.execPath, ["-e", "0"]).pid!;
      writeFileSync(lockFile, JSON.stringify({ ...holder, pid: dead }));
      const ok = await runBuilt(["profile", "set", "user", "7"], { ...home.env, RENTCTL_LOCK_TIMEOUT: "0.3" });
      expect(ok.code, ok.stderr).toBe(0);
      expect(() => statSync(lockFile)).toThrow(); // released
    } finally {
      home.cleanup();
    }
  }, 60_000);
});

describe("undo history at the same time (built CLI)", () => {
  let sandbox: Awaited<ReturnType<typeof sandboxEnv>>;
  beforeAll(async () => {
    sandbox = await sandboxEnv();
  });
  afterAll(async () => sandbox.cleanup());

  it("10 concurrent edits of 10 vehicles: 10 distinct undo ops, and `undo OP` restores exactly its vehicle", async () => {
    const env = sandbox.env;
    const file = join(sandbox.env.HOME!, "ten.ndjson");
    writeFileSync(file, ndjson(Array.from({ length: 10 }, (_, i) => vehicleRow(`LK-${i}`, { price_per_day: 50 }))));
    const imported = await runBuilt(["vehicle", "import", file, "--user", "1003", "-q"], env);
    expect(imported.code, imported.stderr).toBe(0);
    const ids = imported.stdout.trim().split("\n").map(Number);
    expect(ids).toHaveLength(10);

    const edits = await Promise.all(
      ids.map((id, i) =>
        runBuilt(
          ["vehicle", "edit", String(id), "--price-per-day", String(60 + i), "--user", "1003", "-o", "json"],
          env,
        ),
      ),
    );
    const ops = edits.map((r) => {
      expect(r.code, r.stderr).toBe(0);
      return String((JSON.parse(r.stdout) as { undo: string }).undo);
    });
    expect(new Set(ops).size).toBe(10);

    // Undo the edit of the 4th vehicle: only it goes back to 50.
    const u = await runBuilt(["undo", ops[3]!, "--user", "1003"], env);
    expect(u.code, u.stderr).toBe(0);
    const prices = await Promise.all(
      ids.map(async (id) => {
        const g = await runBuilt(["vehicle", "get", String(id), "--user", "1003", "-o", "json"], env);
        return Number((JSON.parse(g.stdout) as { price_per_day: number }).price_per_day);
      }),
    );
    expect(prices).toEqual(ids.map((_, i) => (i === 3 ? 50 : 60 + i)));
  }, 120_000);
});

describe("the same bulk job twice at once, one machine (built CLI)", () => {
  let sandbox: Awaited<ReturnType<typeof sandboxEnv>>;
  beforeAll(async () => {
    sandbox = await sandboxEnv();
  });
  afterAll(async () => sandbox.cleanup());

  const regs = async () => {
    const r = await runBuilt(["vehicle", "list", "--all", "-o", "ndjson", "--user", "1003"], sandbox.env);
    return r.stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => String((JSON.parse(l) as { vehicle_reg_number: string }).vehicle_reg_number));
  };

  it("two identical imports (300 rows) and then two identical applies at once: each vehicle once, both exit 0", async () => {
    const env = sandbox.env;
    const file = join(env.HOME!, "twice.ndjson");
    const rows = Array.from({ length: 300 }, (_, i) => vehicleRow(`TW-${String(i).padStart(3, "0")}`));
    writeFileSync(file, ndjson(rows));
    const both = await Promise.all([0, 1].map(() => runBuilt(["vehicle", "import", file, "--user", "1003"], env)));
    for (const r of both) expect(r.code, r.stderr).toBe(0);
    // One created them all; the other waited for it and found them there.
    expect(both.some((r) => /waiting for the same import of/.test(r.stderr))).toBe(true);
    expect(both.map((r) => /created (\d+)/.exec(r.stderr)?.[1]).sort()).toEqual(["0", "300"]);
    let now = await regs();
    expect(now).toHaveLength(300);
    expect(new Set(now).size).toBe(300);

    // An apply: 100 price changes and 100 creates, twice at once.
    const applyFile = join(env.HOME!, "apply-twice.ndjson");
    writeFileSync(
      applyFile,
      ndjson([
        ...rows.map((r, i) => (i < 100 ? { ...r, price_per_day: 70 } : r)),
        ...Array.from({ length: 100 }, (_, i) => vehicleRow(`TA-${String(i).padStart(3, "0")}`)),
      ]),
    );
    const applies = await Promise.all(
      [0, 1].map(() => runBuilt(["vehicle", "apply", "-f", applyFile, "--yes", "--user", "1003"], env)),
    );
    for (const r of applies) expect(r.code, r.stderr).toBe(0);
    now = await regs();
    expect(now).toHaveLength(400);
    expect(new Set(now).size).toBe(400);
  }, 180_000);

  it("two undos of the same apply at once: the account is back, each vehicle once; both exit 0", async () => {
    const env = sandbox.env;
    const before = (await regs()).sort();
    const keep = join(env.HOME!, "keep.ndjson");
    writeFileSync(keep, ndjson(before.slice(0, before.length - 50).map((reg) => vehicleRow(reg))));
    const applied = await runBuilt(
      ["vehicle", "apply", "-f", keep, "--prune", "--allow-mass-delete", "--yes", "--user", "1003"],
      env,
    );
    expect(applied.stderr).toMatch(/removed 50/);
    const op = /undo with: rentctl undo (\S+)/.exec(applied.stderr)![1]!;
    const undos = await Promise.all([0, 1].map(() => runBuilt(["undo", op, "--user", "1003"], env)));
    for (const u of undos) expect(u.code, u.stderr).toBe(0);
    expect((await regs()).sort()).toEqual(before);
  }, 120_000);
});

describe("the embedded sandbox, several commands at once (built CLI)", () => {
  it("8 parallel `vehicle create` on one data dir take turns on the data file: all exit 0, 8 vehicles", async () => {
    const home = tempHome();
    try {
      const env = { ...home.env, RENTCTL_ENV: "sandbox" };
      const example = join(import.meta.dirname, "../../examples/vehicle.yaml");
      const runs = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          runBuilt(["vehicle", "create", "--from-file", example, "--reg", `PAR-${i}`, "--user", "1003", "-q"], env),
        ),
      );
      for (const r of runs) expect(r.code, r.stderr).toBe(0);
      const list = await runBuilt(["vehicle", "list", "--all", "-q", "--user", "1003"], env);
      expect(list.stdout.trim().split("\n")).toHaveLength(8);
    } finally {
      home.cleanup();
    }
  }, 120_000);
});
