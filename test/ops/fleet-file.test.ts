import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { InputError, InterruptedError, PartialFailureError } from "../../src/base/errors.js";
import type { Deps } from "../../src/deps.js";
import { libraryContext } from "../../src/library/context.js";
import { createSandbox, type Sandbox } from "../../src/library/sandbox.js";
import { planAccountDocument } from "../../src/ops/account/plan.js";
import { applyFleet, previewFleetApply } from "../../src/ops/vehicle/apply.js";
import { planFleetFile } from "../../src/ops/vehicle/diff.js";
import { getVehicle } from "../../src/ops/vehicle/get.js";
import { type ImportRowProgress, importFleet, previewImport } from "../../src/ops/vehicle/import.js";
import { ndjson, vehicleRow } from "../fleet/helpers.js";

/**
 * The fleet-file ops (src/ops/vehicle/diff.ts, apply.ts, import.ts) in-process against the
 * sandbox: a plan is data and sends nothing; apply and import run on the bulk job with one undo
 * op, progress and a stop signal; import reports its rows in file order.
 */

let sb: Sandbox;
let dir: string;
let ctx: Deps;
let closeLib: () => Promise<void>;
/** Run before a request is answered (set per test). */
let hook: ((r: { operation: string; fields: Record<string, string | string[]> }) => Promise<void>) | undefined;

beforeAll(async () => {
  sb = await createSandbox({ onRequest: async (r) => hook?.(r) });
  dir = await mkdtemp(join(tmpdir(), "rentctl-fleet-ops-"));
  const lib = libraryContext({ baseUrl: sb.url, apiKey: sb.apiKey, userId: sb.userId, dataDir: join(dir, "data") });
  ctx = lib.deps as Deps;
  closeLib = () => lib.close();
});
afterAll(async () => {
  await closeLib?.();
  await sb?.close();
  await rm(dir, { recursive: true, force: true });
});
afterEach(async () => {
  hook = undefined;
  await sb.reset();
});

const writes = () =>
  sb
    .requests()
    .map((r) => r.operation)
    .filter((op) => /create|update|remove|delete|switch|upload/.test(op) && !op.startsWith("catalog"));

const file = async (name: string, text: string) => {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
};

/** A fleet file that changes vehicle 1's price and adds a vehicle. */
const changeAndCreate = async (name: string, price: number, reg: string) => {
  const v1 = await getVehicle(ctx, { id: 1 });
  const path = await file(
    name,
    ndjson([{ vehicle_reg_number: v1.vehicle_reg_number, price_per_day: price }, vehicleRow(reg)]),
  );
  return { v1, path };
};

describe("planFleetFile", () => {
  it("plans a change and a create against the account, nothing sent; save makes the saved plan", async () => {
    const { path } = await changeAndCreate("plan.ndjson", 77, "OPS 1");
    const before = sb.requests().length;
    const r = await planFleetFile(ctx, { source: { path } }, { save: true });
    expect(writes()).toEqual([]);
    expect(sb.requests().length).toBeGreaterThan(before);
    expect(r.changes).toBe(true);
    expect(r.sync.plan.change.map((c) => [c.vehicle_id, c.fields.price_per_day?.to])).toEqual([[1, 77]]);
    expect(r.sync.plan.create.map((c) => c.reg)).toEqual(["OPS 1"]);
    expect(r.saved?.kind).toBe("vehicle");
    expect(r.saved?.fingerprints.vehicle?.["1"]).toMatch(/^[0-9a-f]{16}$/);
  });

  it("vehicle_extras given by option name resolve to the account's extra ids (as vehicle import reads them)", async () => {
    const v2 = await getVehicle(ctx, { id: 2 });
    const path = await file(
      "extras.ndjson",
      ndjson([{ vehicle_reg_number: v2.vehicle_reg_number, vehicle_extras: ["Child seat (period 1)"] }]),
    );
    const r = await planFleetFile(ctx, { source: { path } });
    const change = r.sync.plan.change.find((c) => c.vehicle_id === 2);
    const planned = change ? change.after.vehicle_extras : v2.vehicle_extras;
    expect((planned as unknown[]).map(Number)).toEqual([1]);
    // an account document's vehicle rows read them the same way (the one reader of rows, src/plans/sync.ts)
    const doc = await planAccountDocument(ctx, {
      source: {
        document: {
          vehicles: [{ vehicle_reg_number: v2.vehicle_reg_number, vehicle_extras: ["Child seat (period 1)"] }],
        },
      },
    });
    const docChange = doc.plan.vehicles.plan.change.find((c) => c.vehicle_id === 2);
    expect(((docChange ? docChange.after.vehicle_extras : v2.vehicle_extras) as unknown[]).map(Number)).toEqual([1]);
    // an unknown name is a problem of the file (exit 2), nothing sent
    const bad = await file(
      "bad-extras.ndjson",
      ndjson([{ vehicle_reg_number: v2.vehicle_reg_number, vehicle_extras: ["Child seat (period 9)"] }]),
    );
    const err = await planFleetFile(ctx, { source: { path: bad } }).catch((e) => e);
    expect(err).toBeInstanceOf(InputError);
    expect(String(err.details?.map((d: { message: string }) => d.message))).toMatch(/Child seat \(period 9\)/);
    expect(writes()).toEqual([]);
  });
});

