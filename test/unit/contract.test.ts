import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { EXTRA_FIELDS } from "../../src/contract/extra-fields.js";
import { API_PREFIX, findOperation, OPERATIONS, operation } from "../../src/contract/operations.js";
import { createdId, normalizeRecord, recordId, unwrapRecord, uploadedImageIds } from "../../src/contract/records.js";
import type { ParamSpec } from "../../src/contract/types.js";
import { coerce, crossFieldProblems, isEmpty, validateRecord } from "../../src/contract/validate.js";
import { VEHICLE_FIELD_BY_NAME, VEHICLE_FIELDS } from "../../src/contract/vehicle-fields.js";

const field = (name: string): ParamSpec => {
  const f = VEHICLE_FIELD_BY_NAME.get(name);
  if (!f) throw new Error(`no vehicle field ${name}`);
  return f;
};

/** A complete, valid create record. */
const VALID: Record<string, unknown> = {
  user_id: "7",
  pickup_location: "Airport",
  vehicle_class_id: "1",
  vehicle_model_id: "2",
  vehicle_segment_id: "1",
  vehicle_year_of_issue_id: "3",
  vehicle_reg_number: "AB-123",
  vehicle_activity: "1",
  price_per_day: "50",
  price_per_3days: "45",
  price_per_week: "40",
  price_per_14days: "35",
  vehicle_protection_plans_no_deposit: "0",
  vehicle_protection_plans_third_party_insurance: "1",
  vehicle_protection_plans_deposit_price: "0",
  vehicle_distance_included: "200",
  vehicle_surcharge_for_excess: "1",
  price_surcharge_over_time: "900",
  vehicle_minimal_renting_period: "1",
  vehicle_minimal_age_to_rent: "21",
  vehicle_drivers_experience: "2",
  vehicle_passenger_capacity: "5",
  vehicle_luggage_capacity: "2",
  vehicle_fuel_policy: "1",
};

describe("coerce: integers", () => {
  const spec = field("vehicle_passenger_capacity");
  it.each([
    ["12", 12],
    [" 7 ", 7],
    ["007", 7],
    [3, 3],
    ["0", 0],
  ])("%j → %j", (raw, value) => {
    expect(coerce(spec, raw)).toEqual({ value, problems: [] });
  });

  it.each(["1.5", "abc", "1e3", "0x10", "", "99999999999999999999", 1.5, Number.NaN, {}, null, true, false])(
    "%j is not a whole number",
    (raw) => {
      const r = coerce(spec, raw);
      expect(r.value).toBeUndefined();
      expect(r.problems).toHaveLength(1);
      expect(r.problems[0]).toMatch(/whole number/);
    },
  );

  it('"+5" is a relative value, never read as 5 (only vehicle edit takes relative values)', () => {
    expect(coerce(spec, "+5").value).toBeUndefined();
    expect(coerce(spec, "+5").problems).toEqual([
      '"+5" is a relative value: only `vehicle edit` takes those; give the value itself',
    ]);
  });

  it("true / false: 1 / 0 for a 0/1 flag only (a price of false is a mistake, not 0)", () => {
    expect(coerce(field("vehicle_activity"), true)).toEqual({ value: 1, problems: [] });
    expect(coerce(field("vehicle_activity"), false)).toEqual({ value: 0, problems: [] });
    expect(coerce(field("price_per_day"), false).problems).toEqual(["must be a whole number, got false"]);
    expect(coerce(field("vehicle_benefits_id"), [true]).problems).toEqual(["must be a whole number, got true"]);
  });

  it("min: prices and amounts are at least 0, ids at least 1", () => {
    expect(coerce(field("price_per_day"), "-1").problems).toEqual(["must be at least 0, got -1"]);
    expect(coerce(field("price_per_day"), "0").value).toBe(0);
    expect(coerce(field("user_id"), "0").problems).toEqual(["must be at least 1, got 0"]);
  });

  it("minimal renting period is at least 1 day", () => {
    const spec = field("vehicle_minimal_renting_period");
    expect(coerce(spec, "0").problems).toEqual(["must be at least 1, got 0"]);
    expect(coerce(spec, "1").value).toBe(1);
  });

  it("booking lead time is 1 to 3 days", () => {
    const spec = field("vehicle_booking_lead_time");
    expect(coerce(spec, "0").problems).toEqual(["must be at least 1, got 0"]);
    expect(coerce(spec, "4").problems).toEqual(["must be at most 3, got 4"]);
    for (const ok of ["1", "2", "3"]) expect(coerce(spec, ok)).toEqual({ value: Number(ok), problems: [] });
  });
});

