import { describe, expect, it } from "vitest";
import {
  defaultSettings,
  type LintData,
  type LintExtra,
  type LintVehicle,
  RULES,
  runRules,
} from "../../src/ops/lint/rules.js";
import { sampleVehicleInput } from "../../src/sandbox/seed.js";

/**
 * The rules as pure functions: a clean vehicle and a clean extra find nothing; one defect per
 * rule, each on its own vehicle (or extra), fires that rule there and nowhere else.
 */

const LONG = (n: number) =>
  `Vehicle ${n}: a clean, well kept car with air conditioning, cruise control, a large boot and a full tank on pickup.`;

/** A listing every rule is happy with (the year id 16 is 2023 in the years map below). */
function clean(n: number, over: Record<string, unknown> = {}): Record<string, unknown> {
  // the sandbox's own sample vehicle (every rule of the contract met), made unique and complete
  const { user_id: _owner, ...sample } = sampleVehicleInput(1001);
  return {
    ...sample,
    vehicle_vin: `VIN0000000000000${n}`,
    vehicle_reg_number: `B-LT ${n}`,
    vehicle_images: [1, 2],
    vehicle_description: LONG(n),
    vehicle_extras: [1],
    ...over,
  };
}

const vehicle = (row: number, values: Record<string, unknown>): LintVehicle => {
  const ids = values.vehicle_extras;
  return { row, id: row, values, extraKeys: Array.isArray(ids) ? ids.map((x) => `id:${x}`) : [] };
};
const extra = (row: number, price: number): LintExtra => ({
  row,
  id: row,
  keys: [`id:${row}`],
  label: `option ${row} (period 1)`,
  price,
});

