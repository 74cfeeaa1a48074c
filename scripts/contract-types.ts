// The TypeScript types of the library's inputs, generated from the one contract table
// (src/contract/): a field added there appears in `vehicles.create` without a second edit.
// test/library/contract-types.test.ts fails when src/library/contract-types.ts is out of date;
// `UPDATE_CONTRACT_TYPES=1 npx vitest run test/library/contract-types.test.ts` rewrites it.
import { EXTRA_EDITABLE_FIELDS } from "../src/contract/extra-fields.js";
import { CATALOG_OPERATIONS } from "../src/contract/operations.js";
import type { ParamSpec, ValueType } from "../src/contract/types.js";
import { VEHICLE_EDITABLE_FIELDS } from "../src/contract/vehicle-fields.js";

const TS: Record<ValueType, string> = {
  integer: "number",
  string: "string",
  flag: "0 | 1",
  "integer[]": "number[]",
  "string[]": "string[]",
};

function doc(f: ParamSpec): string {
  const parts = [f.description.replace(/([^.])$/, "$1.")];
  if (f.min !== undefined && f.max !== undefined) parts.push(`From ${f.min} to ${f.max}.`);
  else if (f.min !== undefined) parts.push(`At least ${f.min}.`);
  else if (f.max !== undefined) parts.push(`At most ${f.max}.`);
  if (f.maxLength !== undefined) parts.push(`At most ${f.maxLength} characters.`);
  if (f.catalog) parts.push(`Id from ${f.catalog}.`);
  if (f.required === "conflicting") parts.push("The spec states it both required and optional: accepted either way.");
  return `  /** ${parts.join(" ").replace(/\*\//g, "* /")} */`;
}

function members(fields: readonly ParamSpec[], allOptional = false): string {
  return fields
    .map((f) => `${doc(f)}\n  ${f.name}${allOptional || f.required !== true ? "?" : ""}: ${TS[f.type]};`)
    .join("\n");
}

const camel = (s: string) => s.replace(/[-_](\w)/g, (_, c: string) => c.toUpperCase());

export function contractTypesSource(): string {
  const catalogs = CATALOG_OPERATIONS.map((op) => {
    const params = op.params
      .map((p) => `${doc(p).replace("  /**", "    /**")}\n    ${p.name}?: ${TS[p.type]};`)
      .join("\n");
    return `  /** ${op.summary} (GET ${op.path}). */\n  ${camel(op.catalogName!)}: ${params ? `{\n${params}\n  }` : "Record<string, never>"};`;
  }).join("\n");
  return `// Generated from the contract table (src/contract/) by scripts/contract-types.ts: do not edit.
// test/library/contract-types.test.ts fails when it is out of date.

/** A vehicle as created: wire names and types of the v302 contract (the client fills user_id and locale_id). */
export interface VehicleInput {
${members(VEHICLE_EDITABLE_FIELDS)}
}

/** A change to a vehicle: the fields to change (vehicles.edit reads the record, applies them, sends the whole). */
export type VehicleChange = Partial<VehicleInput>;

/** An extra as created (the client fills locale_id). */
export interface ExtraInput {
${members(EXTRA_EDITABLE_FIELDS)}
}

/** A change to an extra (extras.update sends the whole record: the members not given are kept). */
export type ExtraChange = Partial<ExtraInput>;

/** Each catalog's query parameters, by the client's method name (\`client.catalog.brands({ segment_id: 1 })\`). */
export interface CatalogParams {
${catalogs}
}

/** The catalogs' method names. */
export type CatalogName = keyof CatalogParams;

/** The wire name of each catalog method: the operation it calls. */
export const CATALOG_OPERATION_IDS: Readonly<Record<CatalogName, string>> = {
${CATALOG_OPERATIONS.map((op) => `  ${camel(op.catalogName!)}: ${JSON.stringify(op.id)},`).join("\n")}
};
`;
}