describe("coerce: 0/1 flags", () => {
  const spec = field("vehicle_activity");
  it.each([
    ["1", 1],
    ["0", 0],
    [1, 1],
    [0, 0],
    [true, 1],
    [false, 0],
  ])("%j → %j", (raw, value) => {
    expect(coerce(spec, raw)).toEqual({ value, problems: [] });
  });
  it.each([
    ["2", "must be 0 or 1, got 2"],
    [-1, "must be 0 or 1, got -1"],
    ["yes", 'must be 0 or 1, got "yes"'],
  ])("%j is rejected", (raw, message) => {
    expect(coerce(spec, raw).problems).toEqual([message]);
  });
});

describe("coerce: strings", () => {
  it("numbers become text, other kinds are rejected", () => {
    expect(coerce(field("vehicle_reg_number"), 1234)).toEqual({ value: "1234", problems: [] });
    expect(coerce(field("vehicle_reg_number"), true).problems[0]).toMatch(/must be text/);
    expect(coerce(field("vehicle_reg_number"), { a: 1 }).problems[0]).toMatch(/must be text/);
  });

  it.each(["vehicle_description", "vehicle_tuning_text"])("%s: at most 5000 characters", (name) => {
    const spec = field(name);
    expect(spec.maxLength).toBe(5000);
    expect(coerce(spec, "a".repeat(5000)).problems).toEqual([]);
    expect(coerce(spec, "a".repeat(5001)).problems).toEqual(["must be at most 5000 characters, got 5001"]);
  });

  it("counts characters, not UTF-16 units", () => {
    const spec = field("vehicle_description");
    expect(coerce(spec, "🚗".repeat(5000)).problems).toEqual([]);
    expect(coerce(spec, "🚗".repeat(5001)).problems).toEqual(["must be at most 5000 characters, got 5001"]);
  });

  it("availability calendar: comma-separated d.m.Y dates", () => {
    const spec = field("vehicle_availability_calendar");
    for (const ok of ["24.12.2026", "24.12.2026,25.12.2026", "1.1.2027, 09.02.2027"]) {
      expect(coerce(spec, ok)).toEqual({ value: ok, problems: [] });
    }
    const r = coerce(spec, "24.12.2026,2026-12-25,24/12/2026,32.01.2026,1.13.2026");
    expect(r.value).toBeUndefined();
    expect(r.problems).toEqual([
      'dates must be real days in d.m.Y (e.g. 24.12.2026), not "2026-12-25", "24/12/2026", "32.01.2026", "1.13.2026"',
    ]);
  });

  it("a scalar given a one-item list takes the item; more is an error", () => {
    expect(coerce(field("vehicle_reg_number"), ["X"])).toEqual({ value: "X", problems: [] });
    expect(coerce(field("price_per_day"), ["1", "2"]).problems).toEqual(["takes a single value, not a list"]);
  });
});

describe("coerce: arrays", () => {
  it("integer arrays coerce each item; a single value becomes a list", () => {
    const spec = field("vehicle_images");
    expect(coerce(spec, ["1", 2, " 3 "])).toEqual({ value: [1, 2, 3], problems: [] });
    expect(coerce(spec, "4")).toEqual({ value: [4], problems: [] });
    expect(coerce(spec, null)).toEqual({ value: [], problems: [] });
    expect(coerce(spec, undefined)).toEqual({ value: [], problems: [] });
  });

  it("every bad item is named", () => {
    expect(coerce(field("vehicle_images"), ["1", "x", "0"]).problems).toEqual([
      'item 2 must be a whole number, got "x"',
      "item 3 must be at least 1, got 0",
    ]);
    expect(coerce(field("vehicle_delivery_address_fixed_price"), ["-5"]).problems).toEqual([
      "must be at least 0, got -5",
    ]);
  });

  it("string arrays keep text", () => {
    expect(coerce(field("vehicle_delivery_address_fixed_location"), ["Airport", 12])).toEqual({
      value: ["Airport", "12"],
      problems: [],
    });
  });
});

