import { FORMATS } from "../output/formats.js";
import { ENVIRONMENTS } from "./settings.js";

/**
 * The config file's JSON schema, declared once. `conf` enforces it (with ajv)
 * on every write; reads check the same schema with the small interpreter
 * below, so the ~100 ms of loading ajv stays off the start-up path of every
 * API command. Only the schema keywords used here are interpreted.
 */

type Schema = {
  type?: "object" | "string" | "integer" | "number" | Array<"string" | "integer">;
  enum?: readonly string[];
  minimum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
};

export const PROFILE_SCHEMA = {
  type: "object",
  properties: {
    env: { type: "string", enum: ENVIRONMENTS },
    baseUrl: { type: "string", minLength: 1 },
    apiKey: { type: "string", minLength: 1 },
    keyStore: { type: "string", enum: ["keychain"] },
    userId: { type: "integer", minimum: 1 },
    locale: { type: ["integer", "string"] },
    output: { type: "string", enum: FORMATS },
    timeout: { type: "number", exclusiveMinimum: 0 },
  },
  additionalProperties: true,
} as const satisfies Schema;

/** conf's `schema` option: one member per top-level key. */
export const CONFIG_SCHEMA = {
  current: { type: "string" },
  profiles: { type: "object", additionalProperties: PROFILE_SCHEMA },
} as const satisfies Record<string, Schema>;

function typeOk(t: NonNullable<Schema["type"]>, v: unknown): boolean {
  if (Array.isArray(t)) return t.some((x) => typeOk(x, v));
  switch (t) {
    case "object":
      return typeof v === "object" && v !== null && !Array.isArray(v);
    case "string":
      return typeof v === "string";
    case "integer":
      return typeof v === "number" && Number.isSafeInteger(v);
    case "number":
      return typeof v === "number" && Number.isFinite(v);
  }
}

function describeType(t: NonNullable<Schema["type"]>): string {
  return Array.isArray(t) ? t.join(" or ") : t === "integer" ? "an integer" : `a ${t}`;
}

/** The first problem of `value` against `schema`, as `path: message`, or undefined. */
function check(schema: Schema, value: unknown, path: string[]): { path: string[]; message: string } | undefined {
  if (schema.type && !typeOk(schema.type, value))
    return { path, message: `must be ${describeType(schema.type)}, got ${JSON.stringify(value)}` };
  if (schema.enum && !schema.enum.includes(value as string))
    return { path, message: `must be one of ${schema.enum.join(", ")}, got ${JSON.stringify(value)}` };
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum)
      return { path, message: `must be >= ${schema.minimum}` };
    if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum)
      return { path, message: `must be > ${schema.exclusiveMinimum}` };
  }
  if (typeof value === "string" && schema.minLength !== undefined && value.length < schema.minLength)
    return { path, message: "must not be empty" };
  if (typeOk("object", value)) {
    const obj = value as Record<string, unknown>;
    for (const [k, v] of Object.entries(obj)) {
      const sub =
        schema.properties?.[k] ??
        (typeof schema.additionalProperties === "object" ? schema.additionalProperties : undefined);
      if (!sub) continue;
      const p = check(sub, v, [...path, k]);
      if (p) return p;
    }
  }
  return undefined;
}

export interface ConfigProblem {
  /** The profile concerned, when the problem is inside one. */
  profile?: string;
  /** The member at fault (`userId`, `current`, ...). */
  field: string;
  message: string;
}

/** Check a parsed config file against the schema; the first problem, or undefined. */
export function configProblem(data: Record<string, unknown>): ConfigProblem | undefined {
  for (const [key, schema] of Object.entries(CONFIG_SCHEMA) as Array<[string, Schema]>) {
    if (data[key] === undefined) continue;
    const p = check(schema, data[key], [key]);
    if (!p) continue;
    if (p.path[0] === "profiles" && p.path.length >= 2)
      return { profile: p.path[1], field: p.path.slice(2).join(".") || "(the profile)", message: p.message };
    return { field: p.path.join("."), message: p.message };
  }
  return undefined;
}
