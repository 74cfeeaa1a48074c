import { UsageError } from "../base/errors.js";
import { nearest } from "../base/nearest.js";
import { regKey } from "../contract/identity.js";
import type { ParamSpec } from "../contract/types.js";
import { VEHICLE_FIELD_ALIASES, VEHICLE_FIELDS } from "../contract/vehicle-fields.js";
import { type DateRange, daysOf, parseRange, parseStoredCalendar } from "./calendar.js";

/**
 * Client-side selections (`--where FIELD OP VALUE`) and sorting (`--sort
 * FIELD[:desc]`) over listed vehicle records. The contract has no server-side
 * filters, so commands list pages and keep the records that match.
 *
 * - FIELD: a wire name (`price_per_day`), its kebab flag name (`price-per-day`)
 *   or a short flag alias (`price`, `reg`, `segment`, ...). `brand` is a
 *   pseudo-field: it selects on `vehicle_model_id` through the catalog resolver.
 * - OP: `=` `!=` `<` `<=` `>` `>=` `~` (case-insensitive regular expression).
 * - Integer and flag fields compare numerically (flags also take yes/no,
 *   true/false, on/off), other fields as text (`=` on
 *   text is exact, except `vehicle_reg_number`, which compares as the
 *   identity does: trimmed, case-insensitive; use `~` for case-insensitive
 *   matching).
 * - Array fields match when any member matches (`!=` holds when no member
 *   equals the value).
 * - Catalog fields also match by catalog name: names are resolved once (before
 *   filtering) to the ids they stand for, through an injected resolver.
 * - An absent field matches only `= ` with an empty value (or `!=` a value).
 * - Pseudo-fields: `id` (the vehicle id); `model=corolla` (a model name:
 *   brand, model and configuration words, resolved to configuration ids; a
 *   number is the configuration id itself); `available=DATE|RANGE` (free on
 *   every day of it: `2026-12-24`, `24.12.2026`, `2026-12-24..2026-12-26`,
 *   `2026-12`), `available!=DATE` (blocked on some day of it).
 */

export type WhereOp = "=" | "!=" | "<" | "<=" | ">" | ">=" | "~";

/** The pseudo-field `brand`: a catalog name standing for many `vehicle_model_id` values. */
export const BRAND_PSEUDO_FIELD = "brand";
/** `model=NAME`: model words standing for many `vehicle_model_id` (configuration) values. */
export const MODEL_PSEUDO_FIELD = "model";

/** `id`: the vehicle's id (records carry it as `id`), not a contract field but the first thing a person selects by. */
const ID_FIELD: ParamSpec = { name: "id", type: "integer", required: false, description: "Vehicle id", min: 1 };
/** `available` / `free`: a date or range the vehicle is free on, matched against its availability calendar. */
const AVAILABLE_NAMES = new Set(["available", "free", "free_on", "free-on"]);

const kebab = (s: string) => s.replaceAll("_", "-");

/** The field a user-written name stands for (wire, kebab or short alias), or undefined. */
export function lookupField(name: string, specs: readonly ParamSpec[] = VEHICLE_FIELDS): ParamSpec | undefined {
  return fieldIndex(specs).get(name.trim().toLowerCase());
}

const INDEXES = new WeakMap<readonly ParamSpec[], Map<string, ParamSpec>>();

/**
 * Every name of every field, built once per field table (diff and apply look
 * up each field of each row: scanning the table each time was a third of a
 * 1,000-row diff). Wire and kebab names win over aliases; among fields, the
 * first in the table wins.
 */
function fieldIndex(specs: readonly ParamSpec[]): Map<string, ParamSpec> {
  let index = INDEXES.get(specs);
  if (index) return index;
  index = new Map();
  const aliases = new Set<string>();
  for (const [wire, alias] of Object.entries(VEHICLE_FIELD_ALIASES)) {
    if (aliases.has(alias)) continue;
    aliases.add(alias);
    const spec = specs.find((s) => s.name === wire);
    if (spec) index.set(alias, spec);
  }
  for (let i = specs.length - 1; i >= 0; i--) {
    const spec = specs[i] as ParamSpec;
    index.set(kebab(spec.name), spec);
    index.set(spec.name, spec);
  }
  INDEXES.set(specs, index);
  return index;
}

/** The closest known field names to a mistyped one (at most 3). */
export function suggestFields(name: string, specs: readonly ParamSpec[] = VEHICLE_FIELDS): string[] {
  return nearest(
    name,
    specs.map((s) => s.name),
  );
}

/**
 * How messages name a selection, a sort and the vehicle fields: the CLI's
 * flags, or a front end's own words (an MCP tool's arguments). Only the words
 * differ; the rules are these.
 */
