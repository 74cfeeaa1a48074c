import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sampleVehicleInput } from "../../src/sandbox/seed.js";
import { Store, walPath } from "../../src/sandbox/store.js";
import { allVehicles, start, tempDir } from "./helpers.js";

/**
 * The sandbox takes concurrent load without errors or lost writes (issue 12:
 * 8 clients creating 10,000 vehicles; bench/sandbox.mjs runs that scale, this
 * test 8 x 250 so it stays quick).
 */

let dir: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = tempDir());
});
afterEach(() => cleanup());

describe("concurrent load", () => {
  it("8 clients x 250 creates: every answer 200, ids unique, count exact, journal intact and replayable", async () => {
    const file = join(dir, "sandbox.json");
    // A small compaction bound so snapshots are written while the load runs.
    const { sb, api } = await start({ dataFile: file, compactBytes: 64 * 1024 });
    const before = (await allVehicles(api)).length;
    const CLIENTS = 8;
    const EACH = 250;
    const answered = await Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        const ids: number[] = [];
        for (let i = 0; i < EACH; i++) {
          const r = await api.post("vehicles/create", {
            ...sampleVehicleInput(1001),
            vehicle_reg_number: `L-${c}-${i}`,
          });
          expect(r.status, r.text).toBe(200);
          ids.push(r.body.data.id);
        }
        return ids;
      }),
    );
    const ids = answered.flat();
    expect(new Set(ids).size).toBe(CLIENTS * EACH);

    const listed = await allVehicles(api);
    expect(listed).toHaveLength(before + CLIENTS * EACH);
    const regs = listed.map((v) => String((v as { vehicle_reg_number?: unknown }).vehicle_reg_number));
    for (let c = 0; c < CLIENTS; c++) for (let i = 0; i < EACH; i++) expect(regs).toContain(`L-${c}-${i}`);
    expect(new Set(listed.map((v) => v.id)).size).toBe(listed.length);

    // The journal reads whole (one file read: before or after a compaction's rewrite, never half of it):
    // every line valid JSON, sequence numbers consecutive.
    const seqs = readFileSync(walPath(file), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l).s as number);
    for (let i = 1; i < seqs.length; i++) expect(seqs[i]).toBe((seqs[i - 1] as number) + 1);
    await sb.close();

    // Reopened (snapshot, journal replay), the store holds exactly what was answered.
    const store = await Store.open(file);
    expect(store.vehicleCount(1001)).toBe(listed.length);
    for (const id of ids) expect(store.vehicles.has(id)).toBe(true);
    await store.close();
  }, 120_000);
});
