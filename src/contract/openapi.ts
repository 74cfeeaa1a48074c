import { API_VERSION, OPERATIONS, UPLOAD_MAX_FILES, UPLOAD_MIN_FILES, UPLOAD_PART_NAME } from "./operations.js";
import { answerSchema, fieldJsonSchema, recordJsonSchemas } from "./schemas.js";
import type { Operation, ParamSpec } from "./types.js";

/**
 * The contract as an OpenAPI 3.1 document, generated from the one operation
 * table (`rentctl api --openapi`, and `GET /openapi.json` of the sandbox), so
 * that other tools can read what rentctl knows: every operation once, its
 * parameters with their encodings (array members as `key[]`, form bodies,
 * multipart with 1-10 `file` parts), the bearer scheme on the Auth operations
 * only, each operation's 200 answer (its envelope as the contract shows it,
 * around its record: the schemas of src/contract/schemas.ts, the one source
 * of record shapes) and the errors each operation lists.
 *
 * What the spec leaves "not shown" stays open (`additionalProperties: true`)
 * and says so in a description; nothing is invented. The extras' member names
 * are rentctl's assumption (src/contract/extra-fields.ts): their schema is
 * open and marked as such.
 */

type Schema = Record<string, unknown>;

const EXTRAS_ASSUMED =
  "The contract does not show the extras' member names; these are rentctl's assumption, and other members are allowed.";

/** A parameter's or body member's schema: the field's JSON Schema (src/contract/schemas.ts) and its default. */
function valueSchema(spec: ParamSpec): Schema {
  const s = fieldJsonSchema(spec);
  if (spec.default !== undefined) s.default = spec.default;
  return s;
}

/** The wire name of a member: array members are sent as `key[]`. */
const wireName = (spec: ParamSpec) => (spec.type.endsWith("[]") ? `${spec.name}[]` : spec.name);

function bodySchema(op: Operation): Schema {
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const p of op.params) {
    properties[wireName(p)] = valueSchema(p);
    if (p.required === true) required.push(wireName(p));
  }
  if (op.body === "multipart" && op.id === "vehicles.upload") {
    properties[UPLOAD_PART_NAME] = {
      type: "array",
      items: { type: "string", contentMediaType: "application/octet-stream" },
      minItems: UPLOAD_MIN_FILES,
      maxItems: UPLOAD_MAX_FILES,
      description: `Image files, ${UPLOAD_MIN_FILES} to ${UPLOAD_MAX_FILES} parts named "${UPLOAD_PART_NAME}"`,
    };
    required.push(UPLOAD_PART_NAME);
  }
  const schema: Schema = { type: "object", properties, additionalProperties: !op.closed };
  if (required.length) schema.required = required;
  if (op.id.startsWith("extras.") && !op.closed) schema.description = EXTRAS_ASSUMED;
  else if (op.id === "vehicles.edit")
    schema.description = "vehicle_id plus the fields to keep; the contract does not show the remaining fields.";
  return schema;
}

function requestBody(op: Operation): Schema | undefined {
  if (op.method !== "POST") return undefined;
  const schema = bodySchema(op);
  const content: Record<string, Schema> = {};
  const arrays = op.params.filter((p) => p.type.endsWith("[]"));
  const encoding = arrays.length
    ? Object.fromEntries(arrays.map((p) => [wireName(p), { style: "form", explode: true }]))
    : undefined;
  if (op.body !== "multipart")
    content["application/x-www-form-urlencoded"] = { schema, ...(encoding ? { encoding } : {}) };
  if (op.body === "multipart" || op.body === "form-or-multipart") {
    const multipart: Schema = { schema };
    if (op.id === "vehicles.upload")
      multipart.encoding = { [UPLOAD_PART_NAME]: { contentType: "image/*, application/octet-stream" } };
    content["multipart/form-data"] = multipart;
  }
  return { required: true, content };
}

function parameters(op: Operation): Schema[] | undefined {
  if (op.method !== "GET" || op.params.length === 0) return undefined;
  return op.params.map((p) => ({
    name: wireName(p),
    in: "query",
    required: p.required === true,
    ...(p.type.endsWith("[]") ? { style: "form", explode: true } : {}),
    schema: valueSchema(p),
  }));
}

const ERROR_TEXT: Record<number, string> = {
  400: "Request validation failed (missing or invalid parameter)",
  401: "API key missing, invalid, or not permitted for the requested resource",
  404: "Requested vehicle or extra does not exist",
};

/** The component name of an operation's 200 answer: `vehicles.get` -> `VehiclesGetAnswer`. */
export function answerName(op: Operation): string {
  return `${op.id
    .split(/[._]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join("")}Answer`;
}

function responses(op: Operation): Schema {
  const out: Schema = {
    "200": {
      description: "Success",
      content: { "application/json": { schema: { $ref: `#/components/schemas/${answerName(op)}` } } },
    },
  };
  for (const code of op.errors)
    out[String(code)] = {
      description: ERROR_TEXT[code] ?? `Error ${code}`,
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    };
  return out;
}

/**
 * The components: every record schema of src/contract/schemas.ts once (Vehicle, Extra, Image, the
 * catalog items, the envelopes, Error), and each operation's answer (its envelope around its record,
 * referring to them).
 */
function components(): Schema {
  const answers = Object.fromEntries(OPERATIONS.map((op) => [answerName(op), answerSchema(op)]));
  return {
    securitySchemes: {
      bearer: { type: "http", scheme: "bearer", description: "The owner's API key: `Authorization: Bearer <API_KEY>`" },
    },
    schemas: recordJsonSchemas({ extra: answers }),
  };
}

/** The whole document; `serverUrl` names where it is served (the sandbox gives its own address). */
export function openApiDocument(opts: { serverUrl?: string; version?: string } = {}): Record<string, unknown> {
  const paths: Record<string, Record<string, Schema>> = {};
  for (const op of OPERATIONS) {
    const item: Schema = {
      operationId: op.id,
      summary: op.summary,
      tags: [op.id.split(".")[0]],
      security: op.access === "auth" ? [{ bearer: [] }] : [],
      responses: responses(op),
    };
    const params = parameters(op);
    if (params) item.parameters = params;
    const body = requestBody(op);
    if (body) item.requestBody = body;
    paths[op.path] ??= {};
    (paths[op.path] as Record<string, Schema>)[op.method.toLowerCase()] = item;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Vehicle Rental Partner API",
      version: String(API_VERSION),
      description: `The v302 contract as rentctl${opts.version ? ` ${opts.version}` : ""} implements it, generated from its operation table. Parts the contract does not show are left open and say so.`,
    },
    ...(opts.serverUrl ? { servers: [{ url: opts.serverUrl }] } : {}),
    paths,
    components: components(),
  };
}