const TODAY = "2026-06-15";
const YEARS = new Map([
  [16, 2023],
  [20, 2027],
]);
const next30 = Array.from({ length: 30 }, (_, d) => {
  const t = new Date(`${TODAY}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + d);
  const iso = t.toISOString().slice(0, 10);
  return `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)}`;
}).join(",");

/** Per rule: the defect seeded (vehicle fields, or an extra), and the field the finding names. */
const SEEDS: Record<string, { over?: Record<string, unknown>; pair?: true; field?: string; extra?: number }> = {
  "required-field": { over: { price_per_day: undefined }, field: "price_per_day" },
  "invalid-value": { over: { vehicle_passenger_capacity: -1 }, field: "vehicle_passenger_capacity" },
  "text-too-long": { over: { vehicle_tuning_text: "x".repeat(5001) }, field: "vehicle_tuning_text" },
  "delivery-prices": {
    over: { vehicle_delivery_address_fixed_place: [1, 2], vehicle_delivery_address_fixed_price: [10] },
    field: "vehicle_delivery_address_fixed_price",
  },
  "price-rises": { over: { price_per_week: 50 }, field: "price_per_week" },
  "deposit-mismatch": {
    over: { vehicle_protection_plans_no_deposit: 0 },
    field: "vehicle_protection_plans_deposit_price",
  },
  "duplicate-vin": { over: { vehicle_vin: "DUPVIN0000000001" }, pair: true, field: "vehicle_vin" },
  "duplicate-registration": { over: { vehicle_reg_number: "B-DUP 1" }, pair: true, field: "vehicle_reg_number" },
  "minimum-age": {
    over: { vehicle_minimal_age_to_rent: 17, vehicle_drivers_experience: 0 },
    field: "vehicle_minimal_age_to_rent",
  },
  "driving-experience": { over: { vehicle_drivers_experience: 5 }, field: "vehicle_drivers_experience" },
  "future-year": { over: { vehicle_year_of_issue_id: 20 }, field: "vehicle_year_of_issue_id" },
  "past-calendar-dates": {
    over: { vehicle_availability_calendar: "01.01.2026,20.06.2026" },
    field: "vehicle_availability_calendar",
  },
  "calendar-blocked": { over: { vehicle_availability_calendar: next30 }, field: "vehicle_availability_calendar" },
  "registration-spacing": { over: { vehicle_reg_number: "B-SP  77" }, field: "vehicle_reg_number" },
  "no-images": { over: { vehicle_images: undefined }, field: "vehicle_images" },
  "short-description": { over: { vehicle_description: "Nice car." }, field: "vehicle_description" },
  "duplicate-description": { field: "vehicle_description" },
  "text-whitespace": { over: { pickup_location: " Berlin, Alexanderplatz 1 " }, field: "pickup_location" },
  "unused-extra": { extra: 5 },
  "free-extra": { extra: 0 },
  "inactive-complete": { over: { vehicle_activity: 0 }, field: "vehicle_activity" },
};

function seeded(): { data: LintData; where: Map<string, number[]>; extraAt: Map<string, number> } {
  const vehicles: LintVehicle[] = [vehicle(1, clean(1)), vehicle(2, clean(2, { vehicle_extras: [1, 2] }))];
  const extras: LintExtra[] = [extra(1, 5), extra(2, 7)];
  const where = new Map<string, number[]>();
  const extraAt = new Map<string, number>();
  const add = (values: Record<string, unknown>) => {
    for (const k of Object.keys(values)) if (values[k] === undefined) delete values[k];
    vehicles.push(vehicle(vehicles.length + 1, values));
    return vehicles.length - 1;
  };
  for (const [rule, seed] of Object.entries(SEEDS)) {
    if (seed.extra !== undefined) {
      const e = extra(extras.length + 1, seed.extra);
      // a free extra is used by the clean vehicle 1 (else it is also unused)
      if (seed.extra === 0) vehicles[0]!.extraKeys = [...vehicles[0]!.extraKeys, e.keys[0]!];
      extras.push(e);
      extraAt.set(rule, extras.length - 1);
      continue;
    }
    const n = vehicles.length + 1;
    if (rule === "duplicate-description") {
      const text = "Shared text of three listings, long enough to pass the short description rule of the linter.";
      where.set(
        rule,
        [0, 1, 2].map((k) => add(clean(n + k / 10, { vehicle_description: text }))),
      );
      continue;
    }
    const ids = [add(clean(n, seed.over))];
    if (seed.pair) ids.push(add(clean(n + 0.5, seed.over)));
    where.set(rule, ids);
  }
  return { data: { vehicles, extras, years: YEARS, today: TODAY, imagesKnown: true }, where, extraAt };
}

describe("lint rules", () => {
  it("a clean account finds nothing", () => {
    const data: LintData = {
      vehicles: [vehicle(1, clean(1)), vehicle(2, clean(2))],
      extras: [extra(1, 5)],
      years: YEARS,
      today: TODAY,
      imagesKnown: true,
    };
    expect(runRules(data, defaultSettings())).toEqual([]);
  });

  it("every rule has a seed here", () => {
    expect(Object.keys(SEEDS).sort()).toEqual(RULES.map((r) => r.id).sort());
  });

  const { data, where, extraAt } = seeded();
  const findings = runRules(data, defaultSettings());
  for (const rule of RULES.map((r) => r.id))
    it(`${rule} fires exactly where seeded, on its field`, () => {
      const got = findings.filter((f) => f.rule === rule);
      if (extraAt.has(rule)) {
        expect(got.map((f) => f.extra)).toEqual([extraAt.get(rule)]);
        expect(got.every((f) => f.vehicle === undefined)).toBe(true);
        return;
      }
      expect(got.map((f) => f.vehicle).sort()).toEqual(where.get(rule)!.slice().sort());
      expect(new Set(got.map((f) => f.field))).toEqual(new Set([SEEDS[rule]!.field]));
      expect(got.every((f) => f.text.length > 0)).toBe(true);
    });

  it("past-calendar-dates and text-whitespace carry their one safe fix", () => {
    const past = findings.find((f) => f.rule === "past-calendar-dates")!;
    expect(past.fix).toEqual({ field: "vehicle_availability_calendar", value: "20.06.2026" });
    const ws = findings.find((f) => f.rule === "text-whitespace")!;
    expect(ws.fix).toEqual({ field: "pickup_location", value: "Berlin, Alexanderplatz 1" });
  });

  it("registration-spacing carries its fix: the number tidied (no spaces at either end, single plain spaces)", () => {
    const reg = findings.find((f) => f.rule === "registration-spacing")!;
    expect(reg.fix).toEqual({ field: "vehicle_reg_number", value: "B-SP 77" });
    const odd = runRules(
      {
        vehicles: [vehicle(1, { ...clean(1), vehicle_reg_number: " B-SP\u00A078\u200B " })],
        years: YEARS,
        today: TODAY,
        imagesKnown: true,
      },
      defaultSettings(),
    );
    expect(odd.find((f) => f.rule === "registration-spacing")!.fix).toEqual({
      field: "vehicle_reg_number",
      value: "B-SP 78",
    });
  });

  it("settings turn a rule off and change thresholds", () => {
    const s = defaultSettings();
    s.set("short-description", { enabled: true, severity: "warning", options: { min_length: 500 } });
    s.set("price-rises", { enabled: false, severity: "warning", options: {} });
    const got = runRules(data, s);
    expect(got.some((f) => f.rule === "price-rises")).toBe(false);
    // every vehicle's description is under 500 characters now
    expect(got.filter((f) => f.rule === "short-description").length).toBe(data.vehicles.length);
  });
});
