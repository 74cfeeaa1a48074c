import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InputError } from "../../src/base/errors.js";
import type { JsonObject } from "../../src/contract/records.js";
import { VEHICLE_FIELDS } from "../../src/contract/vehicle-fields.js";
import {
  ARRAY_ORDER,
  currentInput,
  MASS_REMOVAL_LIMIT,
  massRemovalRefusal,
  type Plan,
  planEdit,
  planIsEmpty,
  sameStored,
  sameValue,
} from "../../src/plans/plan.js";
import { applyNumericEdit, parseNumericEdit } from "../../src/plans/relative.js";
import { computePlan, identityKeys } from "./compute-plan.js";

/** Stand-in for the fleet identity module: reg trimmed, case-insensitive, plus country when given. */
const identity = (r: Record<string, unknown>) => {
  const reg = r.vehicle_reg_number;
  if (reg === undefined || reg === null || String(reg).trim() === "") return undefined;
  const country = r.vehicle_reg_number_country;
  return `${String(reg).trim().toLowerCase()}|${country ?? ""}`;
};

const account: JsonObject[] = [
  { id: 1, vehicle_reg_number: "AA-1-ZZ", price_per_day: 50, vehicle_activity: 1, vehicle_benefits_id: [1, 2] },
  {
    id: 2,
    vehicle_reg_number: "AA-2-ZZ",
    price_per_day: "50",
    vehicle_activity: "1",
    vehicle_description: "old",
    vehicle_images: [{ id: 9, url: "x" }],
  },
  { id: 3, vehicle_reg_number: "AA-3-ZZ", price_per_day: 40, vehicle_availability_calendar: "2.1.2027,24.12.2026" },
];

