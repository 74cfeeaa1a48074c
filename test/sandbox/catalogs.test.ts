import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VEHICLE_FIELDS } from "../../src/contract/vehicle-fields.js";
import {
  ADDITIONAL_FEATURES,
  BENEFITS,
  BRANDS,
  CLASSES,
  EQUIPMENTS,
  MODELS,
  SEGMENTS,
  sampleVehicleInput,
  seedState,
  TRANSMISSIONS,
  TUNING_OPTIONS,
} from "../../src/sandbox/seed.js";
import type { RunningSandbox } from "../../src/sandbox/server.js";
import { type Api, envelope, start } from "./helpers.js";

let sb: RunningSandbox;
let api: Api;
beforeAll(async () => {
  ({ sb, api } = await start());
});
afterAll(() => sb.close());

const validation = (fields: Record<string, string[]>) => ({
  is_success: false,
  errors: { message: "validation error", code: 400, fields },
});

describe("seed consistency", () => {
  it("every model, configuration and segment item points at something that exists", () => {
    const segments = new Set(SEGMENTS.map((s) => s.id));
    const brands = new Map(BRANDS.map((b) => [b.id, b]));
    const models = new Map(MODELS.map((m) => [m.id, m]));
    for (const b of BRANDS) expect(segments.has(b.segment_id)).toBe(true);
    for (const m of MODELS) expect(brands.get(m.brand_id)?.segment_id).toBe(m.segment_id);
    for (const e of EQUIPMENTS) expect(models.get(e.model_id)?.segment_id).toBe(e.segment_id);
    for (const list of [CLASSES, TRANSMISSIONS, BENEFITS, ADDITIONAL_FEATURES, TUNING_OPTIONS]) {
      for (const item of list) expect(segments.has(item.segment_id)).toBe(true);
      for (const s of segments) expect(list.some((i) => i.segment_id === s)).toBe(true);
    }
  });

  it("catalog id ranges differ so mixed-up ids are caught", () => {
    const brandIds = new Set(BRANDS.map((b) => b.id));
    const modelIds = new Set(MODELS.map((m) => m.id));
    for (const e of EQUIPMENTS) expect(brandIds.has(e.id) || modelIds.has(e.id)).toBe(false);
    for (const m of MODELS) expect(brandIds.has(m.id)).toBe(false);
  });

  it("the demo inventory is valid against the sandbox's own rules", async () => {
    const state = seedState();
    expect(state.vehicles.filter((v) => v.owner === 1001).length).toBeGreaterThanOrEqual(3);
    expect(state.extras.filter((e) => e.owner === 1001).length).toBeGreaterThanOrEqual(2);
    // Each seeded vehicle, sent back as an edit, is accepted unchanged.
    for (const v of state.vehicles) {
      const key = `sandbox-key-${v.owner}`;
      const r = await api.as(key).post("vehicles/edit", { ...v.fields, vehicle_id: v.id });
      expect(r.status, r.text).toBe(200);
      const { id, created_at, updated_at, ...fields } = r.body.data;
      expect(id).toBe(v.id);
      expect(fields).toEqual(v.fields);
    }
  });

  it("sampleVehicleInput carries every field required on create", () => {
    const sample = sampleVehicleInput(1001);
    for (const f of VEHICLE_FIELDS) if (f.required === true) expect(sample[f.name], f.name).toBeDefined();
  });
});

