import { parseDay } from "./dates.js";
import { regKey } from "./identity.js";
import type { ParamSpec } from "./types.js";
import { AVAILABILITY_DATE } from "./vehicle-fields.js";

/**
 * Coercion and validation against the contract declarations. The CLI uses it
 * before sending anything; the sandbox uses the same functions on what it
 * receives, so both sides agree on every rule.
 */

export interface Problem {
  field: string;
  message: string;
}

export type WireScalar = number | string;
export type WireValue = WireScalar | WireScalar[];
export type WireRecord = Record<string, WireValue>;

/** A whole number as text: a sign only for a negative one (`+5` is a relative form, never read as 5). */
const INTEGER = /^-?\d+$/;
/** Any surrogate (cheap to look for), and an unpaired one. */
const SURROGATE = /[\uD800-\uDFFF]/;
const UNPAIRED = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** One-line identifiers: a control character in them is an error, not data. */
const IDENTIFIERS = new Set(["vehicle_reg_number", "vehicle_vin"]);

function coerceScalar(spec: ParamSpec, raw: unknown): { value?: WireScalar; problem?: string } {
  const isInt = spec.type === "integer" || spec.type === "integer[]" || spec.type === "flag";
  if (isInt) {
    let n: number;
    if (typeof raw === "number") n = raw;
    // true / false only where the field is a 0/1 flag: a price of `false` is a mistake, not 0
    else if (typeof raw === "boolean" && spec.type === "flag") n = raw ? 1 : 0;
    else if (typeof raw === "string" && INTEGER.test(raw.trim())) n = Number(raw.trim());
    else if (typeof raw === "string" && /^\+\s*\d/.test(raw.trim()))
      return {
        problem: `${JSON.stringify(raw)} is a relative value: only \`vehicle edit\` takes those; give the value itself`,
      };
    else
      return { problem: `must be ${spec.type === "flag" ? "0 or 1" : "a whole number"}, got ${JSON.stringify(raw)}` };
    if (!Number.isSafeInteger(n)) return { problem: `must be a whole number, got ${JSON.stringify(raw)}` };
    if (spec.type === "flag" && n !== 0 && n !== 1) return { problem: `must be 0 or 1, got ${n}` };
    if (spec.min !== undefined && n < spec.min) return { problem: `must be at least ${spec.min}, got ${n}` };
    if (spec.max !== undefined && n > spec.max) return { problem: `must be at most ${spec.max}, got ${n}` };
    return { value: n };
  }
  if (typeof raw !== "string" && typeof raw !== "number")
    return { problem: `must be text, got ${JSON.stringify(raw)}` };
  const s = String(raw);
  // an unpaired surrogate (from a broken file or a \uD800 escape) has no UTF-8 form: not text
  if (SURROGATE.test(s) && UNPAIRED.test(s)) return { problem: "is not valid text (an unpaired UTF-16 surrogate)" };
  // a NUL (written \u0000 in JSON) ends strings in many systems downstream: never text
  if (s.includes("\u0000")) return { problem: "contains a NUL character (U+0000)" };
  // (the code points are counted only when the UTF-16 length is over: it is never below them)
  if (spec.maxLength !== undefined && s.length > spec.maxLength && [...s].length > spec.maxLength) {
    return { problem: `must be at most ${spec.maxLength} characters, got ${[...s].length}` };
  }
  return { value: s };
}

/** Fields coerce checks beyond their type (never answered by wireAsIs). */
const SPECIAL = new Set(["vehicle_reg_number", "vehicle_vin", "vehicle_availability_calendar"]);

function scalarAsIs(spec: ParamSpec, isInt: boolean, v: unknown): boolean {
  if (isInt) {
    if (typeof v !== "number" || !Number.isSafeInteger(v)) return false;
    if (spec.type === "flag" && v !== 0 && v !== 1) return false;
    return (spec.min === undefined || v >= spec.min) && (spec.max === undefined || v <= spec.max);
  }
  return (
    typeof v === "string" &&
    (spec.maxLength === undefined || v.length <= spec.maxLength) &&
    !SURROGATE.test(v) &&
    !v.includes("\u0000")
  );
}

/**
 * The value itself when it already has its wire type and passes every check
 * coerce makes (what coerce would answer, without the objects it builds:
 * this runs for every field of every row of a fleet file); undefined when
 * coerce must look (a conversion, a problem, a field with checks of its own).
 */
export function wireAsIs(spec: ParamSpec, raw: unknown): WireValue | undefined {
  if (SPECIAL.has(spec.name)) return undefined;
  const isInt = spec.type === "integer" || spec.type === "integer[]" || spec.type === "flag";
  if (spec.type.endsWith("[]")) {
    if (!Array.isArray(raw)) return undefined;
    for (const m of raw) if (!scalarAsIs(spec, isInt, m)) return undefined;
    return raw as WireScalar[];
  }
  return scalarAsIs(spec, isInt, raw) ? (raw as WireScalar) : undefined;
}

/** No problems (shared: coerce runs for every field of every row of a fleet file). */
const NONE: readonly string[] = Object.freeze([]);