describe("validateRecord", () => {
  it("a valid create record coerces every member", () => {
    const { record, problems } = validateRecord(VALID, VEHICLE_FIELDS, { requireRequired: true });
    expect(problems).toEqual([]);
    expect(record.user_id).toBe(7);
    expect(record.vehicle_activity).toBe(1);
    expect(record.pickup_location).toBe("Airport");
  });

  it("lists every missing required field, and only the required ones", () => {
    const { problems } = validateRecord({}, VEHICLE_FIELDS, { requireRequired: true });
    const required = VEHICLE_FIELDS.filter((f) => f.required === true).map((f) => f.name);
    expect(problems).toEqual(required.map((field) => ({ field, message: "is required" })));
    // "conflicting" fields are never demanded
    for (const name of ["vehicle_vin", "vehicle_odometer", "vehicle_reg_number_country", "vehicle_images"]) {
      expect(problems.some((p) => p.field === name)).toBe(false);
    }
  });

  it("empty values count as missing", () => {
    const { problems } = validateRecord({ ...VALID, pickup_location: "", vehicle_fuel_policy: null }, VEHICLE_FIELDS, {
      requireRequired: true,
    });
    expect(problems).toEqual([
      { field: "pickup_location", message: "is required" },
      { field: "vehicle_fuel_policy", message: "is required" },
    ]);
  });

  it("requireRequired false demands nothing", () => {
    expect(validateRecord({ price_per_day: "5" }, VEHICLE_FIELDS, { requireRequired: false })).toEqual({
      record: { price_per_day: 5 },
      problems: [],
    });
  });

  it("reports every problem at once, by field, and a bad required field is not also 'required'", () => {
    const { problems } = validateRecord(
      {
        ...VALID,
        price_per_day: "-1",
        vehicle_activity: "2",
        vehicle_booking_lead_time: "5",
        vehicle_minimal_renting_period: "0",
        vehicle_description: "x".repeat(5001),
        vehicle_availability_calendar: "2026-01-01",
        vehicle_images: ["a"],
      },
      VEHICLE_FIELDS,
      { requireRequired: true },
    );
    expect(problems).toEqual([
      { field: "vehicle_activity", message: "must be 0 or 1, got 2" },
      { field: "price_per_day", message: "must be at least 0, got -1" },
      { field: "vehicle_minimal_renting_period", message: "must be at least 1, got 0" },
      { field: "vehicle_booking_lead_time", message: "must be at most 3, got 5" },
      { field: "vehicle_description", message: "must be at most 5000 characters, got 5001" },
      {
        field: "vehicle_availability_calendar",
        message: 'dates must be real days in d.m.Y (e.g. 24.12.2026), not "2026-01-01"',
      },
      { field: "vehicle_images", message: 'must be a whole number, got "a"' },
    ]);
  });

  it("drops absent values: undefined, null, empty strings, empty arrays", () => {
    const { record, problems } = validateRecord(
      {
        vehicle_vin: "",
        vehicle_odometer: null,
        vehicle_currency_id: undefined,
        vehicle_images: [],
        vehicle_extras: null,
        vehicle_benefits_id: "",
        vehicle_delivery_address_fixed_location: "",
      },
      VEHICLE_FIELDS,
      { requireRequired: false },
    );
    expect(problems).toEqual([]);
    expect(record).toEqual({});
  });

  it("closed operations reject members they do not declare", () => {
    const op = operation("extras.switch");
    expect(op.closed).toBe(true);
    const { record, problems } = validateRecord({ extra_id: "3", user_id: "1", note: "" }, op.params, {
      requireRequired: true,
      closed: true,
    });
    expect(record).toEqual({ extra_id: 3 });
    expect(problems).toEqual([
      { field: "user_id", message: "is not allowed here" },
      { field: "note", message: "is not allowed here" },
    ]);
  });

  it("closed wins over allowUnknown", () => {
    const { problems } = validateRecord({ x: "1" }, operation("vehicles.remove").params, {
      requireRequired: false,
      closed: true,
      allowUnknown: true,
    });
    expect(problems).toEqual([{ field: "x", message: "is not allowed here" }]);
  });

  it("unknown members are problems unless allowUnknown passes them through (non-empty only)", () => {
    expect(validateRecord({ bogus: "1" }, VEHICLE_FIELDS, { requireRequired: false }).problems).toEqual([
      { field: "bogus", message: "is not a known field" },
    ]);
    expect(
      validateRecord({ bogus: "1", empty: "" }, VEHICLE_FIELDS, { requireRequired: false, allowUnknown: true }),
    ).toEqual({ record: { bogus: "1" }, problems: [] });
  });

  it("extras: period 1-2, quantity at least 1", () => {
    const { problems } = validateRecord(
      { locale_id: 40, option_id: 1, price: 5, currency_id: 1, period: 3, quantity: 0 },
      EXTRA_FIELDS,
      { requireRequired: true },
    );
    expect(problems).toEqual([
      { field: "period", message: "must be at most 2, got 3" },
      { field: "quantity", message: "must be at least 1, got 0" },
    ]);
  });

  it("isEmpty", () => {
    for (const v of [undefined, null, "", []]) expect(isEmpty(v)).toBe(true);
    for (const v of [0, false, " ", [0], {}]) expect(isEmpty(v)).toBe(false);
  });
});

