import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/base/errors.js";
import {
  lookupField,
  matchClause,
  parseSort,
  parseWhere,
  prepareWhere,
  sortComparator,
} from "../../src/plans/where.js";

const cars = [
  {
    id: 1,
    vehicle_reg_number: "AA-1",
    price_per_day: 35,
    vehicle_activity: 1,
    vehicle_segment_id: 1,
    vehicle_benefits_id: [1, 2],
    vehicle_description: "Blue Van",
  },
  {
    id: 2,
    vehicle_reg_number: "AA-2",
    price_per_day: "50",
    vehicle_activity: 0,
    vehicle_segment_id: 2,
    vehicle_benefits_id: [3],
  },
  {
    id: 3,
    vehicle_reg_number: "aa-3",
    price_per_day: 40,
    vehicle_activity: "1",
    vehicle_segment_id: 1,
    vehicle_description: "red van",
  },
];

async function ids(...exprs: string[]) {
  const sel = await prepareWhere(exprs, {
    resolve: async (field, value) => {
      if (field === "vehicle_segment_id" && value.toLowerCase() === "cars") return [1];
      if (field === "brand" && value === "Toyota") return [1001, 1002];
      return undefined;
    },
  });
  return cars.filter((c) => sel.matches(c)).map((c) => c.id);
}

function usage(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return err as UsageError;
  }
  throw new Error("expected a UsageError");
}

describe("--where", () => {
  it("accepts wire, kebab and short alias names", () => {
    expect(lookupField("price_per_day")?.name).toBe("price_per_day");
    expect(lookupField("price-per-day")?.name).toBe("price_per_day");
    expect(lookupField("price")?.name).toBe("price_per_day");
    expect(lookupField("segment")?.name).toBe("vehicle_segment_id");
    expect(lookupField("nope")).toBeUndefined();
  });

  it("compares integer fields as numbers with every operator", async () => {
    expect(await ids("price_per_day=50")).toEqual([2]);
    expect(await ids("price-per-day!=50")).toEqual([1, 3]);
    expect(await ids("price_per_day<40")).toEqual([1]);
    expect(await ids("price_per_day<=40")).toEqual([1, 3]);
    expect(await ids("price_per_day>40")).toEqual([2]);
    expect(await ids("price_per_day >= 40")).toEqual([2, 3]);
    expect(await ids("active=1")).toEqual([1, 3]);
    expect(await ids("active=yes")).toEqual([1, 3]);
    expect(await ids("vehicle_activity=No")).toEqual([2]);
    // 9 < 35 numerically, though "9" > "35" as text
    expect(await ids("price_per_day>9")).toEqual([1, 2, 3]);
  });

  it("matches text exactly with = and case-insensitively with ~", async () => {
    expect(await ids("vehicle_reg_number=AA-1")).toEqual([1]);
    expect(await ids("reg=AA-3")).toEqual([3]); // registration numbers compare as identities do
    expect(await ids("description=blue van")).toEqual([]);
    expect(await ids("reg~^aa-")).toEqual([1, 2, 3]);
    expect(await ids("description~VAN$")).toEqual([1, 3]);
    expect(await ids("description=")).toEqual([2]);
    expect(await ids("description!=")).toEqual([1, 3]);
  });

  it("all clauses must hold", async () => {
    expect(await ids("price_per_day<45", "active=1", "description~red")).toEqual([3]);
  });

  it("array fields match when any member matches", async () => {
    expect(await ids("vehicle_benefits_id=2")).toEqual([1]);
    expect(await ids("vehicle_benefits_id>1")).toEqual([1, 2]);
    expect(await ids("vehicle_benefits_id!=3")).toEqual([1, 3]);
  });

  it("catalog fields match by name through the resolver, resolved once", async () => {
    let calls = 0;
    const sel = await prepareWhere(["segment=cars"], {
      resolve: async () => {
        calls++;
        return [1];
      },
    });
    expect(cars.filter((c) => sel.matches(c)).map((c) => c.id)).toEqual([1, 3]);
    expect(calls).toBe(1);
    expect(await ids("segment=2")).toEqual([2]);
    expect(await ids("segment!=cars")).toEqual([2]);
    const brand = await prepareWhere(["brand=Toyota"], { resolve: async () => [1001] });
    expect(brand.clauses[0]?.field.name).toBe("vehicle_model_id");
    expect(brand.matches({ vehicle_model_id: 1001 })).toBe(true);
    expect(brand.matches({ vehicle_model_id: 1003 })).toBe(false);
  });

  it("unknown catalog names, unknown fields and bad expressions are usage errors", async () => {
    await expect(ids("segment=planes")).rejects.toThrow(/no vehicle_segment_id named "planes"/);
    await expect(prepareWhere(["segment=cars"])).rejects.toBeInstanceOf(UsageError);
    const unknown = usage(() => parseWhere("price_per_dya<3"));
    expect(unknown.message).toMatch(/unknown field "price_per_dya"/);
    expect(unknown.hint).toMatch(/did you mean price_per_day/);
    // a mistyped start of a long name is suggested too, not answered with the whole field list
    expect(usage(() => parseWhere("prise<5")).hint).toMatch(/did you mean .*price_per_day/);
    expect(usage(() => parseWhere("zzzzzzzzzzzzzz=1")).hint).toMatch(
      /^fields are the wire names .*id, brand, model, available$/,
    );
    expect(usage(() => parseWhere("price_per_day")).message).toMatch(/expected FIELD OP VALUE/);
    expect(usage(() => parseWhere("=5")).message).toMatch(/expected FIELD OP VALUE/);
    expect(usage(() => parseWhere("price_per_day<cheap")).message).toMatch(/compares as a number/);
    expect(usage(() => parseWhere("price_per_day=cheap")).message).toMatch(/is a number/);
    expect(usage(() => parseWhere("reg~(")).message).toMatch(/invalid regular expression/);
  });

  it("an absent field never matches a comparison", () => {
    const c = parseWhere("price_per_week>0");
    expect(matchClause(c, undefined)).toBe(false);
    expect(matchClause(c, [])).toBe(false);
  });
});

describe("--sort", () => {
  it("sorts numerically, stable, absent values last, :desc reverses", () => {
    const rows = [
      { id: 1, price_per_day: 50 },
      { id: 2, price_per_day: "9" },
      { id: 3 },
      { id: 4, price_per_day: 50 },
      { id: 5, price_per_day: 10 },
    ];
    const asc = [...rows].sort(sortComparator(parseSort("price-per-day")));
    expect(asc.map((r) => r.id)).toEqual([2, 5, 1, 4, 3]);
    const desc = [...rows].sort(sortComparator(parseSort("price_per_day:desc")));
    expect(desc.map((r) => r.id)).toEqual([1, 4, 5, 2, 3]);
  });

  it("sorts text fields as text; unknown fields are usage errors", () => {
    const rows = [{ vehicle_reg_number: "b" }, { vehicle_reg_number: "a" }];
    expect([...rows].sort(sortComparator(parseSort("reg"))).map((r) => r.vehicle_reg_number)).toEqual(["a", "b"]);
    expect(() => parseSort("prize:desc")).toThrow(UsageError);
  });
});

describe("--sort id", () => {
  it("sorts by the vehicle id (not a contract field, the first thing a person sorts by)", async () => {
    const { parseSort, sortComparator } = await import("../../src/plans/where.js");
    const rows = [{ id: 3 }, { id: 1 }, { id: 2 }];
    expect([...rows].sort(sortComparator(parseSort("id:desc"))).map((r) => r.id)).toEqual([3, 2, 1]);
  });
});
