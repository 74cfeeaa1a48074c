import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../src/contract/records.js";
import { type ExtraState, planExtras } from "../../src/plans/account-extras.js";
import { type AccountPlan, displayVehicles, PLACEHOLDER_BASE } from "../../src/plans/account-plan.js";
import { accountPlanJson, accountPlanLines, accountPlanMarkdown } from "../../src/plans/account-print.js";
import { computePlan, identityKeys } from "../fleet/compute-plan.js";
import { expectGolden } from "../fleet/golden.js";

/** The account plan as people read it (text, markdown review summary) and as programs read it (json): golden files. */

const NAMES: Record<number, string> = { 1: "Child seat", 3: "GPS navigator", 4: "Additional driver", 6: "Roof box" };
const label = (o: number, p: number) => `${NAMES[o] ?? `option ${o}`} (period ${p})`;
const extra = (id: number, option_id: number, period: number, price: number, active = true): ExtraState => ({
  id,
  option_id,
  period,
  price,
  currency_id: 1,
  quantity: 2,
  active,
  record: { id, option_id, period, price, currency_id: 1, quantity: 2, is_active: active ? 1 : 0 },
});
const vehicle = (id: number, reg: string, price: number, extras: number[]): JsonObject => ({
  id,
  vehicle_reg_number: reg,
  price_per_day: price,
  vehicle_extras: extras,
});

function samplePlan(): AccountPlan {
  const account = [extra(1, 1, 1, 5), extra(2, 4, 2, 10), extra(3, 6, 1, 8, false), extra(9, 3, 2, 4)];
  const { plan: extras, problems } = planExtras(
    [
      { row: 1, option_id: 1, period: 1, price: 7 },
      { row: 2, option_id: 4, period: 2, active: false },
      { row: 3, option_id: 6, period: 1, active: true },
      { row: 4, option_id: 3, period: 1, price: 3, currency_id: 1, quantity: 5 },
    ],
    account,
    { prune: true, label },
  );
  expect(problems).toEqual([]);
  const records = [vehicle(1, "B-SC 1001", 45, [1, 2]), vehicle(2, "M-SC 2002", 79, [9]), vehicle(3, "OLD 1", 30, [])];
  const vehicles = computePlan(
    [
      { vehicle_reg_number: "B-SC 1001", price_per_day: 49, vehicle_extras: [1, 2, PLACEHOLDER_BASE + 4] },
      { vehicle_reg_number: "M-SC 2002", vehicle_extras: [PLACEHOLDER_BASE + 4] },
      { vehicle_reg_number: "NEW | 1", price_per_day: 50, vehicle_extras: [PLACEHOLDER_BASE + 4] },
    ],
    records,
    { identity: identityKeys(records), prune: true },
  );
  const extraLabels = new Map<number, string>([
    [1, label(1, 1)],
    [2, label(4, 2)],
    [3, label(6, 1)],
    [9, label(3, 2)],
    [PLACEHOLDER_BASE + 4, "GPS navigator (period 1, new)"],
  ]);
  return {
    label: "account.yaml",
    extras,
    vehicles: { plan: vehicles, rows: 3, accountSize: 3, uploads: new Map(), createRecords: new Map() },
    extraLabels,
    accountExtras: account,
  };
}

describe("account plan printing", () => {
  it("markdown review summary (removals first, a table per section, before → after)", () => {
    expectGolden("account-plan.md", accountPlanMarkdown(samplePlan()));
  });
  it("text lines", () => {
    expectGolden("account-plan.txt", `${[...accountPlanLines(samplePlan(), {})].join("\n")}\n`);
  });
  it("json: extras of vehicles by label; the plan sent keeps the ids", () => {
    const plan = samplePlan();
    const j = accountPlanJson(plan);
    expectGolden("account-plan-json.txt", `${JSON.stringify(j, null, 2)}\n`);
    expect(plan.vehicles.plan.change[0]!.after.vehicle_extras).toEqual([1, 2, PLACEHOLDER_BASE + 4]);
    expect(displayVehicles(plan.vehicles.plan, plan.extraLabels).change[0]!.fields.vehicle_extras!.to).toContain(
      "GPS navigator (period 1, new)",
    );
  });
  it("the extras plan: identity option + period; two alike in the account must be pinned", () => {
    const { problems } = planExtras(
      [{ row: 1, option_id: 1, period: 1, price: 5 }],
      [extra(1, 1, 1, 5), extra(5, 1, 1, 6)],
      {
        label,
      },
    );
    expect(problems).toEqual([
      {
        field: "extras row 1",
        message: "the account has 2 extras Child seat (period 1) (ids 1, 5): pin one with extra_id",
      },
    ]);
    const pinned = planExtras(
      [{ row: 1, extra_id: 5, option_id: 1, period: 1, price: 6 }],
      [extra(1, 1, 1, 5), extra(5, 1, 1, 6)],
      {
        label,
        prune: true,
      },
    );
    expect(pinned.problems).toEqual([]);
    expect(pinned.plan.unchanged).toBe(1);
    expect(pinned.plan.delete.map((d) => d.id)).toEqual([1]);
  });
});
