// The TypeScript types of the library's inputs and records, printed from the JSON Schema of the
// one source of record shapes (src/contract/schemas.ts, built from the contract table): a field
// added to src/contract/vehicle-fields.ts appears in `VehicleInput` and `Vehicle` without a
// second edit. test/library/contract-types.test.ts fails when src/library/contract-types.ts is
// out of date; `UPDATE_CONTRACT_TYPES=1 npx vitest run test/library/contract-types.test.ts`
// rewrites it.
import { CATALOG_OPERATIONS } from "../src/contract/operations.js";
import { fieldJsonSchema, NAMED_SCHEMAS, operationRecord, recordJsonSchemas } from "../src/contract/schemas.js";

type Schema = Record<string, unknown>;

const REF = "#/components/schemas/";

/** The description of a schema or of the first member of its union that has one. */
function descriptionOf(s: Schema): string | undefined {
  if (typeof s.description === "string") return s.description;
  for (const m of (s.anyOf ?? s.oneOf ?? []) as Schema[]) {
    const d = descriptionOf(m);
    if (d) return d;
  }
  return undefined;
}

const docLine = (text: string, pad: string) => `${pad}/** ${text.replace(/\*\//g, "* /")} */\n`;

/** The TypeScript type of a JSON Schema (the subset schemas.ts writes). */
function tsType(s: Schema, pad: string): string {
  if (typeof s.$ref === "string") return s.$ref.slice(REF.length);
  const union = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (union) return union.map((m) => tsType(m, pad)).join(" | ");
  if ("const" in s) return JSON.stringify(s.const);
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  switch (s.type) {
    case "integer":
    case "number":
      return "number";
    case "string":
      return "string";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array": {
      const item = s.items ? tsType(s.items as Schema, pad) : "unknown";
      return /[ |]/.test(item) ? `Array<${item}>` : `${item}[]`;
    }
    case "object":
      return objectType(s, pad);
    default:
      return "unknown";
  }
}

/**
 * An object's members with their documentation. Other members a record may carry get no index
 * signature: a misspelt member stays a compile error; they are read as `Record<string, unknown>`.
 */
function objectType(s: Schema, pad: string, allOptional = false): string {
  const props = (s.properties ?? {}) as Record<string, Schema>;
  const required = new Set((s.required ?? []) as string[]);
  const inner = `${pad}  `;
  const lines = Object.entries(props).map(([name, p]) => {
    const d = descriptionOf(p);
    const opt = allOptional || !required.has(name) ? "?" : "";
    return `${d ? docLine(d, inner) : ""}${inner}${name}${opt}: ${tsType(p, inner)};`;
  });
  if (!lines.length) return "Record<string, never>";
  return `{\n${lines.join("\n")}\n${pad}}`;
}

const camel = (s: string) => s.replace(/[-_](\w)/g, (_, c: string) => c.toUpperCase());

/** The name of a named schema (NAMED_SCHEMAS) by identity. */
function nameOf(schema: unknown): string | undefined {
  return Object.entries(NAMED_SCHEMAS).find(([, s]) => s === schema)?.[0];
}

const RECORDS = ["Vehicle", "Extra", "Image", "Currency", "Locale", "Segment", "CatalogItem"] as const;

const UNKNOWN_MEMBERS =
  "Read the members beyond these (typed unknown) as `const all: Readonly<Record<string, unknown>> = record`.";

export function contractTypesSource(): string {
  const schemas = recordJsonSchemas();
  const typeOf = (name: string, lead: string) => {
    const s = schemas[name] as Schema;
    return `${docLine(`${lead}`, "")}export type ${name} = ${objectType(s, "")};`;
  };
  const records = RECORDS.map((name) => {
    const s = schemas[name] as Schema;
    return typeOf(name, `${descriptionOf(s) ?? name} ${UNKNOWN_MEMBERS}`);
  }).join("\n\n");
  const catalogs = CATALOG_OPERATIONS.map((op) => {
    const params = op.params
      .map((p) => {
        const s = fieldJsonSchema(p);
        return `${docLine(descriptionOf(s) ?? p.name, "    ")}    ${p.name}?: ${tsType(s, "    ")};`;
      })
      .join("\n");
    return `  /** ${op.summary} (GET ${op.path}). */\n  ${camel(op.catalogName!)}: ${params ? `{\n${params}\n  }` : "Record<string, never>"};`;
  }).join("\n");
  const items = CATALOG_OPERATIONS.map(
    (op) => `  ${camel(op.catalogName!)}: ${nameOf(operationRecord(op)) ?? "CatalogItem"};`,
  ).join("\n");
  return `// Generated from the record schemas (src/contract/schemas.ts, built from the contract table)
// by scripts/contract-types.ts: do not edit. test/library/contract-types.test.ts fails when it is out of date.

${typeOf("VehicleInput", (schemas.VehicleInput as Schema).description as string)}

/** A change to a vehicle: the fields to change (vehicles.edit reads the record, applies them, sends the whole). */
export type VehicleChange = Partial<VehicleInput>;

${typeOf("ExtraInput", (schemas.ExtraInput as Schema).description as string)}

/** A change to an extra (extras.update sends the whole record: the members not given are kept). */
export type ExtraChange = Partial<ExtraInput>;

${records}

/** Each catalog's query parameters, by the client's method name (\`client.catalog.brands({ segment_id: 1 })\`). */
export interface CatalogParams {
${catalogs}
}

/** The catalogs' method names. */
export type CatalogName = keyof CatalogParams;

/** The item each catalog lists (the contract shows the fields of currencies, locales and segments). */
export interface CatalogItems {
${items}
}

/** The wire name of each catalog method: the operation it calls. */
export const CATALOG_OPERATION_IDS: Readonly<Record<CatalogName, string>> = {
${CATALOG_OPERATIONS.map((op) => `  ${camel(op.catalogName!)}: ${JSON.stringify(op.id)},`).join("\n")}
};
`;
}
