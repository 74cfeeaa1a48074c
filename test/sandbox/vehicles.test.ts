import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { VEHICLE_FIELDS } from "../../src/contract/vehicle-fields.js";
import { sampleVehicleInput } from "../../src/sandbox/seed.js";
import type { RunningSandbox } from "../../src/sandbox/server.js";
import { type Api, envelope, KEY_1002, KEY_1003, start, uploadForm } from "./helpers.js";

let sb: RunningSandbox;
let api: Api;
beforeEach(async () => {
  ({ sb, api } = await start());
});
afterEach(() => sb.close());

const validation = (fields: Record<string, string[]>) => ({
  is_success: false,
  errors: { message: "validation error", code: 400, fields },
});
const NOT_FOUND = { is_success: false, errors: { message: "vehicle not found", code: 404 } };
const UNAUTHORIZED = { is_success: false, errors: { message: "unauthorized", code: 401 } };

async function create(extra: Record<string, unknown> = {}): Promise<number> {
  const r = await api.post("vehicles/create", { ...sampleVehicleInput(1001), ...extra } as never);
  expect(r.status, r.text).toBe(200);
  return r.body.data.id;
}

describe("vehicles/create", () => {
  it("answers the stored record: id, every wire field sent (coerced), timestamps", async () => {
    const input = { ...sampleVehicleInput(1001), vehicle_benefits_id: [1, 2], locale_id: 25, unknown_member: "x" };
    const r = await api.post("vehicles/create", input);
    expect(r.status).toBe(200);
    const { id, created_at, updated_at, ...fields } = r.body.data;
    expect(id).toBeGreaterThanOrEqual(6);
    expect(created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(updated_at).toBe(created_at);
    const { locale_id: _l, unknown_member: _u, ...expected } = input;
    expect(fields).toEqual(expected);
    // Returned members follow the contract's field order.
    const order = VEHICLE_FIELDS.map((f) => f.name).filter((n) => n in fields);
    expect(Object.keys(fields)).toEqual(order);
    const got = await api.get("vehicles/list/id", { vehicle_id: id, locale_id: 40 });
    expect(got.body.data).toEqual(r.body.data);
  });

  it("lists every missing required field at once", async () => {
    const r = await api.post("vehicles/create", { user_id: 1001 });
    expect(r.status).toBe(400);
    const required = VEHICLE_FIELDS.filter((f) => f.required === true && f.name !== "user_id").map((f) => f.name);
    expect(envelope(r.body)).toEqual(validation(Object.fromEntries(required.map((n) => [n, ["is required"]]))));
    // "conflicting" fields are never demanded
    for (const f of VEHICLE_FIELDS.filter((x) => x.required === "conflicting")) {
      expect(r.body.errors.fields[f.name]).toBeUndefined();
    }
  });

  it("reports types, ranges, lengths, dates and cross-field rules together", async () => {
    const r = await api.post("vehicles/create", {
      ...sampleVehicleInput(1001),
      price_per_day: "12.5",
      vehicle_activity: 2,
      vehicle_minimal_renting_period: 0,
      vehicle_booking_lead_time: 4,
      vehicle_description: "x".repeat(5001),
      vehicle_availability_calendar: "24.12.2026,2026-12-25",
      vehicle_benefits_id: [1, "b"],
      vehicle_delivery_address_fixed_place: [1, 2],
      vehicle_delivery_address_fixed_price: [10],
    });
    expect(r.status).toBe(400);
    expect(envelope(r.body)).toEqual(
      validation({
        price_per_day: ['must be a whole number, got "12.5"'],
        vehicle_activity: ["must be 0 or 1, got 2"],
        vehicle_minimal_renting_period: ["must be at least 1, got 0"],
        vehicle_booking_lead_time: ["must be at most 3, got 4"],
        vehicle_description: ["must be at most 5000 characters, got 5001"],
        vehicle_availability_calendar: ['dates must be real days in d.m.Y (e.g. 24.12.2026), not "2026-12-25"'],
        vehicle_benefits_id: ['item 2 must be a whole number, got "b"'],
        vehicle_delivery_address_fixed_price: ["needs one price per delivery place or location (2 given, 1 prices)"],
      }),
    );
  });

  it("checks catalog references and segment consistency, naming each field", async () => {
    const r = await api.post("vehicles/create", {
      ...sampleVehicleInput(1001),
      vehicle_class_id: 10, // a motorcycle class
      vehicle_model_id: 101, // a model id, not a configuration id
      vehicle_year_of_issue_id: 2023,
      vehicle_currency_id: 99,
      vehicle_fuel_policy: 42,
      vehicle_reg_number_country: 500,
      vehicle_payment_types: [1, 77],
      locale_id: 3,
    });
    expect(r.status).toBe(400);
    expect(envelope(r.body)).toEqual(
      validation({
        locale_id: ["no locale with id 3"],
        vehicle_model_id: ["no vehicle configuration with id 101"],
        vehicle_year_of_issue_id: ["no year of issue with id 2023"],
        vehicle_reg_number_country: ["no registration country with id 500"],
        vehicle_currency_id: ["no currency with id 99"],
        vehicle_fuel_policy: ["no fuel policy with id 42"],
        vehicle_payment_types: ["no payment type with id 77"],
        vehicle_class_id: ["class 10 is not in segment 1"],
      }),
    );
  });

  it("user_id of another owner -> 401; a missing user_id -> 400", async () => {
    const other = await api.post("vehicles/create", { ...sampleVehicleInput(1002) });
    expect(other.status).toBe(401);
    expect(envelope(other.body)).toEqual(UNAUTHORIZED);
    const { user_id: _u, ...noUser } = sampleVehicleInput(1001);
    const missing = await api.post("vehicles/create", noUser);
    expect(envelope(missing.body)).toEqual(validation({ user_id: ["is required"] }));
  });

  it("accepts arrays as key[]=v and as plain repeated key=v; a repeated scalar is a 400", async () => {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(sampleVehicleInput(1001))) body.append(k, String(v));
    body.append("vehicle_benefits_id", "1");
    body.append("vehicle_benefits_id", "3");
    body.append("vehicle_options_id[]", "2");
    const r = await api.post("vehicles/create", body);
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.vehicle_benefits_id).toEqual([1, 3]);
    expect(r.body.data.vehicle_options_id).toEqual([2]);
    body.append("price_per_day", "50");
    const twice = await api.post("vehicles/create", body);
    expect(envelope(twice.body)).toEqual(validation({ price_per_day: ["takes a single value, not a list"] }));
  });

  it("accepts multipart bodies too, but no files in them", async () => {
    const fd = new FormData();
    for (const [k, v] of Object.entries(sampleVehicleInput(1001))) fd.append(k, String(v));
    const ok = await api.multipart("vehicles/create", fd);
    expect(ok.status, ok.text).toBe(200);
    fd.append("photo", new Blob(["x"]), "x.jpg");
    const bad = await api.multipart("vehicles/create", fd);
    expect(envelope(bad.body)).toEqual(validation({ photo: ["must be a text value, not a file"] }));
  });
});