describe("crossFieldProblems", () => {
  it("one price per delivery place or location", () => {
    expect(
      crossFieldProblems({ vehicle_delivery_address_fixed_place: [1, 2], vehicle_delivery_address_fixed_price: [5] }),
    ).toEqual([
      {
        field: "vehicle_delivery_address_fixed_price",
        message: "needs one price per delivery place or location (2 given, 1 prices)",
      },
    ]);
    expect(
      crossFieldProblems({
        vehicle_delivery_address_fixed_place: [1, 2],
        vehicle_delivery_address_fixed_price: [5, 6],
      }),
    ).toEqual([]);
  });

  it("prices without places, and the return side", () => {
    expect(crossFieldProblems({ vehicle_delivery_return_fixed_price: [5] })).toEqual([
      {
        field: "vehicle_delivery_return_fixed_price",
        message: "needs one price per return place or location (0 given, 1 prices)",
      },
    ]);
    expect(
      crossFieldProblems({
        vehicle_delivery_return_fixed_location: ["Hotel", "Port"],
        vehicle_delivery_return_fixed_price: [1, 2],
      }),
    ).toEqual([]);
    expect(crossFieldProblems({})).toEqual([]);
  });
});

describe("records", () => {
  it("unwrapRecord: data, the kind's member, result or item; else the body without envelope members", () => {
    expect(unwrapRecord({ is_success: true, data: { id: 1 } })).toEqual({ id: 1 });
    expect(unwrapRecord({ vehicle: { id: 2 } }, "vehicle")).toEqual({ id: 2 });
    expect(unwrapRecord({ extra: { extra_id: 3 } }, "extra")).toEqual({ extra_id: 3 });
    expect(unwrapRecord({ result: { id: 4 } })).toEqual({ id: 4 });
    expect(unwrapRecord({ item: { id: 5 } })).toEqual({ id: 5 });
    expect(
      unwrapRecord({ meta: {}, is_success: true, success: true, message: "ok", status: 200, id: 6, name: "x" }),
    ).toEqual({ id: 6, name: "x" });
    expect(unwrapRecord({ data: [1, 2], id: 7 })).toEqual({ data: [1, 2], id: 7 });
    expect(unwrapRecord([1])).toEqual({});
    expect(unwrapRecord(null)).toEqual({});
  });

  it("recordId: `id`, else `vehicle_id` / `extra_id`, numbers or numeric strings of at least 1", () => {
    expect(recordId({ id: 5, vehicle_id: 9 }, "vehicle")).toBe(5);
    expect(recordId({ vehicle_id: 9 }, "vehicle")).toBe(9);
    expect(recordId({ vehicle_id: "10" }, "vehicle")).toBe(10);
    expect(recordId({ extra_id: 3 }, "extra")).toBe(3);
    expect(recordId({ extra_id: 3 }, "vehicle")).toBeUndefined();
    expect(recordId({ image_id: 4 }, "image")).toBe(4);
    expect(recordId({ image: "8" }, "image")).toBe(8);
    expect(recordId({ uid: 2 }, "vehicle")).toBe(2);
    expect(recordId({ id: 0, vehicle_id: 4 }, "vehicle")).toBe(4);
    for (const bad of [{ id: 0 }, { id: -1 }, { id: 1.5 }, { id: "x" }, { id: "0" }, {}, [], null, undefined]) {
      expect(recordId(bad, "vehicle")).toBeUndefined();
    }
  });

  it("recordId: a bare id, as number or numeric string, of at least 1", () => {
    expect(recordId(12, "image")).toBe(12);
    expect(recordId("13", "image")).toBe(13);
    for (const bad of [0, -1, 1.5, "0", "00", "", "1a"]) expect(recordId(bad, "image")).toBeUndefined();
  });

  it("normalizeRecord puts `id` first", () => {
    const r = normalizeRecord({ name: "x", vehicle_id: 4 }, "vehicle");
    expect(r).toEqual({ id: 4, name: "x", vehicle_id: 4 });
    expect(Object.keys(r)[0]).toBe("id");
    const noId = { name: "y" };
    expect(normalizeRecord(noId, "vehicle")).toBe(noId);
  });

  it("createdId finds the new id in the record or the body", () => {
    expect(createdId({ is_success: true, data: { vehicle_id: 5 } }, "vehicle")).toBe(5);
    expect(createdId({ id: 3 }, "vehicle")).toBe(3);
    expect(createdId({ extra: { id: "8" } }, "extra")).toBe(8);
    expect(createdId({ data: { name: "no id" }, extra_id: 4 }, "extra")).toBe(4);
    expect(createdId({ is_success: true }, "vehicle")).toBeUndefined();
    expect(createdId("nope", "vehicle")).toBeUndefined();
  });

  it("uploadedImageIds reads ids or objects from data, images, ids or image_ids", () => {
    expect(uploadedImageIds({ data: [{ id: 1 }, { id: 2 }] })).toEqual([1, 2]);
    expect(uploadedImageIds({ image_ids: [3, "4"] })).toEqual([3, 4]);
    expect(uploadedImageIds({ ids: [5] })).toEqual([5]);
    expect(uploadedImageIds({ images: [{ image_id: 6 }, { image: 7 }] })).toEqual([6, 7]);
    expect(uploadedImageIds({ data: { images: [{ id: 9 }] } })).toEqual([9]);
    expect(uploadedImageIds({ data: { image_ids: ["10", "11"] } })).toEqual([10, 11]);
    expect(uploadedImageIds({ data: [{ url: "x" }], ids: [12] })).toEqual([12]);
    expect(uploadedImageIds({ data: [] })).toEqual([]);
    expect(uploadedImageIds([1, 2])).toEqual([]);
  });
});

