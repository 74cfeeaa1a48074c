import { z } from "zod/v4";
import { EXTRA_FIELDS } from "./extra-fields.js";
import { API_VERSION, OPERATIONS } from "./operations.js";
import { editableFields, type Operation, type ParamSpec } from "./types.js";
import { VEHICLE_FIELDS } from "./vehicle-fields.js";

/**
 * The ONE source of every record's shape: zod (v4) schemas built from the
 * contract's field table (vehicle-fields.ts, extra-fields.ts) and operation
 * table (operations.ts). Derived from here, never written again by hand:
 * - JSON Schema of each record (`recordJsonSchemas`, `jsonSchemaOf`), which
 *   the OpenAPI document (openapi.ts: every operation's 200 answer), the
 *   account and fleet file schemas (src/plans/account-schema.ts) and the generated
 *   TypeScript types of the library (scripts/contract-types.ts ->
 *   src/library/contract-types.ts) read;
 * - the MCP tools' input and output schemas (the zod schemas themselves, as
 *   `McpServer.registerTool` takes them, or their JSON Schema).
 *
 * What the contract leaves "not shown" stays open: every record and envelope
 * allows other members (typed `unknown`), and a field the contract marks
 * optional or "conflicting" may be absent or null in a returned record.
 *
 * zod is imported here and nowhere on a command's start-up path: this module
 * loads only where a schema is asked for (`api --openapi`, the sandbox's
 * /openapi.json, `vehicle schema`, the MCP server).
 */

type Json = Record<string, unknown>;

/** An identifier: an integer of at least 1 (the contract's "Identifier"). */
export const IdSchema = z.int().min(1).describe("Identifier (integer >= 1)");

/** One contract field's value, with its type, bounds, length and description. */
export function fieldSchema(spec: ParamSpec): z.ZodType {
  const int = () => {
    let s = z.int();
    if (spec.min !== undefined) s = s.min(spec.min);
    if (spec.max !== undefined) s = s.max(spec.max);
    return s;
  };
  let s: z.ZodType;
  switch (spec.type) {
    case "integer":
      s = int();
      break;
    case "flag":
      s = z.literal([0, 1]);
      break;
    case "string":
      s = spec.maxLength !== undefined ? z.string().max(spec.maxLength) : z.string();
      break;
    case "integer[]":
      s = z.array(int());
      break;
    case "string[]":
      s = z.array(z.string());
      break;
  }
  return s.describe(fieldDescription(spec));
}

/** A field's description, with its bounds, its catalog and the spec's conflict, as every generated artefact shows it. */
export function fieldDescription(f: ParamSpec): string {
  const parts = [f.description.replace(/([^.])$/, "$1.")];
  if (f.min !== undefined && f.max !== undefined) parts.push(`From ${f.min} to ${f.max}.`);
  else if (f.min !== undefined) parts.push(`At least ${f.min}.`);
  else if (f.max !== undefined) parts.push(`At most ${f.max}.`);
  if (f.maxLength !== undefined) parts.push(`At most ${f.maxLength} characters.`);
  if (f.catalog) parts.push(`Id from ${f.catalog}.`);
  if (f.required === "conflicting") parts.push("The spec states it both required and optional: accepted either way.");
  return parts.join(" ");
}

/** An input's members: the editable fields (the client fills the owner and the locale itself: `clientFilled` in the table). */
function inputShape(fields: readonly ParamSpec[]): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  for (const f of editableFields(fields)) {
    shape[f.name] = f.required === true ? fieldSchema(f) : fieldSchema(f).optional();
  }
  return shape;
}

/** A returned record's members: those required on create required, the others optional (absent or null). */
function recordShape(fields: readonly ParamSpec[]): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  for (const f of fields) shape[f.name] = f.required === true ? fieldSchema(f) : fieldSchema(f).nullable().optional();
  return shape;
}

// ------------------------------------------------------------------ records

/** A vehicle as returned by list and get: `id`, every contract field with its type, other members open. */
export const VehicleSchema = z.looseObject({ id: IdSchema, ...recordShape(VEHICLE_FIELDS) }).meta({
  description:
    "A vehicle as returned (wire names of the v302 contract; `id` first). The contract does not show the returned fields: rentctl reads them as the input fields, and other members the server adds are kept.",
});

/** A vehicle as created (the library's client fills user_id and locale_id). */
export const VehicleInputSchema = z.object(inputShape(VEHICLE_FIELDS)).meta({
  description:
    "A vehicle as created: wire names and types of the v302 contract (the client fills user_id and locale_id).",
});

/**
 * An extra as returned. The contract shows only its identifier `extra_id`; the five members an
 * extra is tied to carry rentctl's assumed names (extra-fields.ts); every other member is open.
 */
