import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StalePlanError } from "../../src/base/errors.js";
import type { Deps } from "../../src/deps.js";
import { editVehicle } from "../../src/ops/vehicle/edit.js";
import { planEditMany } from "../../src/ops/vehicle/edit-many.js";
import { applySavedEditPlan, checkSavedEditPlan, saveEditPlan } from "../../src/ops/vehicle/edit-plan.js";
import { getVehicle } from "../../src/ops/vehicle/get.js";
import { checkSavedPlan } from "../../src/plans/saved-plan.js";
import { type OpBench, opBench } from "./helpers.js";

/**
 * A saved plan of many vehicles (src/ops/vehicle/edit-plan.ts), in-process against the sandbox:
 * saved by id with a fingerprint of each vehicle, refused as stale when one moved, applied by the
 * edit-many apply with one undo op.
 */

let b: OpBench;
beforeAll(async () => {
  b = await opBench();
});
afterAll(async () => {
  await b?.close();
});

const price = async (id: number) => Number((await getVehicle(b.ctx, { id })).price_per_day);

const planPrice = async (id: number, value: number) => {
  const { plan } = await planEditMany(b.ctx, { selection: { ids: [id] }, values: { price_per_day: value } });
  return saveEditPlan(b.ctx, plan, { intent: { ids: [id], price_per_day: value }, label: "test.json" });
};

describe("saved edit plans", () => {
  it("saves the plan by id (kind edit, a fingerprint per vehicle, the account plan's counts), nothing sent", async () => {
    b.mark();
    const { saved, view } = await planPrice(1, 71);
    expect(b.sent().filter((op) => !op.startsWith("catalog") && !op.startsWith("vehicles.get"))).toEqual([]);
    expect(checkSavedPlan(saved, "edit", "test")).toBe(saved);
    expect(Object.keys(saved.fingerprints.vehicle ?? {})).toEqual(["1"]);
    expect(view.vehicles.plan.change.map((c) => c.vehicle_id)).toEqual([1]);
    expect((saved.plan.vehicles as { change: unknown[] }).change).toHaveLength(1);
  });

  it("applies it by the edit-many apply: the change, one undo op", async () => {
    const { saved } = await planPrice(1, 72);
    const r = await applySavedEditPlan(b.ctx as Deps, saved);
    expect(r.counts).toEqual({ changed: 1 });
    expect(r.undoOp).toBeTruthy();
    expect(await price(1)).toBe(72);
  });

  it("refuses a plan whose vehicle changed since (StalePlanError, nothing sent)", async () => {
    const { saved } = await planPrice(2, 73);
    await editVehicle(b.ctx, { id: 2, changes: { price_per_week: 333 } });
    b.mark();
    const err = await checkSavedEditPlan(b.ctx, saved).catch((e) => e);
    expect(err).toBeInstanceOf(StalePlanError);
    expect(b.sent().filter((op) => !op.startsWith("vehicles.get"))).toEqual([]);
    expect(await price(2)).not.toBe(73);
  });
});