describe("computePlan", () => {
  it("creates, changes and counts unchanged; a row manages only the fields it gives", () => {
    const plan = computePlan(
      [
        { vehicle_reg_number: " aa-1-zz ", price_per_day: "50", vehicle_activity: "1", vehicle_benefits_id: [2, 1] },
        { "vehicle-reg-number": "AA-2-ZZ", "price-per-day": 55, vehicle_benefits_id: [3] },
        { vehicle_reg_number: "AA-3-ZZ", vehicle_availability_calendar: "24.12.2026,02.01.2027" },
        { vehicle_reg_number: "AB-12-CD", price_per_day: "45", images: ["a.jpg"] },
      ],
      account,
      { identity },
    );
    expect(plan.create).toEqual([
      { row: 4, reg: "AB-12-CD", identity: "ab-12-cd|", record: { vehicle_reg_number: "AB-12-CD", price_per_day: 45 } },
    ]);
    expect(plan.change).toHaveLength(1);
    const change = plan.change[0];
    expect(change?.vehicle_id).toBe(2);
    expect(change?.reg).toBe("AA-2-ZZ");
    expect(change?.fields).toEqual({
      price_per_day: { from: 50, to: 55 },
      vehicle_benefits_id: { from: null, to: [3] },
    });
    expect(change?.after).toEqual({
      vehicle_reg_number: "AA-2-ZZ",
      price_per_day: 55,
      vehicle_activity: 1,
      vehicle_description: "old",
      vehicle_images: [9],
      vehicle_benefits_id: [3],
    });
    expect(plan.remove).toEqual([]);
    expect(plan.unchanged).toBe(2);
    expect(plan.unchangedList.map((u) => u.vehicle_id)).toEqual([1, 3]);
    expect(planIsEmpty(plan)).toBe(false);
  });

  it("prune removes the vehicles no row lists", () => {
    const plan = computePlan([{ vehicle_reg_number: "AA-1-ZZ" }], account, { identity, prune: true });
    expect(plan.remove.map((r) => [r.vehicle_id, r.reg])).toEqual([
      [2, "AA-2-ZZ"],
      [3, "AA-3-ZZ"],
    ]);
    expect(computePlan([{ vehicle_reg_number: "AA-1-ZZ" }], account, { identity }).remove).toEqual([]);
  });

  it("exact clears absent optional fields, never required ones or images", () => {
    const plan = computePlan([{ vehicle_reg_number: "AA-2-ZZ", price_per_day: 50 }], account, {
      identity,
      exact: true,
    });
    expect(plan.change[0]?.fields).toEqual({ vehicle_description: { from: "old", to: null } });
    expect(plan.change[0]?.after).toEqual({
      vehicle_reg_number: "AA-2-ZZ",
      price_per_day: 50,
      vehicle_activity: 1,
      vehicle_images: [9],
    });
  });

  it("an empty value in a row clears, unless empty means absent", () => {
    const row = { vehicle_reg_number: "AA-2-ZZ", vehicle_description: "" };
    expect(computePlan([row], account, { identity }).change[0]?.fields).toEqual({
      vehicle_description: { from: "old", to: null },
    });
    expect(computePlan([row], account, { identity, emptyIsAbsent: true }).unchanged).toBe(1);
  });

  it("a row giving the vehicle's registration respaced (tidyReg) changes it; other spellings do not", () => {
    const untidy = [{ id: 7, vehicle_reg_number: " AA-7  ZZ", price_per_day: 50 } as JsonObject];
    const real = { identity: identityKeys(untidy) };
    const fixed = computePlan([{ vehicle_reg_number: "AA-7 ZZ" }], untidy, real);
    expect(fixed.change[0]?.fields).toEqual({ vehicle_reg_number: { from: " AA-7  ZZ", to: "AA-7 ZZ" } });
    expect(fixed.change[0]?.after.vehicle_reg_number).toBe("AA-7 ZZ");
    // another case, or the row's own stray spaces: the same vehicle, no change
    for (const reg of ["aa-7 zz", " AA-7  ZZ", "AA-7  ZZ "])
      expect(computePlan([{ vehicle_reg_number: reg }], untidy, real).unchanged, reg).toBe(1);
    // a tidy vehicle is never untidied by a row's spaces
    const tidy = [{ id: 8, vehicle_reg_number: "AA-8 ZZ" } as JsonObject];
    expect(computePlan([{ vehicle_reg_number: " AA-8  ZZ " }], tidy, { identity: identityKeys(tidy) }).unchanged).toBe(
      1,
    );
  });

  it("sameStored: the gateway sees a respaced registration as a change, a case change as none", () => {
    const spec = VEHICLE_FIELDS.find((f) => f.name === "vehicle_reg_number");
    expect(sameValue(spec, "B-SP  1", "B-SP 1")).toBe(true);
    expect(sameStored(spec, "B-SP  1", "B-SP 1")).toBe(false);
    expect(sameStored(spec, "B-SP 1", "B-SP  1")).toBe(false);
    expect(sameStored(spec, "B-SP 1", "b-sp 1")).toBe(true);
    expect(sameStored(spec, "B-SP 1", "B-SP 1")).toBe(true);
  });

  it("rejects duplicate identities, rows without a reg number and invalid values", () => {
    expect(() =>
      computePlan([{ vehicle_reg_number: "X-1" }, { vehicle_reg_number: " x-1 " }], [], { identity }),
    ).toThrow(/row 2: the same vehicle as row 1/);
    expect(() => computePlan([{ price_per_day: 5 }], [], { identity })).toThrow(/row 1: no vehicle_reg_number/);
    try {
      computePlan([{ vehicle_reg_number: "X", price_per_day: "cheap", colour: "red" }], [], { identity });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(InputError);
      // each problem names its row (an account plan lists them among the others of the file)
      expect((err as InputError).details.map((d) => d.field)).toEqual(["row 1 (X) price_per_day", "row 1 (X) colour"]);
    }
  });

  it("matches the first (lowest id) of two vehicles with one identity; prune removes the other", () => {
    const twins: JsonObject[] = [
      { id: 8, vehicle_reg_number: "t-1", price_per_day: 1 },
      { id: 5, vehicle_reg_number: "T-1", price_per_day: 1 },
    ];
    const plan = computePlan([{ vehicle_reg_number: "T-1", price_per_day: 1 }], twins, { identity, prune: true });
    expect(plan.unchangedList[0]?.vehicle_id).toBe(5);
    expect(plan.remove.map((r) => r.vehicle_id)).toEqual([8]);
  });
});

