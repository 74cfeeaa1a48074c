import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InputError, InterruptedError, StalePlanError, UsageError } from "../../src/base/errors.js";
import type { Deps } from "../../src/deps.js";
import { planCalendarEdit } from "../../src/ops/vehicle/calendar-edit.js";
import { editVehicle } from "../../src/ops/vehicle/edit.js";
import { applyVehiclePlan, planEditMany, type VehicleRowProgress } from "../../src/ops/vehicle/edit-many.js";
import { applySavedEditPlan, checkSavedEditPlan, saveEditPlan } from "../../src/ops/vehicle/edit-plan.js";
import { getVehicle } from "../../src/ops/vehicle/get.js";
import { selectVehicles } from "../../src/ops/vehicle/select.js";
import { checkSavedPlan } from "../../src/plans/saved-plan.js";
import { type OpBench, opBench } from "./helpers.js";

/**
 * The changes of many vehicles as ops (src/ops/vehicle/edit-many.ts, calendar-edit.ts), in-process
 * against the sandbox: the plan is data and sends nothing; applyVehiclePlan runs it on the bulk job
 * with one undo op, per-vehicle progress and a stop signal.
 */

let b: OpBench;
beforeAll(async () => {
  b = await opBench();
});
afterAll(async () => {
  await b?.close();
});

const price = async (id: number) => Number((await getVehicle(b.ctx, { id })).price_per_day);

