import { recordMembers } from "../contract/record-shape.js";
import type { ParamSpec, ValueType } from "../contract/types.js";
import { VEHICLE_FIELDS } from "../contract/vehicle-fields.js";

/**
 * The zod schemas of the tools (the SDK validates input and output with zod
 * and lists them as JSON Schema), all built from the contract's tables: the
 * vehicle fields a change takes (the field table) and the records a read
 * returns (src/contract/record-shape.ts). zod comes from ./sdk.js (its own
 * bundle), so the builders take it as an argument.
 */
export type Zod = typeof import("zod/v4");
type ZodType = import("zod/v4").ZodType;

/** A field's range and catalog, said in its description (the schema does not refuse: the contract's checks do, with one message). */
function fieldDescription(f: ParamSpec): string {
  const range =
    f.min !== undefined && f.max !== undefined
      ? ` (${f.min} to ${f.max})`
      : f.min !== undefined
        ? ` (at least ${f.min})`
        : "";
  const names = f.catalog ? `; an id or a name from ${f.catalog.replace("catalog.", "the catalog ")}` : "";
  return `${f.description}${range}${names}`;
}

/** A field as a change takes it: numbers absolute or relative ("+10%"), catalog values by id or name. */
function changeField(z: Zod, f: ParamSpec): ZodType {
  const scalar =
    f.type === "integer" || f.type === "flag"
      ? z.union([z.int(), z.string()])
      : f.type === "string"
        ? z.string()
        : z.array(f.type === "integer[]" ? z.union([z.int(), z.string()]) : z.string());
  return scalar.optional().describe(fieldDescription(f));
}

/** The fields the client fills itself (never a change's): the owner and the locale. */
const CLIENT_FILLED = new Set(["user_id", "locale_id"]);

/** `changes` of plan_changes: every vehicle field a person may change, by wire name. */
export function changesSchema(z: Zod) {
  return z
    .strictObject(
      Object.fromEntries(
        VEHICLE_FIELDS.filter((f) => !CLIENT_FILLED.has(f.name)).map((f) => [f.name, changeField(z, f)]),
      ),
    )
    .describe(
      'Field changes for every selected vehicle, by wire name. Numbers take absolute values (45) or relative ones as strings ("+10%", "-5", "*1.1"); catalog fields take an id or a name ("Automatic"); an empty string clears an optional field.',
    );
}

/** A value as a returned record holds it (read leniently: a server may send a number as a string, or null). */
function recordValue(z: Zod, type: ValueType): ZodType {
  const scalar = z.union([z.number(), z.string(), z.null()]);
  return type.endsWith("[]") ? z.union([z.array(z.union([z.number(), z.string()])), z.null()]) : scalar;
}

/** A vehicle or extra record as a read tool returns it: the contract's members, names for its catalog ids, others kept. */
export function recordSchema(z: Zod, kind: "vehicle" | "extra") {
  const shape: Record<string, ZodType> = {};
  for (const m of recordMembers(kind)) {
    const v = recordValue(z, m.type).describe(m.description);
    shape[m.name] = m.present ? v : v.optional();
  }
  shape.names = z
    .record(z.string(), z.union([z.string(), z.array(z.string())]))
    .optional()
    .describe("Names of the record's catalog ids (model, class, currency, …), as the tables show them");
  return z.looseObject(shape);
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
