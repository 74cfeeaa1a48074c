import type { JsonObject } from "./records.js";
import { editableFields, type ParamSpec } from "./types.js";

/**
 * Extra (additional paid option) members.
 *
 * Spec gap: the contract says an extra "is tied to an option type, a price, a
 * currency, a period and a quantity" but never shows the wire names. These
 * names are an ASSUMPTION, declared only here; `--set NAME=VALUE` sends any
 * other exact name. `extras/update` is a full replacement, so all five are
 * always sent on update.
 *
 * `period` is the charging period, a number: the contract names no period
 * values, so rentctl shows and takes the number only and invents no names.
 */

export const EXTRA_FIELDS: readonly ParamSpec[] = [
  {
    name: "locale_id",
    type: "integer",
    required: true,
    description: "Locale id",
    min: 1,
    default: 40,
    catalog: "catalog.locales",
    clientFilled: true,
  },
  {
    name: "option_id",
    type: "integer",
    required: true,
    description: "Extra option type id (from extra options)",
    min: 1,
    catalog: "catalog.extra_options",
  },
  { name: "price", type: "integer", required: true, description: "Price", min: 0 },
  {
    name: "currency_id",
    type: "integer",
    required: true,
    description: "Currency id",
    min: 1,
    catalog: "catalog.currencies",
  },
  {
    name: "period",
    type: "integer",
    required: true,
    description: "Charging period: 1 = per day, 2 = per rental",
    min: 1,
    max: 2,
  },
  { name: "quantity", type: "integer", required: true, description: "Quantity available", min: 1 },
];

/** The extra members a person gives: all but the client-filled locale. */
export const EXTRA_EDITABLE_FIELDS: readonly ParamSpec[] = editableFields(EXTRA_FIELDS);

/** The flag each extra member is given (`--option`, `--price`, ...). */
export const EXTRA_FIELD_FLAGS: Readonly<Record<string, string>> = {
  option_id: "option",
  price: "price",
  currency_id: "currency",
  period: "period",
  quantity: "quantity",
};

/** The members a full replacement must carry (everything but locale). */
export const EXTRA_REPLACEMENT_FIELDS = EXTRA_EDITABLE_FIELDS.map((f) => f.name);

/**
 * Other names a server may give each extra member (the contract shows none):
 * safe update sends the record back under the names the server used, and a
 * flag such as `--period` sets `period` or `period_id`, whichever the record
 * has. Decided here, in one place.
 */
export const EXTRA_MEMBER_ALIASES: Readonly<Record<string, readonly string[]>> = {
  option_id: ["option", "extra_option_id", "option_type_id"],
  price: ["amount", "price_amount"],
  currency_id: ["currency"],
  period: ["period_id", "charge_period", "charge_period_id"],
  quantity: ["qty", "count"],
};

/** A member of an extra record under its contract name or one of the declared aliases. */
export function memberOf(record: JsonObject, field: string): unknown {
  for (const n of [field, ...(EXTRA_MEMBER_ALIASES[field] ?? [])]) if (record[n] !== undefined) return record[n];
  return undefined;
}

/** The on/off state of an extra's record (`is_active`, `active`, `enabled`, `status`, `state`), if shown. */
export function activeOf(record: JsonObject): boolean | undefined {
  for (const k of ["is_active", "active", "enabled", "status", "state"]) {
    const v = record[k];
    if (v === undefined || v === null) continue;
    const b = parseActive(v);
    if (b !== undefined) return b;
  }
  return undefined;
}

/** on / off, true / false, yes / no, 1 / 0. */
export function parseActive(v: unknown): boolean | undefined {
  if (v === true || v === 1) return true;
  if (v === false || v === 0) return false;
  if (typeof v === "string") {
    const s = v.trim().toLowerCase();
    if (["on", "true", "yes", "1", "active", "enabled"].includes(s)) return true;
    if (["off", "false", "no", "0", "inactive", "disabled"].includes(s)) return false;
  }
  return undefined;
}
