import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StalePlanError, UsageError } from "../../src/base/errors.js";
import { applyAccountPlan } from "../../src/ops/account/apply.js";
import { checkSavedAccountPlan, planAccountDocument } from "../../src/ops/account/plan.js";
import { editVehicle } from "../../src/ops/vehicle/edit.js";
import { type OpBench, opBench } from "./helpers.js";

/**
 * The one "plan an account document and save the plan" (src/ops/account/plan.ts) with its one
 * stale check, and the apply of a saved plan (src/ops/account/apply.ts), in-process.
 */

let b: OpBench;
beforeAll(async () => {
  b = await opBench();
});
afterAll(async () => {
  await b?.close();
});

const doc = (price: number) => ({ vehicles: [{ vehicle_reg_number: "B-SC 1001", price_per_day: price }] });

describe("planAccountDocument", () => {
  it("plans a document: no changes when the account matches; a saved plan only when asked", async () => {
    const now = await planAccountDocument(b.ctx, { source: { document: { vehicles: [] } } });
    expect(now.changes).toBe(false);
    expect(now.saved).toBeUndefined();
    b.mark();
    const p = await planAccountDocument(b.ctx, { source: { document: doc(51) } }, { save: true });
    expect(p.changes).toBe(true);
    expect(p.saved).toMatchObject({ kind: "account", input: { prune: false, exact: false } });
    expect(p.saved!.plan).toMatchObject({
      vehicles: { change: [{ vehicle_id: 1, fields: { price_per_day: { to: 51 } } }] },
    });
    expect(b.sent().every((op) => op.endsWith(".list") || op.startsWith("catalog."))).toBe(true);
  });

  it("a document that is no object is refused before anything is read", async () => {
    await expect(planAccountDocument(b.ctx, { source: { document: 5 as never } })).rejects.toThrow(
      /a file path or an account document/,
    );
  });
});

describe("checkSavedAccountPlan and applyAccountPlan", () => {
  it("a saved plan still current passes the stale check; after the record moves it is stale", async () => {
    const { saved } = await planAccountDocument(b.ctx, { source: { document: doc(52) } }, { save: true });
    const plan = await checkSavedAccountPlan(b.ctx, saved!);
    expect(plan.vehicles.plan.change.length).toBe(1);
    await editVehicle(b.ctx, { id: 1, changes: { price_per_day: 53 } });
    await expect(checkSavedAccountPlan(b.ctx, saved!)).rejects.toBeInstanceOf(StalePlanError);
  });

  it("applies exactly the saved plan, reporting each row; out-of-range concurrency is a usage error, nothing sent", async () => {
    const { saved } = await planAccountDocument(b.ctx, { source: { document: doc(54) } }, { save: true });
    b.mark();
    const bad = await applyAccountPlan(b.ctx as never, { saved: saved!, concurrency: 17 }).catch((e) => e);
    expect(bad).toBeInstanceOf(UsageError);
    expect(b.sent()).toEqual([]);
    const rows: string[] = [];
    const r = await applyAccountPlan(
      b.ctx as never,
      { saved: saved! },
      { onProgress: (p) => rows.push(`${p.status} ${p.done}/${p.total}`) },
    );
    expect(r.counts.changed).toBe(1);
    expect(rows).toEqual(["changed 1/1"]);
    await expect(applyAccountPlan(b.ctx as never, { saved: saved! })).rejects.toBeInstanceOf(StalePlanError);
  });
});
