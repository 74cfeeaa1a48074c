import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_PREFIX, API_VERSION, OPERATIONS } from "../../src/contract/operations.js";
import { HANDLERS } from "../../src/sandbox/handlers.js";
import { sampleVehicleInput } from "../../src/sandbox/seed.js";
import type { RunningSandbox } from "../../src/sandbox/server.js";
import { type Api, envelope, KEY_1001, type Reply, start, uploadForm } from "./helpers.js";

/**
 * One successful call of every operation in OPERATIONS, in an order where
 * each can use what the earlier ones made. A missing entry fails the suite.
 */
interface Made {
  vehicleId?: number;
  extraId?: number;
  imageIds?: number[];
}

const SUCCESS: Record<string, (api: Api, made: Made) => Promise<Reply>> = {
  "catalog.setup": (api) => api.get("setup"),
  "catalog.currencies": (api) => api.get("currencies"),
  "catalog.locales": (api) => api.get("locales"),
  "catalog.segments": (api) => api.get("vehicles/segments", { locale_id: 40 }),
  "catalog.brands": (api) => api.get("vehicles/brands", { segment_id: 1 }),
  "catalog.models": (api) => api.get("vehicles/models", { brand_id: 1 }),
  "catalog.equipments": (api) => api.get("vehicles/equipments", { model_id: 101 }),
  "catalog.years_of_issue": (api) => api.get("vehicles/years_of_issue"),
  "catalog.classes_or_types": (api) => api.get("vehicles/classes_or_types", { segment_id: 1 }),
  "catalog.transmissions": (api) => api.get("vehicles/transmissions", { segment_id: 2 }),
  "catalog.benefits": (api) => api.get("vehicles/benefits"),
  "catalog.additional_features": (api) => api.get("vehicles/additional_features", { segment_id: 3 }),
  "catalog.options": (api) => api.get("vehicles/options"),
  "catalog.protection_plans": (api) => api.get("vehicles/protection_plans"),
  "catalog.delivery": (api) => api.get("vehicles/delivery"),
  "catalog.fuel_policy": (api) => api.get("vehicles/fuel_policy"),
  "catalog.distance_units": (api) => api.get("vehicles/distance_units"),
  "catalog.payment_systems": (api) => api.get("vehicles/payment_systems"),
  "catalog.payment_types": (api) => api.get("vehicles/payment/types"),
  "catalog.extra_options": (api) => api.get("vehicles/extras/options", { locale_id: 40 }),
  "vehicles.upload": async (api, made) => {
    const r = await api.multipart("vehicles/upload", uploadForm(1001, 2));
    made.imageIds = r.body?.data?.map((i: { id: number }) => i.id);
    return r;
  },
  "extras.create": async (api, made) => {
    const r = await api.post("vehicles/extras/create", {
      locale_id: 40,
      option_id: 3,
      price: 7,
      currency_id: 1,
      period: 1,
      quantity: 2,
    });
    made.extraId = r.body?.data?.id;
    return r;
  },
  "vehicles.create": async (api, made) => {
    const r = await api.post("vehicles/create", {
      ...sampleVehicleInput(1001),
      vehicle_images: made.imageIds,
      vehicle_extras: [made.extraId as number],
    });
    made.vehicleId = r.body?.data?.id;
    return r;
  },
  "vehicles.list": (api) => api.get("vehicles/list", { user_id: 1001, locale_id: 40 }),
  "vehicles.get": (api, made) => api.get("vehicles/list/id", { vehicle_id: made.vehicleId, locale_id: 40 }),
  "vehicles.edit": (api, made) =>
    api.post("vehicles/edit", { ...sampleVehicleInput(1001), vehicle_id: made.vehicleId, price_per_day: 50 }),
  "extras.list": (api) => api.get("vehicles/extras/list", { locale_id: 40 }),
  "extras.get": (api, made) => api.get("vehicles/extras/list/id", { extra_id: made.extraId, locale_id: 40 }),
  "extras.update": (api, made) =>
    api.post("vehicles/extras/update", {
      extra_id: made.extraId,
      locale_id: 40,
      option_id: 3,
      price: 9,
      currency_id: 2,
      period: 2,
      quantity: 1,
    }),
  "extras.switch": (api, made) => api.post("vehicles/extras/switch", { extra_id: made.extraId }),
  "vehicles.remove": (api, made) => api.post("vehicles/remove", { user_id: 1001, vehicle_id: made.vehicleId }),
  "extras.delete": (api, made) => api.post("vehicles/extras/delete", { extra_id: made.extraId }),
};