export const ExtraSchema = z
  .looseObject({
    id: IdSchema,
    extra_id: IdSchema.optional(),
    ...recordShape(EXTRA_FIELDS.map((f) => (f.name === "locale_id" ? { ...f, required: false } : f))),
  })
  .meta({
    description:
      "An extra as returned: `id` first. The contract shows only `extra_id`; option_id, price, currency_id, period and quantity are rentctl's assumed names (src/contract/extra-fields.ts), and other members are kept.",
  });

/** An extra as created (the client fills locale_id). */
export const ExtraInputSchema = z.object(inputShape(EXTRA_FIELDS)).meta({
  description: "An extra as created (the client fills locale_id).",
});

/** One uploaded image as the answer of vehicles.upload lists it (its id goes into `vehicle_images`). */
export const ImageSchema = z.looseObject({ id: IdSchema }).meta({
  description: "An uploaded image: its id (for `vehicle_images`); other members the server adds are kept.",
});

// ------------------------------------------------------------------ catalog items

export const CurrencySchema = z
  .looseObject({ id: IdSchema, code: z.string().describe("Currency code"), symbol: z.string() })
  .meta({ description: "An item of the currencies list." });

export const LocaleSchema = z
  .looseObject({ id: IdSchema, name: z.string(), code: z.string().describe("Short language code") })
  .meta({ description: "An item of the locales list." });

export const SegmentSchema = z
  .looseObject({ id: IdSchema, name: z.string(), realm: z.string() })
  .meta({ description: "An item of the segments list (1 = cars)." });

export const CatalogItemSchema = z.looseObject({ id: IdSchema, name: z.string().optional() }).meta({
  description:
    "An item of the other catalog lists: the contract shows no fields beyond an object; rentctl reads `id` and `name`, and keeps the rest.",
});

// ------------------------------------------------------------------ envelopes

export const MetaSchema = z
  .looseObject({
    method: z.string().optional(),
    path: z.string().optional(),
    vars: z.looseObject({}).optional(),
    api_version: z.literal(API_VERSION).optional(),
  })
  .meta({ description: "Present on test and other non-production environments." });

const NOT_SHOWN = "The v302 contract does not show these members: any are allowed.";

export const FlexibleEnvelopeSchema = z
  .looseObject({ meta: MetaSchema.optional() })
  .meta({ description: `Any JSON object with an optional meta. ${NOT_SHOWN}` });

/** The List envelope of a catalog: `{ meta?, list: item[] }`. */
export function listEnvelope<T extends z.ZodType>(item: T) {
  return z.looseObject({ meta: MetaSchema.optional(), list: z.array(item) });
}

/** The Paginated envelope of vehicles.list and extras.list. */
export function paginatedEnvelope<T extends z.ZodType>(item: T) {
  return z.looseObject({
    meta: MetaSchema.optional(),
    total: z.int().min(0),
    per_page: z.int().min(1),
    current_page: z.int().min(0),
    limit: z.int().min(1),
    last_page: z.int().min(0),
    data: z.array(item),
  });
}

/**
 * A Flexible answer that carries a record: rentctl reads it from `data` (records.ts `unwrapRecord`;
 * the contract does not show where), so `data` is optional and other members stay open.
 */
export function flexibleWith<T extends z.ZodType>(data: T) {
  return z.looseObject({ meta: MetaSchema.optional(), data: data.optional() });
}

export const ListEnvelopeSchema = listEnvelope(z.looseObject({}));
export const PaginatedEnvelopeSchema = paginatedEnvelope(z.looseObject({}));

export const ErrorBodySchema = z.looseObject({
  is_success: z.literal(false),
  errors: z
    .union([
      z.looseObject({ message: z.string().optional(), code: z.int().optional() }),
      z.array(z.unknown()),
      z.string(),
    ])
    .describe("An object (usually `message` and `code`), an array or a string"),
});

// ------------------------------------------------------------------ per operation

/** The item schema of each catalog list the contract shows (the others are CatalogItem). */
const CATALOG_ITEMS: Readonly<Record<string, z.ZodType>> = {
  "catalog.currencies": CurrencySchema,
  "catalog.locales": LocaleSchema,
  "catalog.segments": SegmentSchema,
};

/** The record each flexible answer carries in `data` (the others carry none the contract or rentctl names). */
const FLEXIBLE_RECORDS: Readonly<Record<string, z.ZodType>> = {
  "vehicles.get": VehicleSchema,
  "vehicles.create": VehicleSchema,
  "vehicles.edit": VehicleSchema,
  "vehicles.upload": z.array(ImageSchema),
  "extras.get": ExtraSchema,
  "extras.create": ExtraSchema,
  "extras.update": ExtraSchema,
};