describe("applyFleet", () => {
  it("applies the file: counts, one undo op, progress per row; the preview matches and sends nothing", async () => {
    const { v1, path } = await changeAndCreate("apply.ndjson", 66, "OPS 2");
    const preview = await previewFleetApply(ctx, { source: { path } });
    expect(writes()).toEqual([]);
    expect(preview.sync.plan.change.length + preview.sync.plan.create.length).toBe(2);
    const seen: string[] = [];
    let shown = 0;
    const r = await applyFleet(
      ctx,
      { source: { path } },
      { show: () => void shown++, onProgress: (p) => seen.push(`${p.key}:${p.status}`) },
    );
    expect(shown).toBe(1);
    expect(r.counts).toEqual({ created: 1, changed: 1 });
    expect(r.undoOp).toBeTruthy();
    expect(seen.sort()).toEqual([`${v1.vehicle_reg_number}:changed`, "OPS 2:created"].sort());
    expect(Number((await getVehicle(ctx, { id: 1 })).price_per_day)).toBe(66);
    // applied again: nothing to do
    const again = await applyFleet(ctx, { source: { path } });
    expect(again.counts).toEqual({});
  });

  it("a stop signal ends it between rows: InterruptedError, the rest not sent", async () => {
    const rows = Array.from({ length: 6 }, (_, i) => vehicleRow(`STOP ${i + 1}`));
    const path = await file("stop.ndjson", ndjson(rows));
    const ac = new AbortController();
    const err = await applyFleet(
      ctx,
      { source: { path }, concurrency: 1 },
      { onProgress: (p) => p.done === 2 && ac.abort(), signal: ac.signal },
    ).catch((e) => e);
    expect(err).toBeInstanceOf(InterruptedError);
    const created = writes().filter((op) => op === "vehicles.create").length;
    expect(created).toBeGreaterThanOrEqual(2);
    expect(created).toBeLessThan(6);
  });
});

describe("importFleet", () => {
  it("creates the missing vehicles: counts, one undo op; the preview names each row in file order", async () => {
    const v1 = await getVehicle(ctx, { id: 1 });
    const path = await file(
      "import.ndjson",
      ndjson([vehicleRow("IMP 1"), vehicleRow(String(v1.vehicle_reg_number)), vehicleRow("IMP 3")]),
    );
    const preview: string[] = [];
    const p = await previewImport(
      ctx,
      { source: { path } },
      { onRow: (r) => void preview.push(`${r.row}:${r.status}`) },
    );
    expect(preview).toEqual(["1:would create", "2:exists", "3:would create"]);
    expect(p.counts).toEqual({ "would create": 2, exists: 1, invalid: 0 });
    expect(writes()).toEqual([]);
    const r = await importFleet(ctx, { source: { path } });
    expect(r.counts).toEqual({ created: 2, exists: 1 });
    expect(r.undoOp).toBeTruthy();
  });

  it("an invalid row: InputError listing it, nothing sent", async () => {
    const path = await file(
      "invalid.ndjson",
      ndjson([vehicleRow("INV 1"), { vehicle_reg_number: "INV 2", colour: 1 }]),
    );
    const err = await importFleet(ctx, { source: { path } }).catch((e) => e);
    expect(err).toBeInstanceOf(InputError);
    expect(writes()).toEqual([]);
  });

  it("reports rows in file order though they finish out of order (the report file; progress as they finish)", async () => {
    const rows = [
      vehicleRow("ORD 1"),
      { vehicle_reg_number: "ORD 2", colour: 1 },
      vehicleRow("ORD 3"),
      vehicleRow("ORD 4"),
    ];
    const path = await file("order.ndjson", ndjson(rows));
    const report = join(dir, "order-report.ndjson");
    // the create of row 1 is held until row 3's create has finished
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    hook = async (r) => {
      if (r.operation === "vehicles.create" && r.fields.vehicle_reg_number === "ORD 1") await held;
    };
    const finished: number[] = [];
    const err = await importFleet(
      ctx,
      { source: { path }, concurrency: 4, skipInvalid: true, report },
      {
        onProgress: (p: ImportRowProgress) => {
          finished.push(p.row);
          if (p.row === 3) release();
        },
      },
    ).catch((e) => e);
    // the invalid row fails the import (exit 7) once the others are done
    expect(err).toBeInstanceOf(PartialFailureError);
    expect(finished.indexOf(3)).toBeLessThan(finished.indexOf(1));
    const lines = (await readFile(report, "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { row: number; status: string });
    expect(lines.map((l) => [l.row, l.status])).toEqual([
      [1, "created"],
      [2, "invalid"],
      [3, "created"],
      [4, "created"],
    ]);
  });
});