describe("vehicles/list and vehicles/list/id", () => {
  it("pagination math: total, per_page, current_page, limit, last_page", async () => {
    for (let i = 0; i < 4; i++) await create({ vehicle_reg_number: `P-${i}` }); // 3 seeded + 4 = 7
    const page = async (q: Record<string, number>) =>
      (await api.get("vehicles/list", { user_id: 1001, locale_id: 40, ...q })).body;
    const first = await page({});
    expect(first).toMatchObject({ total: 7, per_page: 15, current_page: 1, limit: 15, last_page: 1 });
    expect(first.data).toHaveLength(7);
    const ids = first.data.map((v: { id: number }) => v.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));

    const p = await page({ limit: 3, offset: 3 });
    expect(p).toMatchObject({ total: 7, per_page: 3, current_page: 2, limit: 3, last_page: 3 });
    expect(p.data.map((v: { id: number }) => v.id)).toEqual(ids.slice(3, 6));
    const last = await page({ limit: 3, offset: 6 });
    expect(last).toMatchObject({ current_page: 3, last_page: 3 });
    expect(last.data).toHaveLength(1);
    const unaligned = await page({ limit: 3, offset: 4 });
    expect(unaligned.current_page).toBe(2);
    expect(unaligned.data.map((v: { id: number }) => v.id)).toEqual(ids.slice(4, 7));
    const past = await page({ limit: 3, offset: 30 });
    expect(past).toMatchObject({ total: 7, current_page: 11, last_page: 3, data: [] });
  });

  it("an owner with nothing: current_page 0, last_page 0", async () => {
    const r = await api.as(KEY_1003).get("vehicles/list", { user_id: 1003, locale_id: 40 });
    expect(r.body).toMatchObject({ total: 0, per_page: 15, current_page: 0, limit: 15, last_page: 0, data: [] });
  });

  it("limit and offset bounds; user_id and locale_id required", async () => {
    const r = await api.get("vehicles/list", { user_id: 1001, locale_id: 40, limit: 0, offset: -1 });
    expect(envelope(r.body)).toEqual(
      validation({ limit: ["must be at least 1, got 0"], offset: ["must be at least 0, got -1"] }),
    );
    const r2 = await api.get("vehicles/list", {});
    expect(envelope(r2.body)).toEqual(validation({ user_id: ["is required"], locale_id: ["is required"] }));
  });

  it("lists only the key owner's vehicles; another owner's user_id -> 401", async () => {
    const mine = (await api.get("vehicles/list", { user_id: 1001, locale_id: 40 })).body.data;
    for (const v of mine) expect(v.user_id).toBe(1001);
    const r = await api.get("vehicles/list", { user_id: 1002, locale_id: 40 });
    expect(r.status).toBe(401);
    expect(envelope(r.body)).toEqual(UNAUTHORIZED);
  });

  it("get: 404 for an unknown id, 401 for another owner's vehicle, 400 for a bad id", async () => {
    const unknown = await api.get("vehicles/list/id", { vehicle_id: 999999, locale_id: 40 });
    expect(unknown.status).toBe(404);
    expect(envelope(unknown.body)).toEqual(NOT_FOUND);
    const others = await api.get("vehicles/list/id", { vehicle_id: 4, locale_id: 40 });
    expect(others.status).toBe(401);
    expect(envelope(others.body)).toEqual(UNAUTHORIZED);
    const bad = await api.get("vehicles/list/id", { vehicle_id: 0 });
    expect(envelope(bad.body)).toEqual(
      validation({ vehicle_id: ["must be at least 1, got 0"], locale_id: ["is required"] }),
    );
  });
});

