import SwaggerParser from "@apidevtools/swagger-parser";
import openapiTS, { astToString } from "openapi-typescript";
import { describe, expect, it } from "vitest";
import { answerName, openApiDocument } from "../../src/contract/openapi.js";
import { OPERATIONS } from "../../src/contract/operations.js";
import { VEHICLE_FIELDS } from "../../src/contract/vehicle-fields.js";

/**
 * The contract as OpenAPI 3.1 (issue "rentctl as a library", section 3): the
 * document validates with an independent validator, and every operation of
 * the contract table appears exactly once with its method, path, auth and
 * parameter set, so dropping one from the generator fails here.
 */
type Op = {
  operationId: string;
  security: unknown[];
  parameters?: Array<{ name: string; required: boolean }>;
  requestBody?: {
    content: Record<
      string,
      { schema: { properties: Record<string, unknown>; required?: string[]; additionalProperties: boolean } }
    >;
  };
  responses: Record<string, unknown>;
};

describe("the OpenAPI document", () => {
  const doc = openApiDocument({ serverUrl: "http://127.0.0.1:8302" });

  it("is a valid OpenAPI 3.1 document (swagger-parser)", async () => {
    const api = await SwaggerParser.validate(structuredClone(doc) as never);
    expect((api as { openapi: string }).openapi).toBe("3.1.0");
  });

  it("has every operation of the contract table exactly once, with method, path, auth and parameters", () => {
    const paths = doc.paths as Record<string, Record<string, Op>>;
    const found = Object.entries(paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
    );
    expect(found.map((f) => f.op.operationId).sort()).toEqual(OPERATIONS.map((o) => o.id).sort());
    expect(new Set(found.map((f) => f.op.operationId)).size).toBe(found.length);
    for (const o of OPERATIONS) {
      const f = found.find((x) => x.op.operationId === o.id)!;
      expect([f.method, f.path], o.id).toEqual([o.method, o.path]);
      expect(f.op.security, o.id).toEqual(o.access === "auth" ? [{ bearer: [] }] : []);
      const wire = (p: (typeof o.params)[number]) => (p.type.endsWith("[]") ? `${p.name}[]` : p.name);
      if (o.method === "GET") {
        expect(
          (f.op.parameters ?? []).map((p) => p.name),
          o.id,
        ).toEqual(o.params.map(wire));
        expect((f.op.parameters ?? []).filter((p) => p.required).map((p) => p.name)).toEqual(
          o.params.filter((p) => p.required === true).map(wire),
        );
      } else {
        const bodies = Object.values(f.op.requestBody!.content);
        expect(bodies.length).toBeGreaterThan(0);
        for (const b of bodies) {
          const names = Object.keys(b.schema.properties).filter((n) => n !== "file");
          expect(names, o.id).toEqual(o.params.map(wire));
          expect(b.schema.additionalProperties, o.id).toBe(!o.closed);
        }
      }
      for (const code of o.errors) expect(f.op.responses[String(code)], `${o.id} ${code}`).toBeDefined();
    }
  });

  it("upload is multipart with 1 to 10 file parts; what the contract does not show stays open, said so", () => {
    const paths = doc.paths as Record<string, Record<string, Op>>;
    const upload = paths["/api/v302/vehicles/upload"]!.post!.requestBody!.content["multipart/form-data"]!.schema;
    expect(upload.properties.file).toMatchObject({ type: "array", minItems: 1, maxItems: 10 });
    expect(upload.required).toEqual(["user_id", "file"]);
    const create =
      paths["/api/v302/vehicles/extras/create"]!.post!.requestBody!.content["application/x-www-form-urlencoded"]!
        .schema;
    expect(create.additionalProperties).toBe(true);
    expect(JSON.stringify(create)).toMatch(/does not show the extras' member names/);
  });

  it("each operation's 200 answer references its answer schema: its envelope around its record", () => {
    const paths = doc.paths as Record<string, Record<string, Op>>;
    const schemas = (doc.components as { schemas: Record<string, Record<string, unknown>> }).schemas;
    for (const o of OPERATIONS) {
      const op = paths[o.path]![o.method.toLowerCase()]!;
      const ok = op.responses["200"] as { content: { "application/json": { schema: { $ref: string } } } };
      expect(ok.content["application/json"].schema.$ref, o.id).toBe(`#/components/schemas/${answerName(o)}`);
      expect(schemas[answerName(o)], o.id).toBeDefined();
    }
    const get = schemas.VehiclesGetAnswer as { properties: Record<string, unknown> };
    expect(get.properties.data).toEqual({ $ref: "#/components/schemas/Vehicle" });
    const list = schemas.VehiclesListAnswer as { properties: Record<string, unknown>; required: string[] };
    expect(list.properties.data).toEqual({ type: "array", items: { $ref: "#/components/schemas/Vehicle" } });
    expect(list.required).toEqual(
      expect.arrayContaining(["total", "per_page", "current_page", "limit", "last_page", "data"]),
    );
    expect((schemas.CatalogCurrenciesAnswer as { properties: Record<string, unknown> }).properties.list).toEqual({
      type: "array",
      items: { $ref: "#/components/schemas/Currency" },
    });
    const vehicle = schemas.Vehicle as { properties: Record<string, unknown>; additionalProperties: unknown };
    expect(Object.keys(vehicle.properties)).toEqual(["id", ...VEHICLE_FIELDS.map((f) => f.name)]);
    expect(vehicle.additionalProperties).toBe(true);
  });

  it("openapi-typescript on the document: the vehicles.get 200 answer's Vehicle has price_per_day: number", async () => {
    const ts = astToString(await openapiTS(structuredClone(doc) as never));
    const vehicle = ts.slice(ts.indexOf("        Vehicle: {"), ts.indexOf("        VehicleInput: {"));
    expect(vehicle).toMatch(/^\s+price_per_day: number;$/m);
    expect(vehicle).toMatch(/^\s+vehicle_vin\?: string \| null;$/m);
    expect(vehicle).toMatch(/^\s+\[key: string\]: unknown;$/m);
    expect(ts).toMatch(/VehiclesGetAnswer: \{[^}]*data\?: components\["schemas"\]\["Vehicle"\];/);
  });
});
