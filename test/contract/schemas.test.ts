import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VERSION } from "../../src/base/version.js";
import { openApiDocument } from "../../src/contract/openapi.js";
import { OPERATIONS, operation } from "../../src/contract/operations.js";
import {
  answerSchema,
  ExtraSchema,
  jsonSchemaOf,
  recordJsonSchemas,
  VehicleSchema,
} from "../../src/contract/schemas.js";
import { createSandbox, type Sandbox } from "../../src/library/sandbox.js";

/**
 * The record schemas (src/contract/schemas.ts, the one source of every record's shape) against
 * what the sandbox answers: each operation's 200 answer validates with zod and, as JSON Schema,
 * with ajv; the records keep the members the contract does not show.
 */

let sb: Sandbox;
beforeAll(async () => {
  sb = await createSandbox();
});
afterAll(() => sb.close());

async function get(path: string, query: Record<string, string | number> = {}) {
  const q = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  const res = await fetch(`${sb.url}${path}?${q}`, { headers: { authorization: `Bearer ${sb.apiKey}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

const QUERY: Record<string, Record<string, number>> = {
  "catalog.models": { brand_id: 1 },
  "catalog.classes_or_types": { segment_id: 1 },
  "catalog.transmissions": { segment_id: 1 },
  "catalog.extra_options": { locale_id: 40 },
  "vehicles.list": { user_id: 1001, locale_id: 40 },
  "extras.list": { locale_id: 40 },
};

const ajv = new Ajv2020({ strict: false });

describe("record schemas against the sandbox's answers", () => {
  const reads = OPERATIONS.filter((op) => op.method === "GET" && !op.path.includes("/list/id"));
  it.each(reads.map((op) => [op.id, op] as const))("%s: the 200 answer validates (zod and ajv)", async (_id, op) => {
    let query = QUERY[op.id] ?? {};
    if (op.id === "catalog.equipments") {
      const models = await get(operation("catalog.models").path, { brand_id: 1 });
      query = { model_id: (models.list as Array<{ id: number }>)[0]!.id };
    }
    const body = await get(op.path, query);
    const schema = answerSchema(op);
    const parsed = schema.safeParse(body);
    expect(parsed.error?.issues ?? []).toEqual([]);
    const validate = ajv.compile(jsonSchemaOf(schema));
    expect(validate(body) ? [] : validate.errors).toEqual([]);
  });

  it("vehicles.get and extras.get: the record validates, unknown members are kept", async () => {
    const list = await get(operation("vehicles.list").path, QUERY["vehicles.list"]!);
    const first = (list.data as Array<{ id: number }>)[0]!;
    const one = await get(operation("vehicles.get").path, { vehicle_id: first.id, locale_id: 40 });
    const parsed = answerSchema(operation("vehicles.get")).parse(one) as { data: Record<string, unknown> };
    expect(typeof parsed.data.price_per_day).toBe("number");
    expect(parsed.data.created_at).toBeDefined(); // not in the contract: kept, typed unknown
    const extras = await get(operation("extras.list").path, { locale_id: 40 });
    const e = (extras.data as Array<{ id: number }>)[0]!;
    const extra = await get(operation("extras.get").path, { extra_id: e.id, locale_id: 40 });
    expect(answerSchema(operation("extras.get")).safeParse(extra).success).toBe(true);
  });

  it("a record missing a required field, or with a wrong type, does not validate", () => {
    expect(VehicleSchema.safeParse({ id: 1 }).success).toBe(false);
    expect(
      ExtraSchema.safeParse({ id: 1, option_id: 1, price: "12", currency_id: 1, period: 1, quantity: 1 }).success,
    ).toBe(false);
  });
});

describe("recordJsonSchemas", () => {
  const schemas = recordJsonSchemas();
  it("the vehicle: every contract field with its type, arrays as arrays, conflicting fields optional, other members open", () => {
    const v = schemas.Vehicle as {
      properties: Record<string, Record<string, unknown>>;
      required: string[];
      additionalProperties: unknown;
    };
    expect(v.properties.price_per_day).toMatchObject({ type: "integer", minimum: 0 });
    expect(v.properties.vehicle_activity).toMatchObject({ type: "integer", enum: [0, 1] });
    expect(JSON.stringify(v.properties.vehicle_extras)).toContain('"type":"array"');
    expect(v.required).toContain("price_per_day");
    for (const f of ["vehicle_vin", "vehicle_odometer", "vehicle_reg_number_country", "vehicle_images"])
      expect(v.required).not.toContain(f);
    expect(v.additionalProperties).toBe(true);
  });
  it("each record once; references point into components", () => {
    expect(JSON.stringify(schemas.PaginatedEnvelope)).toContain('"#/components/schemas/Meta"');
    expect(Object.keys(schemas)).toEqual(
      expect.arrayContaining(["Vehicle", "Extra", "Image", "Currency", "Locale", "Segment", "CatalogItem", "Error"]),
    );
  });
});

describe("the sandbox's /openapi.json", () => {
  it("is the document of `rentctl api --openapi`, plus only `servers` (its own address)", async () => {
    const res = await fetch(`${sb.url}/openapi.json`);
    const { servers, ...rest } = (await res.json()) as { servers: unknown };
    expect(servers).toEqual([{ url: sb.url }]);
    expect(rest).toEqual(openApiDocument({ version: VERSION }));
  });
});