describe("vehicles/edit replaces the record", () => {
  it("fields left out are cleared, required ones included; id and created_at stay", async () => {
    const before = (await api.get("vehicles/list/id", { vehicle_id: 1, locale_id: 40 })).body.data;
    expect(before.vehicle_description).toBeDefined();
    const r = await api.post("vehicles/edit", { user_id: 1001, vehicle_id: 1, price_per_day: 60 });
    expect(r.status, r.text).toBe(200);
    const after = (await api.get("vehicles/list/id", { vehicle_id: 1, locale_id: 40 })).body.data;
    expect(after).toEqual({
      id: 1,
      user_id: 1001,
      price_per_day: 60,
      created_at: before.created_at,
      updated_at: expect.any(String),
    });
    expect(after.pickup_location).toBeUndefined();
    expect(after.vehicle_images).toBeUndefined();
  });

  it("a full record round-trips unchanged (get, strip nothing, send back)", async () => {
    const before = (await api.get("vehicles/list/id", { vehicle_id: 2, locale_id: 40 })).body.data;
    const r = await api.post("vehicles/edit", { ...before, vehicle_id: 2, vehicle_activity: 0 });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toEqual({ ...before, vehicle_activity: 0, updated_at: r.body.data.updated_at });
  });

  it("needs vehicle_id and user_id; 404 unknown; 401 for another owner's vehicle or user_id", async () => {
    const none = await api.post("vehicles/edit", {});
    expect(envelope(none.body)).toEqual(validation({ vehicle_id: ["is required"], user_id: ["is required"] }));
    const unknown = await api.post("vehicles/edit", { user_id: 1001, vehicle_id: 424242 });
    expect(unknown.status).toBe(404);
    expect(envelope(unknown.body)).toEqual(NOT_FOUND);
    const foreign = await api.post("vehicles/edit", { user_id: 1001, vehicle_id: 4 });
    expect(foreign.status).toBe(401);
    const otherUser = await api.post("vehicles/edit", { user_id: 1002, vehicle_id: 1 });
    expect(otherUser.status).toBe(401);
    // the foreign vehicle is untouched
    const four = await api.as(KEY_1002).get("vehicles/list/id", { vehicle_id: 4, locale_id: 40 });
    expect(four.body.data.pickup_location).toBeDefined();
  });

  it("validation comes before the lookup (400 over 404)", async () => {
    const r = await api.post("vehicles/edit", { user_id: 1001, vehicle_id: 424242, price_per_day: -1 });
    expect(r.status).toBe(400);
    expect(r.body.errors.fields).toEqual({ price_per_day: ["must be at least 0, got -1"] });
  });
});

describe("vehicles/remove", () => {
  it("then get -> 404 and the list no longer has it; ids are not reused", async () => {
    const id = await create();
    const r = await api.post("vehicles/remove", { user_id: 1001, vehicle_id: id });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ id, deleted: true });
    const got = await api.get("vehicles/list/id", { vehicle_id: id, locale_id: 40 });
    expect(got.status).toBe(404);
    expect(envelope(got.body)).toEqual(NOT_FOUND);
    const list = (await api.get("vehicles/list", { user_id: 1001, locale_id: 40, limit: 100 })).body;
    expect(list.data.map((v: { id: number }) => v.id)).not.toContain(id);
    expect(list.total).toBe(3);
    const again = await api.post("vehicles/remove", { user_id: 1001, vehicle_id: id });
    expect(again.status).toBe(404);
    expect(await create()).toBeGreaterThan(id);
  });

  it("no other members allowed; both members required; another owner's vehicle -> 401", async () => {
    const extra = await api.post("vehicles/remove", { user_id: 1001, vehicle_id: 1, locale_id: 40 });
    expect(envelope(extra.body)).toEqual(validation({ locale_id: ["is not allowed here"] }));
    const none = await api.post("vehicles/remove", {});
    expect(envelope(none.body)).toEqual(validation({ user_id: ["is required"], vehicle_id: ["is required"] }));
    const foreign = await api.post("vehicles/remove", { user_id: 1001, vehicle_id: 4 });
    expect(foreign.status).toBe(401);
    expect(envelope(foreign.body)).toEqual(UNAUTHORIZED);
  });
});

