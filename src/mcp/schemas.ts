import { ExtraSchema, fieldDescription, jsonSchemaOf, VehicleInputSchema, VehicleSchema } from "../contract/schemas.js";
import type { ParamSpec } from "../contract/types.js";
import { VEHICLE_FIELDS } from "../contract/vehicle-fields.js";

/**
 * The zod schemas of the tools (the SDK validates input and output with zod
 * and lists them as JSON Schema), all built from the contract's tables: the
 * vehicle fields a change takes (the field table) and the records a read
 * returns (the record schemas of src/contract/schemas.ts). zod comes from ./sdk.js (its own
 * bundle), so the builders take it as an argument.
 */
export type Zod = typeof import("zod/v4");
type ZodType = import("zod/v4").ZodType;

/** A field as a change takes it: numbers absolute or relative ("+10%"), catalog values by id or name. */
function changeField(z: Zod, f: ParamSpec): ZodType {
  const scalar =
    f.type === "integer" || f.type === "flag"
      ? z.union([z.int(), z.string()])
      : f.type === "string"
        ? z.string()
        : z.array(f.type === "integer[]" ? z.union([z.int(), z.string()]) : z.string());
  return scalar.optional().describe(`${fieldDescription(f)}${f.catalog ? " Its name works too." : ""}`);
}

/** `changes` of plan_changes: every vehicle field a person may change, by wire name. */
export function changesSchema(z: Zod) {
  return z
    .strictObject(
      // the fields of a vehicle's input (the client fills the owner and the locale itself)
      Object.fromEntries(
        VEHICLE_FIELDS.filter((f) => f.name in VehicleInputSchema.shape).map((f) => [f.name, changeField(z, f)]),
      ),
    )
    .describe(
      'Field changes for every selected vehicle, by wire name. Numbers take absolute values (45) or relative ones as strings ("+10%", "-5", "*1.1"); catalog fields take an id or a name ("Automatic"); an empty string clears an optional field.',
    );
}

/**
 * A vehicle or extra record as a read tool returns it: the record schema of
 * the contract (src/contract/schemas.ts, the one source of every record's
 * shape), with `names` for its catalog ids, other members kept. The record
 * schema is zod of the main bundle, and the SDK lists and checks schemas with
 * its own copy of zod (dist/mcp-sdk.cjs), so the record goes in as its JSON
 * Schema (what tools/list shows and a client validates against); the server
 * side checks it is an object.
 */
export function recordSchema(z: Zod, kind: "vehicle" | "extra") {
  const json = jsonSchemaOf(kind === "vehicle" ? VehicleSchema : ExtraSchema) as {
    properties?: Record<string, unknown>;
  } & Record<string, unknown>;
  const { $schema: _s, ...record } = json;
  return z.looseObject({}).meta({
    ...record,
    properties: {
      ...record.properties,
      names: {
        type: "object",
        additionalProperties: { anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] },
        description: "Names of the record's catalog ids (model, class, currency, …), as the tables show them",
      },
    },
  });
}

/** The input object of a tool: its members, nothing else (a misspelt filter must not read as "all"). */
export function toolInput(z: Zod, tool: string, shape: Record<string, ZodType>) {
  const names = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `${tool}: unknown argument${issue.keys.length === 1 ? "" : "s"} ${issue.keys.map((k) => JSON.stringify(k)).join(", ")}; it takes ${names.join(", ") || "none"}`
        : undefined,
  });
}