describe("planEditMany", () => {
  it("plans +10% over a where selection: one change per vehicle, old and new values, nothing sent", async () => {
    const cars = await selectVehicles(b.ctx, { where: ["segment=cars"] });
    expect(cars.length).toBeGreaterThan(1);
    b.mark();
    const { plan, intent } = await planEditMany(b.ctx, {
      selection: { where: ["segment=cars"] },
      values: { price_per_day: "+10%" },
      relativeFields: "all",
      clamp: true,
    });
    expect(b.sent().filter((op) => !op.startsWith("catalog") && op !== "vehicles.list")).toEqual([]);
    expect(plan.change.map((c) => c.vehicle_id).sort()).toEqual(cars.map((c) => Number(c.id)).sort());
    for (const c of plan.change) {
      const before = Number(c.fields.price_per_day!.from);
      expect(c.fields.price_per_day!.to).toBe(Math.round(before * 1.1));
    }
    expect(intent).toMatchObject({ values: { price_per_day: "+10%" }, clamp: true });
  });

  it("a relative value is absolute unless its field may be relative (as --set on the CLI)", async () => {
    await expect(
      planEditMany(b.ctx, { selection: { ids: [1] }, values: { price_per_day: "+10%" } }),
    ).rejects.toBeInstanceOf(InputError);
  });

  it("a relative result that is not a whole number is refused without clamp (UsageError, nothing sent)", async () => {
    await editVehicle(b.ctx, { id: 1, changes: { price_per_day: 45 } });
    b.mark();
    const err = await planEditMany(b.ctx, {
      selection: { ids: [1] },
      values: { price_per_day: "+10%" },
      relativeFields: ["price_per_day"],
    }).catch((e) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toMatch(/nothing was sent/);
    expect(b.sent()).not.toContain("vehicles.edit");
  });

  it("catalog values by name become ids, and showResolved hears each (the CLI's dry run)", async () => {
    const lines: string[] = [];
    const { plan } = await planEditMany(
      b.ctx,
      { selection: { ids: [2] }, values: { vehicle_currency_id: "eur" } },
      { showResolved: (l) => lines.push(l) },
    );
    expect(lines).toEqual(['vehicle_currency_id: "eur" → id 1 (Euro (EUR))']);
    expect(plan.change.length + plan.unchanged).toBe(1);
    for (const c of plan.change) expect(Number(c.after.vehicle_currency_id)).toBe(1);
  });

  it("nothing to change and ids with where are refused before any request", async () => {
    b.mark();
    await expect(planEditMany(b.ctx, { selection: { ids: [1] }, values: {} })).rejects.toThrow(/nothing to change/);
    await expect(
      planEditMany(b.ctx, { selection: { ids: [1], where: ["segment=cars"] }, values: { price_per_day: 40 } }),
    ).rejects.toThrow(/not both/);
    expect(b.sent()).toEqual([]);
  });
});

describe("applyVehiclePlan", () => {
  it("runs the plan: every vehicle changed, counted, reported one by one, undoable as one op", async () => {
    const ids = [1, 2];
    const before = await Promise.all(ids.map(price));
    const { plan, intent } = await planEditMany(b.ctx, {
      selection: { ids },
      values: { price_per_day: "+7" },
      relativeFields: "all",
    });
    const seen: VehicleRowProgress[] = [];
    let asked = 0;
    const r = await applyVehiclePlan(
      b.ctx as never,
      plan,
      { verb: "edit", intent: { ids, ...intent } },
      {
        onProgress: (p) => seen.push(p),
        confirm: async (n) => {
          asked = n;
        },
      },
    );
    expect(asked).toBe(2);
    expect(r.counts.changed).toBe(2);
    expect(r.undoOp).toBeTruthy();
    expect(await Promise.all(ids.map(price))).toEqual(before.map((p) => p + 7));
    expect(seen.map((p) => p.id).sort()).toEqual(ids);
    expect(seen.at(-1)).toMatchObject({ done: 2, total: 2 });
  });

  it("a refusal of the front end's question sends nothing", async () => {
    const { plan, intent } = await planEditMany(b.ctx, { selection: { ids: [3] }, values: { price_per_day: 77 } });
    b.mark();
    const no = new UsageError("not confirmed");
    await expect(
      applyVehiclePlan(
        b.ctx as never,
        plan,
        { verb: "edit", intent },
        {
          confirm: async () => {
            throw no;
          },
        },
      ),
    ).rejects.toBe(no);
    expect(b.sent()).not.toContain("vehicles.edit");
  });

  it("a stop signal given already aborted sends nothing and throws InterruptedError", async () => {
    const { plan, intent } = await planEditMany(b.ctx, { selection: { ids: [3] }, values: { price_per_day: 79 } });
    b.mark();
    const stop = new AbortController();
    stop.abort();
    await expect(
      applyVehiclePlan(b.ctx as never, plan, { verb: "edit", intent }, { signal: stop.signal }),
    ).rejects.toBeInstanceOf(InterruptedError);
    expect(b.sent()).not.toContain("vehicles.edit");
  });

  it("an out-of-range concurrency is a usage error before anything is read or sent", async () => {
    const { plan, intent } = await planEditMany(b.ctx, { selection: { ids: [3] }, values: { price_per_day: 78 } });
    b.mark();
    await expect(
      applyVehiclePlan(b.ctx as never, plan, { verb: "edit", intent, concurrency: 17 }),
    ).rejects.toBeInstanceOf(UsageError);
    expect(b.sent()).toEqual([]);
  });
});

describe("planCalendarEdit", () => {
  it("plans blocked days for the selected vehicles and applies them", async () => {
    const plan = await planCalendarEdit(b.ctx, { selection: { ids: [3] }, block: ["2027-03-01..2027-03-02"] });
    expect(plan.change).toHaveLength(1);
    const r = await applyVehiclePlan(b.ctx as never, plan, { verb: "calendar", intent: { ids: [3], block: 1 } });
    expect(r.counts.changed).toBe(1);
    const cal = String((await getVehicle(b.ctx, { id: 3 })).vehicle_availability_calendar);
    expect(cal).toContain("01.03.2027");
    expect(cal).toContain("02.03.2027");
  });

  it("a malformed range is refused before any request", async () => {
    b.mark();
    await expect(planCalendarEdit(b.ctx, { selection: { ids: [3] }, block: ["2027-13-01"] })).rejects.toBeInstanceOf(
      UsageError,
    );
    expect(b.sent()).toEqual([]);
  });
});

/** A saved plan of many vehicles (src/ops/vehicle/edit-plan.ts): by id, refused when stale, applied by the edit-many apply. */
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