export interface SelectionTerms {
  where: string;
  sort: string;
  /** Where the field names are seen. */
  fields: string;
  /** An example of a free-on day, or none. */
  freeOn?: string;
}

export const CLI_TERMS: SelectionTerms = {
  where: "--where",
  sort: "--sort",
  fields: "the wire names of `rentctl vehicle get ID -o json` (or their flag names)",
  freeOn: "--free-on 24.12.2026..26.12.2026",
};

/** The field a name stands for, or a UsageError with a "did you mean" / field list hint. */
export function requireField(
  name: string,
  what: string,
  specs: readonly ParamSpec[] = VEHICLE_FIELDS,
  terms: SelectionTerms = CLI_TERMS,
): ParamSpec {
  const spec = lookupField(name, specs);
  if (spec) return spec;
  const near = suggestFields(name, specs);
  // the nearest names, never a list of 70: the fields are the wire names `get -o json` shows
  throw new UsageError(`${what}: unknown field ${JSON.stringify(name)}`, {
    hint: near.length
      ? `did you mean ${near.join(", ")}?`
      : specs === VEHICLE_FIELDS
        ? `fields are ${terms.fields}, and id, brand, model, available`
        : `fields: ${specs.map((s) => s.name).join(", ")}`,
  });
}

export interface WhereClause {
  /** The expression as written. */
  text: string;
  /** The field the clause tests (for `brand`: vehicle_model_id). */
  field: ParamSpec;
  /** The name given to the resolver: the wire name, or `brand`. */
  resolveAs: string;
  op: WhereOp;
  value: string;
  numeric: boolean;
  /** Numeric value, when the value is a number. */
  number?: number;
  regex?: RegExp;
  /** Catalog ids the value stands for (set by `prepareWhere`). */
  ids?: number[];
  /** `available`: the days (ISO) the vehicle must be free on. */
  days?: string[];
  /** The number is a catalog name (a year), compared through the catalog's items (set `ids` by prepareWhere). */
  byNumberName?: boolean;
}

const EXPR = /^\s*([A-Za-z][A-Za-z0-9_-]*)\s*(!=|<=|>=|=|<|>|~)(.*)$/s;
const NUMBER = /^[+-]?\d+(\.\d+)?$/;
/** Flag fields (0/1) also take the words tables show (`--where active=yes`). */
const FLAG_WORDS: Readonly<Record<string, number>> = { yes: 1, no: 0, true: 1, false: 0, on: 1, off: 0 };

/** Parse one `FIELD OP VALUE` expression (synchronous: no catalog names resolved yet). */
export function parseWhere(
  expr: string,
  specs: readonly ParamSpec[] = VEHICLE_FIELDS,
  terms: SelectionTerms = CLI_TERMS,
): WhereClause {
  const m = EXPR.exec(expr);
  if (!m) {
    throw new UsageError(`${terms.where} ${JSON.stringify(expr)}: expected FIELD OP VALUE`, {
      hint: `OP is one of = != < <= > >= ~ (regular expression), e.g. ${terms.where} price_per_day<40`,
    });
  }
  const [, name = "", op = "=", rawValue = ""] = m;
  const value = rawValue.trim();
  const lower = name.toLowerCase();
  const vehicles = specs === VEHICLE_FIELDS;
  if (vehicles && AVAILABLE_NAMES.has(lower)) return availableClause(expr, op as WhereOp, value, terms);
  const isBrand = lower === BRAND_PSEUDO_FIELD && vehicles;
  const field = isBrand
    ? (VEHICLE_FIELDS.find((s) => s.name === "vehicle_model_id") as ParamSpec)
    : vehicles && (lower === "id" || lower === "vehicle_id")
      ? ID_FIELD
      : requireField(name, `${terms.where} ${JSON.stringify(expr)}`, specs, terms);
  // A model given by name (not a configuration id): its words stand for configurations, as brand does.
  const isModel = vehicles && !isBrand && field.name === "vehicle_model_id" && !NUMBER.test(value) && value !== "";
  const numeric = field.type === "integer" || field.type === "flag" || field.type === "integer[]";
  const clause: WhereClause = {
    text: expr,
    field,
    resolveAs: isBrand ? BRAND_PSEUDO_FIELD : isModel ? MODEL_PSEUDO_FIELD : field.name,
    op: op as WhereOp,
    value,
    numeric,
  };
  const asId = /^id:\s*(\d+)$/i.exec(value);
  if (asId) clause.number = Number(asId[1]);
  else if (NUMBER.test(value)) {
    clause.number = Number(value);
    // a year is a year (ParamSpec.namesFrom): compared by the catalog's names, not its ids
    if (field.namesFrom !== undefined && clause.number >= field.namesFrom) clause.byNumberName = true;
  } else if (field.type === "flag" && Object.hasOwn(FLAG_WORDS, value.toLowerCase())) {
    clause.number = FLAG_WORDS[value.toLowerCase()];
  }
  if (op === "~") {
    try {
      clause.regex = new RegExp(value, "i");
    } catch (err) {
      throw new UsageError(
        `${terms.where} ${JSON.stringify(expr)}: invalid regular expression: ${(err as Error).message}`,
      );
    }
  } else if (numeric && (op === "<" || op === "<=" || op === ">" || op === ">=") && clause.number === undefined) {
    throw new UsageError(
      `${terms.where} ${JSON.stringify(expr)}: ${field.name} compares as a number, got ${JSON.stringify(value)}`,
    );
  } else if (numeric && value !== "" && clause.number === undefined && !field.catalog) {
    throw new UsageError(
      `${terms.where} ${JSON.stringify(expr)}: ${field.name} is a number, got ${JSON.stringify(value)}`,
    );
  }
  if ((isBrand || isModel) && op !== "=" && op !== "!=") {
    throw new UsageError(
      `${terms.where} ${JSON.stringify(expr)}: ${isBrand ? "brand" : "a model name"} takes = or != only`,
    );
  }
  return clause;
}

