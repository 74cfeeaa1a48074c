import { EXTRA_FIELDS } from "../contract/extra-fields.js";
import { fieldJsonSchema } from "../contract/schemas.js";
import type { ParamSpec } from "../contract/types.js";
import { IMAGES_KEY, ROW_FIELDS } from "../files/fields.js";
import { EXTRA_ROW_KEYS } from "./account-extras.js";

/**
 * JSON Schema (2020-12) of fleet files (`vehicle schema`) and account files
 * (`account schema`), derived from the record schemas (src/contract/schemas.ts,
 * built from the contract table): each vehicle field's JSON Schema (type,
 * range and length), its description from the field help, and whether a
 * catalog name may stand for its id. Values are allowed in every form the
 * reader accepts (a whole number also as digits in a string, a list also as
 * one value, `null` = "must be empty"), so a file rentctl reads is never
 * flagged by an editor. Catalog names are not enumerated: the catalogs
 * belong to the server and its locale, not to the contract.
 */

type Schema = Record<string, unknown>;

const SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema";
const DIGITS = "^\\s*[+-]?\\d+\\s*$";

/**
 * One value of a field as a file may hold it: the field's own JSON Schema (src/contract/schemas.ts,
 * the one source: type, range, length), widened to the forms the reader accepts.
 */
function scalar(spec: ParamSpec): Schema {
  const strict = fieldJsonSchema(spec);
  const one = { ...((spec.type.endsWith("[]") ? strict.items : strict) as Schema) };
  delete one.description;
  if (spec.type === "flag") return { anyOf: [one, { enum: ["0", "1", true, false] }] };
  if (spec.type === "integer" || spec.type === "integer[]") {
    const forms: Schema[] = [one, { type: "string", pattern: DIGITS }];
    if (spec.catalog) forms.push({ type: "string", minLength: 1 });
    return { anyOf: forms };
  }
  return { anyOf: [one, { type: "number" }] };
}

function describe(spec: ParamSpec): string {
  const parts = [spec.description];
  if (spec.catalog) parts.push(`(an id, or a name from the ${spec.catalog.replace(/^catalog\./, "")} catalog)`);
  if (spec.required === true) parts.push("[required to create a vehicle]");
  return parts.join(" ");
}

function fieldSchema(spec: ParamSpec): Schema {
  const one = scalar(spec);
  const value: Schema = spec.type.endsWith("[]")
    ? { anyOf: [{ type: "array", items: one }, one, { type: "null" }] }
    : { anyOf: [one, { type: "null" }] };
  return { description: describe(spec), ...value };
}

/** The properties of a vehicle row: every field under its wire name and its kebab-case name, plus images. */
function vehicleRowSchema(account: boolean): Schema {
  const properties: Record<string, Schema> = {};
  for (const f of ROW_FIELDS) {
    const s = fieldSchema(f);
    properties[f.name] = s;
    const kebab = f.name.replace(/_/g, "-");
    if (kebab !== f.name) properties[kebab] = { $ref: `#/$defs/vehicle/properties/${f.name}` };
  }
  properties[IMAGES_KEY] = {
    description: "Image files to upload (paths relative to this file), attached when the vehicle has none",
    anyOf: [{ type: "array", items: { type: "string" } }, { type: "string" }],
  };
  for (const k of ["id", "vehicle_id", "user_id", "locale_id", "created_at", "updated_at"])
    properties[k] = { description: "Ignored (an export or list output reads back)" };
  if (account)
    properties.extras = {
      description:
        "The vehicle's extras by identity: the option alone when the account has one extra of it, else {option, period}; [] = none",
      anyOf: [{ type: "array", items: { $ref: "#/$defs/extraRef" } }, { type: "null" }],
    };
  return {
    type: "object",
    description: "One vehicle: the fields it gives are managed, the others kept (unless --exact)",
    required: ["vehicle_reg_number"],
    properties,
    additionalProperties: false,
  };
}

