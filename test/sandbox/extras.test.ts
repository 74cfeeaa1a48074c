import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../src/sandbox/server.js";
import { type Api, envelope, KEY_1002, KEY_1003, start } from "./helpers.js";

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
const NOT_FOUND = { is_success: false, errors: { message: "extra not found", code: 404 } };
const UNAUTHORIZED = { is_success: false, errors: { message: "unauthorized", code: 401 } };
const FULL = { option_id: 5, price: 12, currency_id: 3, period: 2, quantity: 3 };

async function createExtra(fields: Record<string, number> = FULL): Promise<number> {
  const r = await api.post("vehicles/extras/create", { locale_id: 40, ...fields });
  expect(r.status, r.text).toBe(200);
  return r.body.data.id;
}

const getExtra = async (id: number, locale = 40) =>
  api.get("vehicles/extras/list/id", { extra_id: id, locale_id: locale });

describe("extras", () => {
  it("create answers the record: members, is_active 1, option name in the locale", async () => {
    const r = await api.post("vehicles/extras/create", { locale_id: 25, ...FULL });
    expect(r.body.data).toEqual({
      id: expect.any(Number),
      ...FULL,
      is_active: 1,
      option_name: "Schneeketten",
      user_id: 1001,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const got = await getExtra(r.body.data.id, 18);
    expect(got.body.data).toMatchObject({ ...FULL, option_name: "Cadenas para nieve" });
  });

  it("create: every member required, ranges and references checked", async () => {
    const none = await api.post("vehicles/extras/create", {});
    expect(envelope(none.body)).toEqual(
      validation({
        locale_id: ["is required"],
        option_id: ["is required"],
        price: ["is required"],
        currency_id: ["is required"],
        period: ["is required"],
        quantity: ["is required"],
      }),
    );
    const bad = await api.post("vehicles/extras/create", {
      locale_id: 40,
      option_id: 99,
      price: -1,
      currency_id: 77,
      period: 3,
      quantity: 0,
    });
    expect(envelope(bad.body)).toEqual(
      validation({
        price: ["must be at least 0, got -1"],
        period: ["must be at most 2, got 3"],
        quantity: ["must be at least 1, got 0"],
        option_id: ["no extra option with id 99"],
        currency_id: ["no currency with id 77"],
      }),
    );
    const locale = await api.post("vehicles/extras/create", { ...FULL, locale_id: 41 });
    expect(envelope(locale.body)).toEqual(validation({ locale_id: ["no locale with id 41"] }));
  });

  it("list is paginated and holds only the owner's extras", async () => {
    for (let i = 0; i < 3; i++) await createExtra();
    const r = await api.get("vehicles/extras/list", { locale_id: 40, limit: 2, offset: 2 });
    expect(r.body).toMatchObject({ total: 6, per_page: 2, current_page: 2, limit: 2, last_page: 3 });
    expect(r.body.data).toHaveLength(2);
    const all = (await api.get("vehicles/extras/list", { locale_id: 40 })).body.data;
    for (const e of all) expect(e.user_id).toBe(1001);
    const empty = await api.as(KEY_1003).get("vehicles/extras/list", { locale_id: 40 });
    expect(empty.body).toMatchObject({ total: 0, current_page: 0, last_page: 0, data: [] });
    const noLocale = await api.get("vehicles/extras/list", {});
    expect(envelope(noLocale.body)).toEqual(validation({ locale_id: ["is required"] }));
  });

  it("get: 404 unknown, 401 another owner's", async () => {
    const unknown = await getExtra(5555);
    expect(unknown.status).toBe(404);
    expect(envelope(unknown.body)).toEqual(NOT_FOUND);
    const foreign = await getExtra(4);
    expect(foreign.status).toBe(401);
    expect(envelope(foreign.body)).toEqual(UNAUTHORIZED);
  });

  it("update is a full replacement: members left out are cleared, is_active kept", async () => {
    const id = await createExtra();
    await api.post("vehicles/extras/switch", { extra_id: id }); // -> 0
    const r = await api.post("vehicles/extras/update", { extra_id: id, locale_id: 40, price: 20 });
    expect(r.status, r.text).toBe(200);
    const got = (await getExtra(id)).body.data;
    expect(got).toEqual({
      id,
      price: 20,
      is_active: 0,
      user_id: 1001,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const full = await api.post("vehicles/extras/update", { extra_id: id, locale_id: 40, ...FULL, price: 30 });
    expect(full.body.data).toMatchObject({ ...FULL, price: 30, is_active: 0 });
  });

  it("update: extra_id and locale_id required; 404; 401", async () => {
    const none = await api.post("vehicles/extras/update", { price: 1 });
    expect(envelope(none.body)).toEqual(validation({ extra_id: ["is required"], locale_id: ["is required"] }));
    const unknown = await api.post("vehicles/extras/update", { extra_id: 999, locale_id: 40, ...FULL });
    expect(envelope(unknown.body)).toEqual(NOT_FOUND);
    const foreign = await api.post("vehicles/extras/update", { extra_id: 4, locale_id: 40, ...FULL });
    expect(envelope(foreign.body)).toEqual(UNAUTHORIZED);
    const theirs = (await api.as(KEY_1002).get("vehicles/extras/list/id", { extra_id: 4, locale_id: 40 })).body.data;
    expect(theirs.option_id).toBe(9);
  });

  it("switch toggles is_active and answers the record", async () => {
    const id = await createExtra();
    const off = await api.post("vehicles/extras/switch", { extra_id: id });
    expect(off.body.data).toMatchObject({ id, is_active: 0, ...FULL });
    const on = await api.post("vehicles/extras/switch", { extra_id: id });
    expect(on.body.data.is_active).toBe(1);
    expect((await getExtra(id)).body.data.is_active).toBe(1);
  });

  it("switch and delete are closed: only extra_id", async () => {
    for (const op of ["switch", "delete"]) {
      const r = await api.post(`vehicles/extras/${op}`, { extra_id: 1, locale_id: 40 });
      expect(envelope(r.body)).toEqual(validation({ locale_id: ["is not allowed here"] }));
      const none = await api.post(`vehicles/extras/${op}`, {});
      expect(envelope(none.body)).toEqual(validation({ extra_id: ["is required"] }));
      const unknown = await api.post(`vehicles/extras/${op}`, { extra_id: 999 });
      expect(envelope(unknown.body)).toEqual(NOT_FOUND);
      const foreign = await api.post(`vehicles/extras/${op}`, { extra_id: 4 });
      expect(envelope(foreign.body)).toEqual(UNAUTHORIZED);
    }
  });

  it("delete: then 404, gone from the list, and detached from vehicles", async () => {
    const before = (await api.get("vehicles/list/id", { vehicle_id: 1, locale_id: 40 })).body.data;
    expect(before.vehicle_extras).toEqual([1, 2]);
    const r = await api.post("vehicles/extras/delete", { extra_id: 1 });
    expect(r.body.data).toEqual({ id: 1, deleted: true });
    expect((await getExtra(1)).status).toBe(404);
    const list = (await api.get("vehicles/extras/list", { locale_id: 40 })).body.data;
    expect(list.map((e: { id: number }) => e.id)).not.toContain(1);
    const after = (await api.get("vehicles/list/id", { vehicle_id: 1, locale_id: 40 })).body.data;
    expect(after.vehicle_extras).toEqual([2]);
    expect(after.updated_at).toBe(before.updated_at);
  });
});