describe("value comparison", () => {
  const spec = (name: string) => VEHICLE_FIELDS.find((f) => f.name === name);
  it("compares as the contract types values", () => {
    expect(sameValue(spec("price_per_day"), "50", 50)).toBe(true);
    expect(sameValue(spec("vehicle_activity"), "1", 1)).toBe(true);
    expect(sameValue(spec("vehicle_description"), "", undefined)).toBe(true);
    expect(sameValue(spec("vehicle_benefits_id"), [], null)).toBe(true);
    expect(sameValue(spec("vehicle_benefits_id"), [2, 1, 1], ["1", "2"])).toBe(true);
    // sets of ids in wire form (compared member by member) and otherwise (through canonical) agree
    for (const [a, b, same] of [
      [[3, 10], [10, 3], true],
      [[3, 3, 10], [10, 3], true],
      [[3], [3, 10], false],
      [[3, 10], [3, 11], false],
      [["3", 10], [10, 3], true],
    ] as const) {
      expect(sameValue(spec("vehicle_extras"), a, b)).toBe(same);
      expect(sameValue(spec("vehicle_extras"), b, a)).toBe(same);
    }
    expect(sameValue(spec("vehicle_images"), [2, 1], [1, 2])).toBe(false);
    expect(sameValue(spec("vehicle_delivery_address_fixed_price"), [5, 10], [10, 5])).toBe(false);
    expect(sameValue(spec("vehicle_availability_calendar"), "1.1.2027,24.12.2026", "24.12.2026,01.01.2027")).toBe(true);
  });

  it("declares the order rule of every array field of the contract", () => {
    const arrays = VEHICLE_FIELDS.filter((f) => f.type.endsWith("[]")).map((f) => f.name);
    expect(Object.keys(ARRAY_ORDER).sort()).toEqual(arrays.sort());
  });

  it("reads a listed record as wire input", () => {
    expect(currentInput(account[1] as JsonObject)).toEqual({
      vehicle_reg_number: "AA-2-ZZ",
      price_per_day: 50,
      vehicle_activity: 1,
      vehicle_description: "old",
      vehicle_images: [9],
    });
  });
});

describe("planEdit", () => {
  it("produces one change per vehicle whose value moves (relative price, clear)", () => {
    const edit = parseNumericEdit("+10%", "price_per_day");
    const plan = planEdit(account, (input) => ({
      price_per_day: applyNumericEdit(edit, input.price_per_day as number | undefined),
      ...(input.vehicle_description ? { vehicle_description: "" } : {}),
    }));
    expect(plan.change.map((c) => [c.vehicle_id, c.fields])).toEqual([
      [1, { price_per_day: { from: 50, to: 55 } }],
      [2, { price_per_day: { from: 50, to: 55 }, vehicle_description: { from: "old", to: null } }],
      [3, { price_per_day: { from: 40, to: 44 } }],
    ]);
    expect(plan.change[1]?.after).toEqual({
      vehicle_reg_number: "AA-2-ZZ",
      price_per_day: 55,
      vehicle_activity: 1,
      vehicle_images: [9],
    });
    const none = planEdit(account, () => ({ price_per_week: undefined }));
    expect(none.change).toEqual([]);
    expect(none.unchanged).toBe(3);
  });
});

describe("mass-removal guard", () => {
  const refusal = (removals: number, accountSize: number, rows = 1, extra = {}) =>
    massRemovalRefusal({ removals, accountSize, rows, prune: true, ...extra });
  it("refuses more than half, more than 20, and an empty file", () => {
    expect(refusal(2, 4)).toBeUndefined();
    expect(refusal(3, 4)).toBe("--prune would remove 3 of the account's 4 vehicles (more than half)");
    expect(refusal(MASS_REMOVAL_LIMIT, 100)).toBeUndefined();
    expect(refusal(21, 100)).toBe("--prune would remove 21 of the account's 100 vehicles (more than 20)");
    expect(refusal(0, 0, 0)).toBe("the file lists no vehicles: --prune would remove 0 of the account's 0 vehicles");
    expect(refusal(21, 100, 1, { allowMassDelete: true })).toBeUndefined();
    expect(massRemovalRefusal({ removals: 0, accountSize: 5, rows: 0, prune: false })).toBeUndefined();
  });

  it("counts the extras an account file's --prune deletes, with the same rule", () => {
    const ex = (removals: number, accountSize: number, rows = 1) => ({ extras: { removals, accountSize, rows } });
    expect(refusal(0, 3, 3, ex(1, 3))).toBeUndefined();
    expect(refusal(0, 3, 3, ex(2, 3))).toBe("--prune would remove 2 of the account's 3 extras (more than half)");
    expect(refusal(0, 3, 3, ex(3, 3, 0))).toBe(
      "the file lists no extras: --prune would remove 3 of the account's 3 extras",
    );
    expect(refusal(0, 100, 100, ex(21, 100))).toBe(
      "--prune would remove 21 of the account's 100 extras (more than 20)",
    );
    expect(refusal(3, 4, 1, ex(2, 3))).toBe(
      "--prune would remove 3 of the account's 4 vehicles (more than half), and remove 2 of the account's 3 extras (more than half)",
    );
    expect(refusal(0, 3, 3, { ...ex(3, 3, 0), allowMassDelete: true })).toBeUndefined();
  });
});