function extraRowSchema(): Schema {
  const spec = new Map(EXTRA_FIELDS.map((f) => [f.name, f]));
  const int = (name: string, description: string): Schema => ({ description, ...scalar(spec.get(name)!) });
  const properties: Record<string, Schema> = {
    option: int("option_id", "The extra option: a name or id of `rentctl extra options`"),
    price: int("price", "Price"),
    currency: int("currency_id", "Currency: a code, name or id"),
    period: {
      ...int("period", ""),
      description:
        "The charging period as the number the server uses (the contract names no period values); with option, the extra's identity",
    },
    quantity: int("quantity", "Quantity available"),
    active: {
      description: "on or off (applied with the switch operation, only when the state differs)",
      enum: ["on", "off", "true", "false", "yes", "no", true, false, 0, 1],
    },
    extra_id: {
      description: "Pins one of two extras of the same option and period (account-bound: drop it when promoting)",
      type: "integer",
      minimum: 1,
    },
  };
  properties.option_id = { $ref: "#/$defs/extra/properties/option" };
  properties.currency_id = { $ref: "#/$defs/extra/properties/currency" };
  // keep the schema and the reader in step
  for (const k of EXTRA_ROW_KEYS) if (!(k in properties)) throw new Error(`schema: extra row key ${k} undeclared`);
  return {
    type: "object",
    description: "One extra; a create needs option, price, currency, period and quantity",
    required: ["option", "period"],
    properties,
    additionalProperties: false,
  };
}

const EXTRA_REF: Schema = {
  anyOf: [
    { type: "string", minLength: 1, description: "An option name (the account has one extra of it)" },
    { type: "integer", minimum: 1, description: "An option id (the account has one extra of it)" },
    {
      type: "object",
      required: ["option"],
      properties: {
        option: {
          anyOf: [
            { type: "string", minLength: 1 },
            { type: "integer", minimum: 1 },
          ],
        },
        period: { type: "integer", minimum: 1 },
      },
      additionalProperties: false,
    },
  ],
};

/** `vehicle schema`: a fleet file (a list of vehicles, or `{vehicles: [...]}`). */
export function fleetFileSchema(): Schema {
  return {
    $schema: SCHEMA_DIALECT,
    $id: "https://rentctl.dev/schema/fleet.schema.json",
    title: "rentctl fleet file",
    description:
      "Vehicles of one account, as `rentctl vehicle export` writes them and `vehicle diff / apply` read them",
    $defs: { vehicle: vehicleRowSchema(false) },
    anyOf: [
      { type: "array", items: { $ref: "#/$defs/vehicle" } },
      {
        type: "object",
        properties: { $schema: { type: "string" }, vehicles: { type: "array", items: { $ref: "#/$defs/vehicle" } } },
        additionalProperties: false,
      },
    ],
  };
}

/** `account schema`: an account file (`{extras, vehicles}`; a plain list is a fleet file and valid too). */
export function accountFileSchema(): Schema {
  return {
    $schema: SCHEMA_DIALECT,
    $id: "https://rentctl.dev/schema/account.schema.json",
    title: "rentctl account file",
    description:
      "The whole account, as `rentctl account export` writes it and `account diff / apply` read it: extras first, then vehicles",
    $defs: { vehicle: vehicleRowSchema(true), extra: extraRowSchema(), extraRef: EXTRA_REF },
    anyOf: [
      {
        type: "object",
        properties: {
          $schema: { type: "string", description: "Editor hint; ignored" },
          extras: {
            description: "The account's extras (leave the key out to leave extras unmanaged)",
            anyOf: [{ type: "array", items: { $ref: "#/$defs/extra" } }, { type: "null" }],
          },
          vehicles: { anyOf: [{ type: "array", items: { $ref: "#/$defs/vehicle" } }, { type: "null" }] },
        },
        additionalProperties: false,
      },
      { type: "array", items: { $ref: "#/$defs/vehicle" } },
    ],
  };
}