/** Convert one raw value (text from a flag or a form, or JSON) to its wire type, or say what is wrong. */
export function coerce(spec: ParamSpec, raw: unknown): { value?: WireValue; problems: readonly string[] } {
  const isArray = spec.type.endsWith("[]");
  if (isArray) {
    const items = Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw];
    const out: WireScalar[] = [];
    const problems: string[] = [];
    items.forEach((item, i) => {
      const r = coerceScalar(spec, item);
      if (r.problem) problems.push(items.length > 1 ? `item ${i + 1} ${r.problem}` : r.problem);
      else if (r.value !== undefined) out.push(r.value);
    });
    return problems.length ? { problems } : { value: out, problems: NONE };
  }
  if (Array.isArray(raw)) {
    if (raw.length !== 1) return { problems: ["takes a single value, not a list"] };
    raw = raw[0];
  }
  const r = coerceScalar(spec, raw);
  if (r.problem) return { problems: [r.problem] };
  // A registration number of invisible characters only (zero-width, spaces) names no vehicle.
  if (spec.name === "vehicle_reg_number" && typeof r.value === "string" && r.value !== "" && regKey(r.value) === "")
    return { problems: ["holds no visible characters"] };
  // An identifier holds no control characters (a pasted newline, a NUL): refused by name, never stored.
  if (IDENTIFIERS.has(spec.name) && typeof r.value === "string") {
    const bad = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/.exec(r.value);
    if (bad)
      return {
        problems: [
          `contains a control character (U+${bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")})`,
        ],
      };
  }
  if (spec.name === "vehicle_availability_calendar" && typeof r.value === "string" && r.value !== "") {
    // the form (d.m.Y) and a real day: 31.02.2026 is no date
    const bad = r.value
      .split(",")
      .map((d) => d.trim())
      .filter((d) => !AVAILABILITY_DATE.test(d) || parseDay(d) === undefined);
    if (bad.length)
      return {
        problems: [
          `dates must be real days in d.m.Y (e.g. 24.12.2026), not ${bad.map((b) => JSON.stringify(b)).join(", ")}`,
        ],
      };
  }
  return { value: r.value, problems: NONE };
}

export function isEmpty(v: unknown): boolean {
  return v === undefined || v === null || v === "" || (Array.isArray(v) && v.length === 0);
}

export interface ValidateOptions {
  /** Demand every field whose `required` is `true`. */
  requireRequired: boolean;
  /** Reject members not declared (the contract's "no other members allowed"). */
  closed?: boolean;
  /** Members to pass through unchecked (e.g. names given with --set that are not declared). */
  allowUnknown?: boolean;
}

/**
 * Check a whole record. Returns the coerced record (absent values dropped)
 * and every problem found, by field.
 */
const INDEXES = new WeakMap<readonly ParamSpec[], ReadonlyMap<string, ParamSpec>>();

/** A field table by name, built once per table (a bulk run validates thousands of rows against one). */
export function specIndex(specs: readonly ParamSpec[]): ReadonlyMap<string, ParamSpec> {
  let index = INDEXES.get(specs);
  if (!index) {
    index = new Map(specs.map((s) => [s.name, s]));
    INDEXES.set(specs, index);
  }
  return index;
}

export function validateRecord(
  input: Record<string, unknown>,
  specs: readonly ParamSpec[],
  opts: ValidateOptions,
): { record: WireRecord; problems: Problem[] } {
  const bySpec = specIndex(specs);
  const record: WireRecord = {};
  const problems: Problem[] = [];
  // for-in, not Object.entries: bulk work validates every row (no pair arrays per field)
  for (const name in input) {
    const raw = input[name];
    const spec = bySpec.get(name);
    if (!spec) {
      if (opts.closed) problems.push({ field: name, message: "is not allowed here" });
      else if (opts.allowUnknown && !isEmpty(raw)) record[name] = raw as WireValue;
      else if (!opts.allowUnknown) problems.push({ field: name, message: "is not a known field" });
      continue;
    }
    // Absent values (undefined, null, "", []) are dropped for every type, arrays included.
    if (isEmpty(raw)) continue;
    // already of its wire type and passing every check (a listed record's values): no objects built
    // per field (lint checks every field of every vehicle); a list is copied, as coerce's is a new one
    const asIs = wireAsIs(spec, raw);
    if (asIs !== undefined) {
      record[name] = Array.isArray(asIs) ? asIs.slice() : asIs;
      continue;
    }
    const r = coerce(spec, raw);
    for (const m of r.problems) problems.push({ field: name, message: m });
    if (r.value !== undefined) record[name] = r.value;
  }
  if (opts.requireRequired) {
    for (let i = 0; i < specs.length; i++) {
      const spec = specs[i]!;
      if (spec.required === true && isEmpty(record[spec.name]) && !problems.some((p) => p.field === spec.name)) {
        problems.push({ field: spec.name, message: "is required" });
      }
    }
  }
  return { record, problems };
}

/** Rules that join two fields: delivery and return places, locations and prices go in step. */
/** The delivery and return fields that must agree in length (their names built once: this runs per row). */
const DELIVERY_KINDS = (["address", "return"] as const).map((kind) => ({
  kind,
  placeKey: `vehicle_delivery_${kind}_fixed_place`,
  priceKey: `vehicle_delivery_${kind}_fixed_price`,
  locationKey: `vehicle_delivery_${kind}_fixed_location`,
}));

export function crossFieldProblems(record: Record<string, unknown>): Problem[] {
  const problems: Problem[] = [];
  for (const { kind, placeKey, priceKey, locationKey } of DELIVERY_KINDS) {
    const place = record[placeKey];
    const price = record[priceKey];
    const location = record[locationKey];
    const places = Array.isArray(place) ? place.length : 0;
    const locations = Array.isArray(location) ? location.length : 0;
    const prices = Array.isArray(price) ? price.length : 0;
    const entries = Math.max(places, locations);
    if (prices !== entries && (prices > 0 || entries > 0)) {
      problems.push({
        field: priceKey,
        message: `needs one price per ${kind === "address" ? "delivery" : "return"} place or location (${entries} given, ${prices} prices)`,
      });
    }
  }
  return problems;
}