describe("property: applying the plan leaves nothing to do", () => {
  const regs = ["AA-1", "aa-1", "BB-2", "CC-3", "DD-4", "EE-5", "FF-6"];
  const fieldValues = {
    price_per_day: fc.oneof(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 200 }).map(String)),
    vehicle_activity: fc.constantFrom(0, 1, "0", "1"),
    vehicle_description: fc.constantFrom("", "a", "b", "Blue van"),
    vehicle_benefits_id: fc.array(fc.integer({ min: 1, max: 4 }), { maxLength: 4 }),
    vehicle_images: fc.array(fc.integer({ min: 1, max: 4 }), { maxLength: 3 }),
    vehicle_delivery_address_fixed_price: fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 3 }),
    vehicle_availability_calendar: fc
      .subarray(["24.12.2026", "1.1.2027", "02.01.2027", "31.12.2026"])
      .chain((xs) => fc.shuffledSubarray(xs, { minLength: xs.length }))
      .map((xs) => xs.join(",")),
    vehicle_reg_number_country: fc.constantFrom(1, 2),
  };
  const fields = fc.record(fieldValues, { requiredKeys: [] });
  const fleet = fc.uniqueArray(
    fc.record({ reg: fc.constantFrom(...regs), fields }).map(({ reg, fields: f }) => ({
      ...f,
      vehicle_reg_number: reg,
    })),
    { maxLength: 6, selector: (r) => identity(r) },
  );
  const rowsArb = fc.uniqueArray(
    fc.record({ reg: fc.constantFrom(...regs, " bb-2 ", "GG-7"), fields }).map(({ reg, fields: f }) => ({
      ...f,
      vehicle_reg_number: reg,
    })),
    { maxLength: 6, selector: (r) => identity(r) },
  );

  function applyInMemory(records: JsonObject[], plan: Plan): JsonObject[] {
    let nextId = Math.max(0, ...records.map((r) => r.id as number)) + 1;
    const removed = new Set(plan.remove.map((r) => r.vehicle_id));
    const changed = new Map(plan.change.map((c) => [c.vehicle_id, c.after]));
    const out: JsonObject[] = [];
    for (const r of records) {
      if (removed.has(r.id as number)) continue;
      const after = changed.get(r.id as number);
      out.push(after ? ({ id: r.id as number, ...after } as JsonObject) : r);
    }
    for (const c of plan.create) out.push({ id: nextId++, ...c.record } as JsonObject);
    return out;
  }

  it("for random fleets and rows (with and without exact / prune)", () => {
    fc.assert(
      fc.property(
        fleet,
        rowsArb,
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        (raw, rows, exact, prune, emptyIsAbsent) => {
          const records = raw.map((r, i) => ({ id: i + 1, ...r }) as JsonObject);
          const opts = { identity, exact, prune, emptyIsAbsent };
          const plan = computePlan(rows, records, opts);
          const again = computePlan(rows, applyInMemory(records, plan), opts);
          expect(again.create).toEqual([]);
          expect(again.change).toEqual([]);
          expect(again.remove).toEqual([]);
          expect(again.unchanged).toBe(rows.length);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("an export of the account (values as text, set arrays shuffled) plans nothing, even exact with prune", () => {
    fc.assert(
      fc.property(fleet, fc.infiniteStream(fc.boolean()), (raw, coin) => {
        const records = raw.map((r, i) => ({ id: i + 1, ...r }) as JsonObject);
        const rows = records.map((r) => {
          const row: Record<string, unknown> = {};
          for (const [k, v] of Object.entries(currentInput(r))) {
            if (Array.isArray(v)) row[k] = ARRAY_ORDER[k] === "set" ? [...v].reverse().map(String) : v;
            else row[k] = coin.next().value ? String(v) : v;
          }
          return row;
        });
        const plan = computePlan(rows, records, { identity, exact: true, prune: true });
        expect(planIsEmpty(plan)).toBe(true);
        expect(plan.unchanged).toBe(records.length);
      }),
      { numRuns: 300 },
    );
  });
});