describe("vehicles/upload", () => {
  it.each([
    ["file", 1],
    ["file", 10],
    ["file[]", 1],
    ["file[]", 10],
  ])("takes %s parts (%i files) and answers the created image ids", async (name, count) => {
    const r = await api.multipart("vehicles/upload", uploadForm(1001, count, name));
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toHaveLength(count);
    for (const [i, img] of r.body.data.entries()) {
      expect(img).toEqual({
        id: expect.any(Number),
        file_name: `photo-${i + 1}.jpg`,
        size: 13,
        content_type: "image/jpeg",
      });
    }
    const ids = r.body.data.map((i: { id: number }) => i.id);
    expect(new Set(ids).size).toBe(count);
    const car = await api.post("vehicles/create", { ...sampleVehicleInput(1001), vehicle_images: ids });
    expect(car.status).toBe(200);
    expect(car.body.data.vehicle_images).toEqual(ids);
  });

  it("11 files -> 400; 0 files -> 400", async () => {
    const many = await api.multipart("vehicles/upload", uploadForm(1001, 11));
    expect(many.status).toBe(400);
    expect(envelope(many.body)).toEqual(validation({ file: ["at most 10 files per upload, got 11"] }));
    const none = await api.multipart("vehicles/upload", uploadForm(1001, 0));
    expect(envelope(none.body)).toEqual(validation({ file: ["is required: send 1 to 10 file parts"] }));
    const form = await api.post("vehicles/upload", { user_id: 1001 });
    expect(form.status).toBe(400);
  });

  it("no other members; user_id required and must be the key's owner", async () => {
    const extra = await api.multipart("vehicles/upload", uploadForm(1001, 1, "file", { locale_id: "40" }));
    expect(envelope(extra.body)).toEqual(validation({ locale_id: ["is not allowed here"] }));
    const fd = uploadForm(1001, 1);
    fd.append("image", new Blob(["x"]), "x.jpg");
    const otherPart = await api.multipart("vehicles/upload", fd);
    expect(envelope(otherPart.body)).toEqual(validation({ image: ["is not allowed here"] }));
    const noUser = new FormData();
    noUser.append("file", new Blob(["x"]), "x.jpg");
    expect(envelope((await api.multipart("vehicles/upload", noUser)).body)).toEqual(
      validation({ user_id: ["is required"] }),
    );
    const textFile = new FormData();
    textFile.append("user_id", "1001");
    textFile.append("file", "not a file");
    expect(envelope((await api.multipart("vehicles/upload", textFile)).body)).toEqual(
      validation({ file: ["must be a file part (multipart/form-data with a file name)"] }),
    );
    const other = await api.multipart("vehicles/upload", uploadForm(1002, 1));
    expect(other.status).toBe(401);
  });

  it("an empty file -> 400", async () => {
    const fd = new FormData();
    fd.append("user_id", "1001");
    fd.append("file", new Blob([]), "empty.jpg");
    const r = await api.multipart("vehicles/upload", fd);
    expect(envelope(r.body)).toEqual(validation({ file: ["file 1 (empty.jpg) is empty"] }));
  });

  it("vehicle_images of another owner or unknown -> 400 naming the field", async () => {
    const theirs = await api.as(KEY_1002).multipart("vehicles/upload", uploadForm(1002, 1));
    const theirId = theirs.body.data[0].id;
    const r = await api.post("vehicles/create", { ...sampleVehicleInput(1001), vehicle_images: [1, theirId, 9999] });
    expect(r.status).toBe(400);
    expect(envelope(r.body)).toEqual(
      validation({
        vehicle_images: [`no image with id ${theirId} in this account`, "no image with id 9999 in this account"],
      }),
    );
    const edit = await api.post("vehicles/edit", { ...sampleVehicleInput(1001), vehicle_id: 1, vehicle_images: [3] });
    expect(envelope(edit.body)).toEqual(validation({ vehicle_images: ["no image with id 3 in this account"] }));
  });

  it("vehicle_extras must be extras of the same owner", async () => {
    const r = await api.post("vehicles/create", { ...sampleVehicleInput(1001), vehicle_extras: [1, 4] });
    expect(envelope(r.body)).toEqual(validation({ vehicle_extras: ["no extra with id 4 in this account"] }));
  });
});
