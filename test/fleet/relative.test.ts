import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/base/errors.js";
import { planEdit } from "../../src/plans/plan.js";
import {
  applyNumericEdit,
  applyRelative,
  isRelative,
  parseNumericEdit,
  splitRelative,
} from "../../src/plans/relative.js";

const apply = (raw: string, current: number | undefined) =>
  applyNumericEdit(parseNumericEdit(raw, "price_per_day"), current);

describe("relative numeric values", () => {
  it("adds and subtracts whole numbers; a result below 0 is not clamped (the command refuses it, or --clamp)", () => {
    expect(apply("+5", 50)).toBe(55);
    expect(apply("-5", 50)).toBe(45);
    expect(apply("-80", 50)).toBe(-30);
  });

  it("applyRelativeChecked lists every result outside its field's range, and clamps only when asked", async () => {
    const { applyRelativeChecked, describeMiss } = await import("../../src/plans/relative.js");
    const edits = new Map([
      ["price_per_day", parseNumericEdit("-100", "price_per_day")],
      ["price_per_week", parseNumericEdit("+5", "price_per_week")],
    ]);
    const input = { price_per_day: 50, price_per_week: 40 };
    const plain = applyRelativeChecked(edits, input);
    expect(plain.values).toEqual({ price_per_day: -50, price_per_week: 45 });
    expect(plain.misses.map(describeMiss)).toEqual(["price_per_day 50 -100 = -50 < 0"]);
    const clamped = applyRelativeChecked(edits, input, { clamp: true });
    expect(clamped.values).toEqual({ price_per_day: 0, price_per_week: 45 });
    expect(clamped.misses).toHaveLength(1);
  });

  it("property: a relative result is either inside the field's range or listed as a miss, never silently changed", async () => {
    const { applyRelativeChecked } = await import("../../src/plans/relative.js");
    const forms = fc.oneof(
      fc.integer({ min: -100_000, max: 100_000 }).map((n) => (n < 0 ? `${n}` : `+${n}`)),
      fc.integer({ min: 0, max: 300 }).map((p) => `-${p}%`),
      fc.integer({ min: 0, max: 300 }).map((p) => `+${p}%`),
      fc.integer({ min: 0, max: 30 }).map((f) => `*${f / 10}`),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), forms, (current, text) => {
        const edits = new Map([["price_per_day", parseNumericEdit(text, "price_per_day")]]);
        const { values, misses } = applyRelativeChecked(edits, { price_per_day: current });
        const v = values.price_per_day!;
        if (v < 0) return misses.length === 1 && misses[0]!.result === v;
        // a fraction is listed (refused unless --clamp), never sent as another number silently
        // the exact result is whole when current * p (tenths of the factor or percent) divides evenly
        const tenths = Math.round(Number(text.replace(/[+%*-]/g, "")) * 10);
        const whole =
          text.endsWith("%") || text.startsWith("*")
            ? (current * tenths) % (text.endsWith("%") ? 1000 : 10) === 0
            : true;
        if (!whole) return misses.length === 1 && misses[0]!.bound === "not a whole number" && misses[0]!.clamped === v;
        return misses.length === 0 && Number.isInteger(v);
      }),
    );
  });

  it("a fractional result is listed with its exact value, rounded half up only with --clamp", async () => {
    const { applyRelativeChecked, describeMiss } = await import("../../src/plans/relative.js");
    const edits = new Map([["price_per_day", parseNumericEdit("+10%", "price_per_day")]]);
    const plain = applyRelativeChecked(edits, { price_per_day: 45 });
    expect(plain.misses.map(describeMiss)).toEqual(["price_per_day 45 +10% = 49.5, not a whole number"]);
    expect(applyRelativeChecked(edits, { price_per_day: 50 }).misses).toEqual([]);
    const third = applyRelativeChecked(new Map([["price_per_day", parseNumericEdit("*1.333", "price_per_day")]]), {
      price_per_day: 7,
    });
    expect(third.misses.map(describeMiss)).toEqual(["price_per_day 7 *1.333 = 9.331, not a whole number"]);
    expect(applyRelativeChecked(edits, { price_per_day: 45 }, { clamp: true }).values.price_per_day).toBe(50);
  });

  it("applies percentages and factors, rounding half up", () => {
    expect(apply("+10%", 50)).toBe(55);
    expect(apply("+10%", 45)).toBe(50); // 49.5 -> 50
    expect(apply("-10%", 45)).toBe(41); // 40.5 -> 41
    expect(apply("-10%", 44)).toBe(40); // 39.6 -> 40
    expect(apply("+12.5%", 40)).toBe(45);
    expect(apply("*1.1", 55)).toBe(61); // 60.5 -> 61 (floating point gives 60.50000000000001)
    expect(apply("*1.1", 15)).toBe(17); // 16.5
    expect(apply("*0.5", 5)).toBe(3); // 2.5
    expect(apply("*0", 5)).toBe(0);
    expect(apply("-100%", 70)).toBe(0);
    expect(apply("-150%", 70)).toBe(-35);
  });

  it("absolute values carry no sign and replace the value", () => {
    expect(apply("55", 50)).toBe(55);
    expect(apply("55", undefined)).toBe(55);
    expect(isRelative("55")).toBe(false);
    expect(isRelative("-5")).toBe(true);
    expect(isRelative("*2")).toBe(true);
  });

  it("a relative change of an empty field leaves it empty", () => {
    expect(apply("+5", undefined)).toBeUndefined();
    expect(apply("*2", undefined)).toBeUndefined();
  });

  it("rejects anything else as a usage error", () => {
    for (const bad of ["", "5.5", "+5.5", "10%", "+%", "*", "*-1", "x", "++5", "5+", "+ 5", "1e3", "/2"]) {
      expect(() => parseNumericEdit(bad, "price_per_day"), bad).toThrow(UsageError);
    }
    expect(() => parseNumericEdit("cheap", "price_per_day")).toThrow(/price_per_day: "cheap"/);
  });

  it("percent and factor agree with exact half-up rounding", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 0, max: 300 }), (v, p) => {
        // exact: v * (100 + p) / 100, half up, in integers
        const exact = Math.floor((2 * v * (100 + p) + 100) / 200);
        expect(apply(`+${p}%`, v)).toBe(exact);
        expect(apply(`*${((100 + p) / 100).toFixed(2)}`, v)).toBe(exact);
        // below 0 too (not clamped: the command refuses it, or --clamp), half up as well
        const down = Math.floor((2 * v * (100 - p) + 100) / 200) || 0;
        expect(apply(`-${p}%`, v)).toBe(down);
      }),
    );
  });

  it("splits edit values into absolute ones and relative integer edits, and plans them per vehicle", () => {
    const { absolute, relative } = splitRelative({
      price_per_day: "+10%",
      price_per_week: "*1.1",
      price_per_3days: "45",
      vehicle_description: "+ air conditioning",
    });
    expect(absolute).toEqual({ price_per_3days: "45", vehicle_description: "+ air conditioning" });
    expect([...relative.keys()]).toEqual(["price_per_day", "price_per_week"]);
    expect(() => splitRelative({ price_per_day: "+ten" })).toThrow(UsageError);
    const plan = planEdit(
      [
        { id: 1, vehicle_reg_number: "A", price_per_day: 45, price_per_week: "40" },
        { id: 2, vehicle_reg_number: "B", price_per_day: 0 },
      ],
      (input) => ({ ...absolute, ...applyRelative(relative, input) }),
    );
    expect(plan.change.map((c) => c.fields)).toEqual([
      {
        price_per_day: { from: 45, to: 50 },
        price_per_week: { from: 40, to: 44 },
        price_per_3days: { from: null, to: 45 },
        vehicle_description: { from: null, to: "+ air conditioning" },
      },
      { price_per_3days: { from: null, to: 45 }, vehicle_description: { from: null, to: "+ air conditioning" } },
    ]);
  });
});