/** `available=DATE|RANGE` (free on every day) / `available!=DATE|RANGE` (blocked on some day). */
function availableClause(expr: string, op: WhereOp, value: string, terms: SelectionTerms): WhereClause {
  if (op !== "=" && op !== "!=")
    throw new UsageError(
      `${terms.where} ${JSON.stringify(expr)}: available takes = (free on) or != (blocked on) only`,
      {
        hint: `example: ${terms.where} available=2026-12-24${terms.freeOn ? `, or ${terms.freeOn}` : ""}`,
      },
    );
  let range: DateRange;
  try {
    range = parseRange(value);
  } catch (e) {
    throw new UsageError(
      `${terms.where} ${JSON.stringify(expr)}: ${(e as Error).message.replace(/^date range "[^"]*": /, "")}`,
      {
        hint: "use a date as 2026-12-24 or 24.12.2026, a range as 2026-12-24..2026-12-26, or a month as 2026-12",
      },
    );
  }
  const field = VEHICLE_FIELDS.find((s) => s.name === "vehicle_availability_calendar") as ParamSpec;
  return { text: expr, field, resolveAs: field.name, op, value, numeric: false, days: daysOf(range) };
}

/**
 * Resolve a catalog name to the ids it stands for (`field` is the wire name or
 * `brand`); undefined when the name is unknown.
 */
export type CatalogResolver = (field: string, value: string) => Promise<number[] | undefined>;

/** Every item of a field's catalog as (id, name), for comparing by names that are numbers (years). */
export type CatalogItems = (field: string) => Promise<Array<{ id: number; name: string }>>;

export interface Selection {
  clauses: WhereClause[];
  /** True when every clause holds for the record. */
  matches(record: Record<string, unknown>): boolean;
}

/**
 * Parse every expression and resolve catalog names once, so that matching is
 * synchronous per record. A name given for a catalog field (a non-number with
 * `=` or `!=`) that the resolver does not know is a UsageError.
 */
export async function prepareWhere(
  exprs: readonly string[],
  opts: { resolve?: CatalogResolver; items?: CatalogItems; specs?: readonly ParamSpec[]; terms?: SelectionTerms } = {},
): Promise<Selection> {
  const terms = opts.terms ?? CLI_TERMS;
  const clauses = exprs.map((e) => parseWhere(e, opts.specs, terms));
  for (const c of clauses) {
    if (c.byNumberName && c.op !== "~") {
      if (!opts.items)
        throw new UsageError(
          `${terms.where} ${JSON.stringify(c.text)}: catalog names cannot be resolved here; give id:N`,
        );
      const want = c.number as number;
      const holds = (n: number) =>
        c.op === "<"
          ? n < want
          : c.op === "<="
            ? n <= want
            : c.op === ">"
              ? n > want
              : c.op === ">="
                ? n >= want
                : n === want;
      c.ids = (await opts.items(c.field.name)).filter((i) => holds(Number(i.name))).map((i) => i.id);
      // `<` and friends became "one of these ids": membership, with `!=` still negating equality
      if (c.op !== "!=") c.op = "=";
      continue;
    }
    const byName =
      c.resolveAs === BRAND_PSEUDO_FIELD ||
      c.resolveAs === MODEL_PSEUDO_FIELD ||
      (c.field.catalog && c.number === undefined && c.value !== "");
    if (!byName || c.op === "~") continue;
    if (c.op !== "=" && c.op !== "!=") continue;
    if (!opts.resolve) {
      throw new UsageError(
        `${terms.where} ${JSON.stringify(c.text)}: catalog names cannot be resolved here; give an id`,
      );
    }
    const ids = await opts.resolve(c.resolveAs, c.value);
    if (!ids) {
      throw new UsageError(
        `${terms.where} ${JSON.stringify(c.text)}: no ${c.resolveAs} named ${JSON.stringify(c.value)}`,
        {
          hint:
            c.resolveAs === MODEL_PSEUDO_FIELD
              ? 'give brand or model words (e.g. model=corolla, model="toyota corolla"), or the configuration id; list them with: rentctl catalog models --brand BRAND'
              : `list the names with: rentctl catalog ${c.field.catalog?.replace(/^catalog\./, "") ?? ""}`.trim(),
        },
      );
    }
    c.ids = ids;
  }
  return { clauses, matches: (record) => clauses.every((c) => matchClause(c, record[c.field.name])) };
}