describe("OPERATIONS", () => {
  it("has 32 operations (20 public, 12 auth) with unique ids and unique method+path", () => {
    expect(OPERATIONS).toHaveLength(32);
    expect(new Set(OPERATIONS.map((o) => o.id)).size).toBe(32);
    expect(new Set(OPERATIONS.map((o) => `${o.method} ${o.path}`)).size).toBe(32);
    expect(OPERATIONS.filter((o) => o.access === "public")).toHaveLength(20);
    expect(OPERATIONS.filter((o) => o.access === "auth")).toHaveLength(12);
  });

  it("every path is under /api/v302/", () => {
    expect(API_PREFIX).toBe("/api/v302");
    for (const o of OPERATIONS) expect(o.path).toMatch(/^\/api\/v302\/[a-z_/]+[a-z_]$/);
  });

  it("GETs have no body encoding, POSTs have one; parameters are unique per operation", () => {
    for (const o of OPERATIONS) {
      if (o.method === "GET") expect(o.body).toBeUndefined();
      else expect(o.body).toBeDefined();
      expect(new Set(o.params.map((p) => p.name)).size).toBe(o.params.length);
    }
  });

  it("operation() and findOperation() look them up", () => {
    expect(operation("vehicles.list").path).toBe("/api/v302/vehicles/list");
    expect(() => operation("nope")).toThrow(/unknown operation/);
    expect(findOperation("get", "vehicles/list")?.id).toBe("vehicles.list");
    expect(findOperation("GET", "/api/v302/vehicles/list/id/?x=1")?.id).toBe("vehicles.get");
    expect(findOperation("POST", "/vehicles/list")).toBeUndefined();
  });
});