/** The record (or item) of an operation's answer: a catalog's item, a list's element, a get's record. */
export function operationRecord(op: Operation): z.ZodType | undefined {
  if (op.envelope === "list") return CATALOG_ITEMS[op.id] ?? CatalogItemSchema;
  if (op.envelope === "paginated") return op.id.startsWith("extras.") ? ExtraSchema : VehicleSchema;
  return FLEXIBLE_RECORDS[op.id];
}

/** An operation's 200 answer: its envelope as the contract shows it, around its record. */
export function answerSchema(op: Operation): z.ZodType {
  const record = operationRecord(op);
  if (op.envelope === "list") return listEnvelope(record ?? CatalogItemSchema);
  if (op.envelope === "paginated") return paginatedEnvelope(record ?? z.looseObject({}));
  return record ? flexibleWith(record) : FlexibleEnvelopeSchema;
}

/** Every named schema (the `id` of its meta is its name in OpenAPI's components and in the generated types). */
export const NAMED_SCHEMAS = {
  Vehicle: VehicleSchema,
  VehicleInput: VehicleInputSchema,
  Extra: ExtraSchema,
  ExtraInput: ExtraInputSchema,
  Image: ImageSchema,
  Currency: CurrencySchema,
  Locale: LocaleSchema,
  Segment: SegmentSchema,
  CatalogItem: CatalogItemSchema,
  Meta: MetaSchema,
  FlexibleEnvelope: FlexibleEnvelopeSchema,
  ListEnvelope: ListEnvelopeSchema,
  PaginatedEnvelope: PaginatedEnvelopeSchema,
  Error: ErrorBodySchema,
} as const;

export type SchemaName = keyof typeof NAMED_SCHEMAS;

// ------------------------------------------------------------------ JSON Schema

/** zod writes the safe-integer range on every integer and `type: number` on integer literals: drop the one, say integer. */
function tidy(ctx: { jsonSchema: Json }): void {
  const s = ctx.jsonSchema;
  if (s.maximum === Number.MAX_SAFE_INTEGER) delete s.maximum;
  if (s.minimum === Number.MIN_SAFE_INTEGER) delete s.minimum;
  const values = Array.isArray(s.enum) ? s.enum : "const" in s ? [s.const] : undefined;
  if (s.type === "number" && values?.every((v) => Number.isInteger(v))) s.type = "integer";
  if (s.additionalProperties !== undefined && isEmpty(s.additionalProperties)) s.additionalProperties = true;
}

const isEmpty = (v: unknown) => typeof v === "object" && v !== null && Object.keys(v).length === 0;

function registryOf(names: readonly SchemaName[]) {
  const reg = z.registry<{ id: string }>();
  for (const n of names) reg.add(NAMED_SCHEMAS[n], { id: n });
  return reg;
}

/**
 * The named schemas as JSON Schema (2020-12), each record once, references between them as
 * `ref(name)` (`#/components/schemas/Vehicle` in OpenAPI). Pass extra schemas by name to have
 * them written beside (and referring to) the named ones.
 */
export function recordJsonSchemas(
  opts: { ref?: (name: string) => string; extra?: Record<string, z.ZodType> } = {},
): Record<string, Json> {
  const ref = opts.ref ?? ((name: string) => `#/components/schemas/${name}`);
  const reg = registryOf(Object.keys(NAMED_SCHEMAS) as SchemaName[]);
  for (const [name, schema] of Object.entries(opts.extra ?? {})) reg.add(schema, { id: name });
  const out = z.toJSONSchema(reg, { uri: ref, override: tidy, unrepresentable: "any" }) as {
    schemas: Record<string, Json>;
  };
  for (const s of Object.values(out.schemas)) {
    delete s.$schema;
    delete s.$id;
  }
  return out.schemas;
}

/** One schema as a stand-alone JSON Schema (2020-12): named schemas it uses go into `$defs`. */
export function jsonSchemaOf(schema: z.ZodType): Json {
  return z.toJSONSchema(schema, { override: tidy, unrepresentable: "any" }) as Json;
}

/** The JSON Schema of one contract field's value (bounds, length, description), as the records hold it. */
export function fieldJsonSchema(spec: ParamSpec): Json {
  const s = jsonSchemaOf(fieldSchema(spec));
  delete s.$schema;
  return s;
}

/** The operations whose answers carry records, for front ends that list them (the MCP server's output schemas). */
export const RECORD_OPERATIONS: readonly Operation[] = OPERATIONS.filter((op) => operationRecord(op) !== undefined);