function members(v: unknown): unknown[] {
  if (v === undefined || v === null || v === "") return [];
  if (Array.isArray(v)) {
    return v.map((x) =>
      typeof x === "object" && x !== null && "id" in x ? (x as { id: unknown }).id : x,
    ) as unknown[];
  }
  return [v];
}

function asNumber(v: unknown): number | undefined {
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "string" && NUMBER.test(v.trim())) return Number(v.trim());
  return undefined;
}

function memberHolds(c: WhereClause, m: unknown): boolean {
  if (c.op === "~") return (c.regex as RegExp).test(String(m));
  if (c.ids) return c.ids.includes(asNumber(m) ?? Number.NaN);
  if (c.numeric) {
    const n = asNumber(m);
    const want = c.number as number;
    if (n === undefined) return false;
    switch (c.op) {
      case "=":
      case "!=":
        return n === want;
      case "<":
        return n < want;
      case "<=":
        return n <= want;
      case ">":
        return n > want;
      case ">=":
        return n >= want;
    }
  }
  const s = String(m);
  switch (c.op) {
    case "=":
    case "!=":
      return c.field.name === "vehicle_reg_number" ? regKey(s) === regKey(c.value) : s === c.value;
    case "<":
      return s < c.value;
    case "<=":
      return s <= c.value;
    case ">":
      return s > c.value;
    case ">=":
      return s >= c.value;
  }
}

/** Does one clause hold for a record's value (array fields: any member)? */
export function matchClause(c: WhereClause, value: unknown): boolean {
  if (c.days) {
    const blocked = new Set(parseStoredCalendar(value).dates);
    const free = c.days.every((d) => !blocked.has(d));
    return c.op === "=" ? free : !free;
  }
  const ms = members(value);
  if (c.op === "=" && c.value === "") return ms.length === 0;
  if (c.op === "!=" && c.value === "") return ms.length > 0;
  if (c.op === "!=") return !ms.some((m) => memberHolds(c, m));
  return ms.some((m) => memberHolds(c, m));
}

export interface SortKey {
  field: ParamSpec;
  desc: boolean;
}

/** Parse `FIELD[:desc]` (or `:asc`). */
export function parseSort(
  raw: string,
  specs: readonly ParamSpec[] = VEHICLE_FIELDS,
  terms: SelectionTerms = CLI_TERMS,
): SortKey {
  const m = /^\s*([^:]+?)\s*(?::\s*(asc|desc)\s*)?$/i.exec(raw);
  if (!m) throw new UsageError(`${terms.sort} ${JSON.stringify(raw)}: expected FIELD or FIELD:desc`);
  const name = (m[1] as string).toLowerCase();
  const field =
    specs === VEHICLE_FIELDS && (name === "id" || name === "vehicle_id")
      ? ID_FIELD
      : requireField(m[1] as string, `${terms.sort} ${JSON.stringify(raw)}`, specs, terms);
  return { field, desc: (m[2] ?? "").toLowerCase() === "desc" };
}

function sortValue(v: unknown): number | string | undefined {
  const ms = members(v);
  if (ms.length === 0) return undefined;
  return ms[0] as number | string;
}

/**
 * A comparator for `Array.prototype.sort` (stable since ES2019): numeric for
 * integer fields, text otherwise (arrays by their first member); absent values
 * last in either direction.
 */
export function sortComparator(key: SortKey): (a: Record<string, unknown>, b: Record<string, unknown>) => number {
  const numeric = key.field.type === "integer" || key.field.type === "flag" || key.field.type === "integer[]";
  return (a, b) => {
    const x = sortValue(a[key.field.name]);
    const y = sortValue(b[key.field.name]);
    if (x === undefined || y === undefined) return x === undefined ? (y === undefined ? 0 : 1) : -1;
    let d: number;
    if (numeric) d = (asNumber(x) ?? Number.NaN) - (asNumber(y) ?? Number.NaN) || 0;
    else d = String(x).localeCompare(String(y));
    return key.desc ? -d : d;
  };
}