describe("catalog answers", () => {
  it("currencies and locales have the documented members", async () => {
    const currencies = (await api.get("currencies")).body.list;
    expect(currencies).toContainEqual(expect.objectContaining({ id: 1, code: "EUR", symbol: "€" }));
    expect(currencies.map((c: { code: string }) => c.code)).toEqual(expect.arrayContaining(["EUR", "USD", "GBP"]));
    const locales = (await api.get("locales")).body.list;
    expect(locales).toContainEqual({ id: 40, name: "English", code: "en" });
    expect(locales.map((l: { code: string }) => l.code)).toEqual(expect.arrayContaining(["de", "es"]));
  });

  it("segments: 1 is cars, each has a realm; names follow locale_id", async () => {
    const en = (await api.get("vehicles/segments")).body.list;
    expect(en[0]).toEqual({ id: 1, name: "Cars", realm: "cars" });
    expect(en.map((s: { id: number }) => s.id)).toEqual([1, 2, 3]);
    const de = (await api.get("vehicles/segments", { locale_id: 25 })).body.list;
    expect(de[0].name).toBe("Autos");
    const es = (await api.get("vehicles/segments", { locale_id: 18 })).body.list;
    expect(es[1].name).toBe("Motocicletas");
    // A listed locale without translations falls back to English.
    const fr = (await api.get("vehicles/segments", { locale_id: 33 })).body.list;
    expect(fr[0].name).toBe("Cars");
  });

  it("classes, fuel policies and extra options are translated", async () => {
    const en = (await api.get("vehicles/classes_or_types", { segment_id: 1, locale_id: 40 })).body.list;
    const de = (await api.get("vehicles/classes_or_types", { segment_id: 1, locale_id: 25 })).body.list;
    expect(en.map((c: { id: number }) => c.id)).toEqual(de.map((c: { id: number }) => c.id));
    expect(en.find((c: { id: number }) => c.id === 2).name).toBe("Compact");
    expect(de.find((c: { id: number }) => c.id === 2).name).toBe("Kompaktklasse");
    const fuel = (await api.get("vehicles/fuel_policy", { locale_id: 18 })).body.list;
    expect(fuel[0]).toMatchObject({ id: 1, name: "Lleno a lleno" });
    const extras = (await api.get("vehicles/extras/options", { locale_id: 25 })).body.list;
    expect(extras.map((e: { name: string }) => e.name)).toEqual(
      expect.arrayContaining(["Kindersitz", "Schneeketten", "Zusatzfahrer"]),
    );
  });

  it("segment filters: brands, classes, transmissions, benefits, features and options", async () => {
    for (const path of [
      "vehicles/brands",
      "vehicles/classes_or_types",
      "vehicles/transmissions",
      "vehicles/benefits",
      "vehicles/additional_features",
      "vehicles/options",
    ]) {
      const r = await api.get(path, { segment_id: 2 });
      expect(r.status, path).toBe(200);
      expect(r.body.list.length).toBeGreaterThan(0);
      for (const item of r.body.list) expect(item.segment_id, path).toBe(2);
    }
    // segment_id defaults to 1 where optional
    const brands = (await api.get("vehicles/brands")).body.list;
    for (const b of brands) expect(b.segment_id).toBe(1);
  });

  it("models of a brand carry brand_id; configurations carry model_id", async () => {
    const models = (await api.get("vehicles/models", { brand_id: 1 })).body.list;
    expect(models.length).toBeGreaterThan(0);
    for (const m of models) expect(m.brand_id).toBe(1);
    const eq = (await api.get("vehicles/equipments", { model_id: models[0].id })).body.list;
    expect(eq.length).toBeGreaterThan(0);
    for (const e of eq) expect(e.model_id).toBe(models[0].id);
  });

  it("models: omitted segment_id uses the brand's own segment; a contradicting one is a 400", async () => {
    const moto = BRANDS.find((b) => b.segment_id === 2) as (typeof BRANDS)[number];
    const r = await api.get("vehicles/models", { brand_id: moto.id });
    expect(r.status).toBe(200);
    expect(r.body.list.length).toBeGreaterThan(0);
    const bad = await api.get("vehicles/models", { brand_id: moto.id, segment_id: 1 });
    expect(bad.status).toBe(400);
    expect(envelope(bad.body)).toEqual(validation({ brand_id: [`brand ${moto.id} is not in segment 1`] }));
  });

  it("setup lists registration countries usable for vehicle_reg_number_country", async () => {
    const r = await api.get("setup", { segment_id: 2, locale_id: 25 });
    expect(r.body.data.segment).toMatchObject({ id: 2, name: "Motorräder" });
    const countries = r.body.data.registration_countries;
    expect(countries).toContainEqual({ id: 1, name: "Deutschland", code: "DE" });
    for (const t of r.body.data.transmissions) expect(t.segment_id).toBe(2);
    const car = { ...sampleVehicleInput(1001), vehicle_reg_number_country: countries.at(-1).id };
    expect((await api.post("vehicles/create", car)).status).toBe(200);
  });

  it("protection plans list deposit return options used by the deposit_return_period fields", async () => {
    const r = await api.get("vehicles/protection_plans", { locale_id: 40 });
    const options = r.body.data.deposit_return_options;
    expect(options.length).toBeGreaterThan(1);
    expect(options[0]).toMatchObject({ id: 1, name: expect.any(String), days: expect.any(Number) });
    expect(r.body.data.plans.map((p: { code: string }) => p.code)).toEqual(expect.arrayContaining(["cdw1", "cdw2"]));
    const car = {
      ...sampleVehicleInput(1001),
      vehicle_protection_plans_deposit_return_period_cash: options.at(-1).id,
      vehicle_protection_plans_deposit_return_period_card: options[0].id,
    };
    expect((await api.post("vehicles/create", car)).status).toBe(200);
    const bad = { ...car, vehicle_protection_plans_deposit_return_period_cash: 999 };
    const r2 = await api.post("vehicles/create", bad);
    expect(envelope(r2.body)).toEqual(
      validation({ vehicle_protection_plans_deposit_return_period_cash: ["no deposit return option with id 999"] }),
    );
  });
});

describe("catalog errors", () => {
  it.each([
    ["vehicles/segments", { locale_id: 999 }, { locale_id: ["no locale with id 999"] }],
    ["setup", { segment_id: 9 }, { segment_id: ["no segment with id 9"] }],
    ["vehicles/brands", { segment_id: 9 }, { segment_id: ["no segment with id 9"] }],
    ["vehicles/models", {}, { brand_id: ["is required"] }],
    ["vehicles/models", { brand_id: 9999 }, { brand_id: ["no brand with id 9999"] }],
    ["vehicles/models", { brand_id: "x" }, { brand_id: ['must be a whole number, got "x"'] }],
    ["vehicles/equipments", {}, { model_id: ["is required"] }],
    ["vehicles/equipments", { model_id: 1 }, { model_id: ["no model with id 1"] }],
    ["vehicles/classes_or_types", {}, { segment_id: ["is required"] }],
    ["vehicles/transmissions", { segment_id: 0 }, { segment_id: ["must be at least 1, got 0"] }],
    ["vehicles/extras/options", {}, { locale_id: ["is required"] }],
    [
      "vehicles/benefits",
      { segment_id: 7, locale_id: 7 },
      { locale_id: ["no locale with id 7"], segment_id: ["no segment with id 7"] },
    ],
  ] as const)("%s %j -> 400", async (path, query, fields) => {
    const r = await api.get(path, query);
    expect(r.status).toBe(400);
    expect(envelope(r.body)).toEqual(validation(fields as unknown as Record<string, string[]>));
  });

  it("unknown query members are ignored", async () => {
    const r = await api.get("currencies", { foo: "bar" });
    expect(r.status).toBe(200);
    expect(r.body.meta.vars).toEqual({ foo: "bar" });
  });
});