let sb: RunningSandbox;
let api: Api;
beforeAll(async () => {
  ({ sb, api } = await start());
});
afterAll(() => sb.close());

describe("coverage", () => {
  it("has a handler and a success case for each of the 32 operations", () => {
    expect(OPERATIONS).toHaveLength(32);
    expect(Object.keys(HANDLERS).sort()).toEqual(OPERATIONS.map((o) => o.id).sort());
    expect(Object.keys(SUCCESS).sort()).toEqual(OPERATIONS.map((o) => o.id).sort());
  });
});

describe("every operation succeeds", () => {
  const made: Made = {};
  for (const id of Object.keys(SUCCESS)) {
    const op = OPERATIONS.find((o) => o.id === id);
    if (!op) continue;
    it(`${op.method} ${op.path} (${id})`, async () => {
      const r = await (SUCCESS[id] as (typeof SUCCESS)[string])(api, made);
      expect(r.status, r.text).toBe(200);
      expect(r.headers.get("content-type")).toMatch(/^application\/json/);
      expect(r.body.meta).toMatchObject({ method: op.method, path: op.path, api_version: API_VERSION });
      expect(typeof r.body.meta.vars).toBe("object");
      if (op.envelope === "list") {
        expect(Array.isArray(r.body.list)).toBe(true);
        expect(r.body.list.length).toBeGreaterThan(0);
        for (const item of r.body.list) expect(typeof item).toBe("object");
      } else if (op.envelope === "paginated") {
        for (const k of ["total", "per_page", "current_page", "limit", "last_page"]) {
          expect(Number.isInteger(r.body[k])).toBe(true);
        }
        expect(Array.isArray(r.body.data)).toBe(true);
      } else {
        expect(r.body.is_success).toBe(true);
        expect(r.body.data).toBeTypeOf("object");
      }
      expect(r.text).not.toContain(KEY_1001);
    });
  }
});

describe("authentication", () => {
  const authOps = OPERATIONS.filter((o) => o.access === "auth");

  for (const op of authOps) {
    it(`${op.id}: no key and an unknown key answer 401 with the exact envelope`, async () => {
      for (const key of [undefined, "not-a-key"]) {
        const caller = api.as(key);
        const path = op.path.slice(API_PREFIX.length + 1);
        const r = op.method === "GET" ? await caller.get(path, { locale_id: 40 }) : await caller.post(path, {});
        expect(r.status).toBe(401);
        expect(envelope(r.body)).toEqual({ is_success: false, errors: { message: "unauthorized", code: 401 } });
        expect(r.body.meta).toMatchObject({ method: op.method, path: op.path, api_version: 302 });
        expect(r.text).not.toContain("not-a-key");
      }
    });
  }

  it("public operations need no key and ignore a wrong one", async () => {
    for (const op of OPERATIONS.filter((o) => o.access === "public")) {
      const r = await api.as("wrong").raw(`${op.path}?segment_id=1&brand_id=1&model_id=101&locale_id=40`);
      expect(r.status, op.id).toBe(200);
    }
  });

  it("accepts the scheme name in any case", async () => {
    const r = await api.raw(`${API_PREFIX}/vehicles/extras/list?locale_id=40`, {
      headers: { authorization: `bearer ${KEY_1001}` },
    });
    expect(r.status).toBe(200);
  });

  it("never echoes a key, even one sent as a request variable", async () => {
    const r = await api.get("vehicles/list", { user_id: 1001, locale_id: 40, api_key: KEY_1001, note: KEY_1001 });
    expect(r.status).toBe(200);
    expect(r.text).not.toContain(KEY_1001);
    expect(r.body.meta.vars).toMatchObject({ api_key: "[redacted]", note: "[redacted]", user_id: "1001" });
  });
});