// ---- cross-checks against the spec document ------------------------------------------------

const SPEC_PATH = fileURLToPath(new URL("../../../shared/spec/partner-api-v302.md", import.meta.url));
const HAVE_SPEC = existsSync(SPEC_PATH);
const SKIP_NOTE = HAVE_SPEC ? "" : ` (skipped: spec not found at ${SPEC_PATH})`;

/** The rows of the first markdown table after `heading`. */
function specTable(heading: string): string[][] {
  const lines = readFileSync(SPEC_PATH, "utf8").split("\n");
  const start = lines.findIndex((l) => l.trim() === heading);
  if (start < 0) throw new Error(`heading ${heading} not found in the spec`);
  const rows: string[][] = [];
  let inTable = false;
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith("|")) {
      inTable = true;
      rows.push(
        line
          .slice(1, line.lastIndexOf("|"))
          .split("|")
          .map((c) => c.trim()),
      );
    } else if (inTable) break;
  }
  // drop the header and the |---| separator
  return rows.slice(2);
}

describe("contract matches the spec document", () => {
  it.skipIf(!HAVE_SPEC)(`VEHICLE_FIELDS covers every field of the spec's vehicle table, in order${SKIP_NOTE}`, () => {
    const rows = specTable("### Vehicle (input fields)");
    expect(rows.length).toBeGreaterThan(60);
    const specNames = rows.map((r) => r[0]!);
    const ours = VEHICLE_FIELDS.map((f) => f.name);
    expect(ours.filter((n) => !specNames.includes(n))).toEqual([]);
    expect(specNames.filter((n) => !ours.includes(n))).toEqual([]);
    expect(ours).toEqual(specNames);
  });

  it.skipIf(!HAVE_SPEC)(`vehicle field types, requiredness and limits follow the spec${SKIP_NOTE}`, () => {
    for (const [name, type, required, meaning] of specTable("### Vehicle (input fields)")) {
      const f = field(name!);
      const where = `${name}: ${type} / ${required}`;
      expect(f.required, where).toBe(required === "yes" ? true : required === "no" ? false : "conflicting");
      if (type === "integer 0/1") expect(f.type, where).toBe("flag");
      else if (type!.startsWith("integer")) expect(["integer", "flag"], where).toContain(f.type);
      else if (type === "string") expect(f.type, where).toBe("string");
      else if (type === "array of string") expect(f.type, where).toBe("string[]");
      else if (type!.startsWith("array")) expect(f.type, where).toBe("integer[]");
      else throw new Error(`unexpected spec type ${where}`);
      if (/\(>= 1\)/.test(type!)) expect(f.min, where).toBe(1);
      if (/\(>= 0\)/.test(type!)) expect(f.min, where).toBe(0);
      if (/at most 5000 characters/.test(meaning!)) expect(f.maxLength, where).toBe(5000);
      if (/1 to 3/.test(meaning!)) expect([f.min, f.max], where).toEqual([1, 3]);
      if (/^1 = .*0 = /.test(meaning!)) expect(f.type, where).toBe("flag");
    }
  });

  it.skipIf(!HAVE_SPEC)(`OPERATIONS match the spec's operations table${SKIP_NOTE}`, () => {
    const rows = specTable("### Operations");
    expect(rows).toHaveLength(32);
    for (const [method, path, access, , body, errors] of rows) {
      const op = findOperation(method!, path!);
      expect(op, `${method} ${path}`).toBeDefined();
      if (!op) continue;
      expect(op.path).toBe(path);
      expect(op.access, path).toBe(access === "Auth" ? "auth" : "public");
      expect(op.envelope, path).toBe(body!.split(" ")[0]!.toLowerCase());
      const listed = errors === "none listed" ? [] : errors!.split(",").map((e) => Number(e.trim()));
      expect(op.errors, path).toEqual(listed);
    }
  });
});
