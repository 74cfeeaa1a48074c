import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../src/contract/records.js";
import { planEdit } from "../../src/plans/plan.js";
import { changeText, planJson, planLines, planSummary, planText } from "../../src/plans/plan-print.js";
import { computePlan } from "./compute-plan.js";
import { expectGolden } from "./golden.js";

const identity = (r: Record<string, unknown>) =>
  r.vehicle_reg_number === undefined ? undefined : String(r.vehicle_reg_number).trim().toLowerCase();

const account: JsonObject[] = [
  { id: 1, vehicle_reg_number: "AA-1-ZZ", price_per_day: 40, vehicle_activity: 1 },
  {
    id: 2,
    vehicle_reg_number: "AA-2-ZZ",
    price_per_day: 50,
    vehicle_benefits_id: [1, 2],
    vehicle_description: "Blue van",
    vehicle_availability_calendar: "01.11.2026,24.12.2026",
    vehicle_images: [4, 5],
  },
  { id: 3, vehicle_reg_number: "AA-3-ZZ", price_per_day: 60 },
  { id: 4, vehicle_reg_number: "AA-4-ZZ", price_per_day: 70 },
  { id: 5, vehicle_reg_number: "AA-5-ZZ", price_per_day: 80 },
];

const rows = [
  {
    vehicle_reg_number: "AB-12-CD",
    vehicle_model_id: 1001,
    price_per_day: 45,
    vehicle_activity: 1,
    pickup_location: "Airport",
    vehicle_description: "New",
  },
  {
    vehicle_reg_number: "AA-2-ZZ",
    price_per_day: "55",
    vehicle_benefits_id: [2, 3],
    vehicle_description: "",
    vehicle_availability_calendar: "24.12.2026,25.12.2026",
    vehicle_images: [5, 4],
  },
  { vehicle_reg_number: "AA-1-ZZ", price_per_day: 40 },
  { vehicle_reg_number: "aa-4-zz" },
  { vehicle_reg_number: "AA-5-ZZ" },
];

const plan = computePlan(rows, account, { identity, prune: true });
const tags = {
  green: (s: string) => `<g>${s}</g>`,
  yellow: (s: string) => `<y>${s}</y>`,
  red: (s: string) => `<r>${s}</r>`,
  dim: (s: string) => `<d>${s}</d>`,
};

describe("plan printer", () => {
  it("plain text (golden)", () => {
    const text = planText(plan);
    expectGolden("plan-plain.txt", text);
    expect(text).toContain("~ AA-2-ZZ (vehicle 2)\n    price_per_day: 50 → 55\n");
    expect(text).toContain("\n    vehicle_benefits_id: +3 -1\n");
    expect(text).toContain(
      '+ AB-12-CD (row 1): vehicle_model_id 1001, price_per_day 45, vehicle_activity 1, pickup_location "Airport"\n',
    );
    expect(text.trimEnd().split("\n").at(-1)).toBe("Plan: 1 to create, 1 to change, 1 to remove, 3 unchanged.");
  });

  it("verbose lists unchanged vehicles and every field of a create (golden)", () => {
    expectGolden("plan-verbose.txt", planText(plan, { verbose: true }));
  });

  it("colour through the injected functions (golden)", () => {
    expectGolden("plan-color.txt", planText(plan, { color: tags, verbose: true }));
  });

  it("is a generator of lines without newlines", () => {
    const lines = [...planLines(plan)];
    expect(lines.every((l) => !l.includes("\n"))).toBe(true);
    expect(lines.at(-1)).toBe(planSummary(plan));
  });

  it("shows catalog names beside ids when a label function is given", () => {
    const text = planText(plan, {
      label: (field, v) => (field === "vehicle_model_id" && v === 1001 ? "Corolla" : undefined),
    });
    expect(text).toContain("+ AB-12-CD (row 1): vehicle_model_id 1001 (Corolla), price_per_day 45");
    expect(text).toContain("price_per_day 45"); // not a catalog field: no label asked
  });

  it("field change texts", () => {
    expect(changeText("price_per_day", { from: 50, to: 55 })).toBe("50 → 55");
    expect(changeText("vehicle_benefits_id", { from: null, to: [3] })).toBe("+3");
    expect(changeText("vehicle_benefits_id", { from: [1, 2], to: null })).toBe("-1 -2");
    expect(changeText("vehicle_images", { from: [4, 5], to: [5, 4] })).toBe("[4, 5] → [5, 4]");
    expect(changeText("vehicle_description", { from: "x".repeat(100), to: null })).toBe(
      `"${"x".repeat(59)}…" → (empty)`,
    );
    const many = Array.from({ length: 31 }, (_, i) => `${String(i + 1).padStart(2, "0")}.12.2026`).join(",");
    expect(changeText("vehicle_availability_calendar", { from: null, to: many })).toBe(
      "+01.12.2026 +02.12.2026 +03.12.2026 +04.12.2026 +05.12.2026 +06.12.2026 +07.12.2026 +08.12.2026 (+23 more)",
    );
  });

  it("json form", () => {
    expect(planJson(plan)).toEqual({
      create: [
        {
          row: 1,
          reg: "AB-12-CD",
          fields: {
            vehicle_reg_number: "AB-12-CD",
            vehicle_model_id: 1001,
            price_per_day: 45,
            vehicle_activity: 1,
            pickup_location: "Airport",
            vehicle_description: "New",
          },
        },
      ],
      change: [
        {
          vehicle_id: 2,
          reg: "AA-2-ZZ",
          row: 2,
          fields: {
            price_per_day: { from: 50, to: 55 },
            vehicle_images: { from: [4, 5], to: [5, 4] },
            vehicle_description: { from: "Blue van", to: null },
            vehicle_benefits_id: { from: [1, 2], to: [2, 3] },
            vehicle_availability_calendar: { from: "01.11.2026,24.12.2026", to: "24.12.2026,25.12.2026" },
          },
        },
      ],
      remove: [{ vehicle_id: 3, reg: "AA-3-ZZ" }],
      unchanged: 3,
    });
  });

  it("a selection edit prints the same way", () => {
    const edit = planEdit(account.slice(0, 2), (input) => ({ price_per_day: (input.price_per_day as number) + 5 }));
    expect(planText(edit)).toBe(
      [
        "~ AA-1-ZZ (vehicle 1)",
        "    price_per_day: 40 → 45",
        "~ AA-2-ZZ (vehicle 2)",
        "    price_per_day: 50 → 55",
        "Plan: 0 to create, 2 to change, 0 to remove, 0 unchanged.",
        "",
      ].join("\n"),
    );
  });
});
