import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sampleVehicleInput } from "../../src/sandbox/seed.js";
import { walPath } from "../../src/sandbox/store.js";
import { tempHome } from "../helpers/cli.js";
import { seeded } from "../helpers/random.js";
import { Api, allVehicles, KEY_1001, spawnServe, until } from "./helpers.js";

/**
 * Crash safety of the data file under real processes: `sandbox serve` of
 * the built CLI is SIGKILLed at random points while 4 clients create
 * vehicles, with a compaction bound so small that a snapshot is being
 * written most of the time (so kills land during compactions too). After
 * the last restart every acknowledged create must be there exactly once.
 */

let home: ReturnType<typeof tempHome>;
beforeEach(() => {
  home = tempHome();
});
afterEach(() => home.cleanup());

describe("sandbox serve under SIGKILL", () => {
  it("every acknowledged write survives, nothing is duplicated, also when killed mid-compaction", async () => {
    const seed = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
    const random = seeded(seed);
    const dir = join(home.dir, "crash");
    const file = join(dir, "sandbox.json");
    const env = { ...home.env, RENTCTL_SANDBOX_COMPACT_BYTES: "4096" };
    const acked = new Map<string, number>(); // registration number -> id answered
    const errors: string[] = [];
    const compacting = () => readdirSync(dir).some((n) => n.endsWith(".tmp"));
    let next = 0;
    let killsMidCompaction = 0;
    const ROUNDS = 8;

    for (let round = 0; round < ROUNDS; round++) {
      const sb = await spawnServe(["--data", file], env);
      const api = new Api(sb.url, KEY_1001);
      let killed = false;
      const writer = async (): Promise<void> => {
        while (!killed) {
          const reg = `K-${next++}`;
          try {
            const r = await api.post("vehicles/create", { ...sampleVehicleInput(1001), vehicle_reg_number: reg });
            if (r.status === 200) acked.set(reg, r.body.data.id);
            else errors.push(`${reg}: ${r.status} ${r.text}`);
          } catch (err) {
            // A request cut off by the kill may or may not have been applied: never retried.
            if (!killed) errors.push(`${reg}: ${(err as Error).message}`);
          }
        }
      };
      const writers = Array.from({ length: 4 }, writer);
      const target = acked.size + 5 + Math.floor(random() * 40);
      expect(await until(() => acked.size >= target || errors.length > 0), `seed ${seed}`).toBe(true);
      // Every other round, aim the kill at a running compaction (bounded wait; under load it may miss).
      if (round % 2 === 1) await until(compacting, 5_000);
      if (compacting()) killsMidCompaction++;
      sb.child.kill("SIGKILL");
      killed = true;
      await sb.exited;
      await Promise.allSettled(writers);
    }

    const final = await spawnServe(["--data", file], home.env);
    try {
      const vehicles = await allVehicles(new Api(final.url, KEY_1001));
      const byReg = new Map<string, number[]>();
      for (const v of vehicles) {
        const reg = String((v as { vehicle_reg_number?: unknown }).vehicle_reg_number);
        byReg.set(reg, [...(byReg.get(reg) ?? []), v.id]);
      }
      const context = `seed ${seed}, ${acked.size} acknowledged, ${killsMidCompaction} kills mid-compaction`;
      expect(errors, context).toEqual([]);
      expect(acked.size, context).toBeGreaterThan(ROUNDS * 5);
      expect(killsMidCompaction, context).toBeGreaterThan(0);
      for (const [reg, id] of acked) expect(byReg.get(reg), `${reg} (${context})`).toEqual([id]);
      for (const [reg, ids] of byReg) expect(ids.length, `${reg} duplicated (${context})`).toBe(1);
      expect(new Set(vehicles.map((v) => v.id)).size).toBe(vehicles.length);
      // Unacknowledged creates (cut off by a kill) may exist, but only ones that were sent.
      for (const reg of byReg.keys()) if (reg.startsWith("K-")) expect(Number(reg.slice(2))).toBeLessThan(next);
    } finally {
      final.child.kill("SIGINT");
    }
    expect(await final.exited).toBe(0);
    // The clean stop folded the journal into the snapshot and left no temp file.
    expect(readFileSync(walPath(file), "utf8")).toBe("");
    expect(readdirSync(dir).filter((n) => n.endsWith(".tmp"))).toEqual([]);
    console.log(
      `crash test: seed ${seed}, ${acked.size} acknowledged writes, ${killsMidCompaction}/${ROUNDS} kills mid-compaction`,
    );
  }, 180_000);
});
