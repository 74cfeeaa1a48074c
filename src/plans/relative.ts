import { UsageError } from "../base/errors.js";
import type { ParamSpec } from "../contract/types.js";
import { specIndex } from "../contract/validate.js";
import { VEHICLE_FIELDS } from "../contract/vehicle-fields.js";

/**
 * Relative values for integer fields on edit (`--price-per-day +10%`,
 * `--set price_per_day=*1.1`).
 *
 * Forms: `+5` / `-5` (add / subtract a whole number), `+10%` / `-12.5%`
 * (percentage), `*1.1` (factor), and a plain absolute whole number `55`.
 * Decision: an absolute value never carries a sign, so `-5` always means
 * "subtract 5" (the contract's integer fields are all >= 0 anyway).
 *
 * Results are computed exactly (decimal arithmetic, no floating point). A
 * result that is not a whole number (45 +10% = 49.5), or outside the field's
 * range (below its minimum, 0 when the contract names none, or above its
 * maximum), is never rounded or clamped silently: applyRelativeChecked
 * reports it, and the command refuses the change unless --clamp, which rounds
 * half up (49.5 → 50) or sets the bound, and says so per vehicle. A relative change of a field that has no value
 * leaves it without a value (there is nothing to change); an absolute value
 * sets it.
 */

export type NumericEdit =
  | { kind: "absolute"; value: number; text: string }
  | { kind: "add"; delta: number; text: string }
  | { kind: "percent"; num: bigint; den: bigint; text: string }
  | { kind: "multiply"; num: bigint; den: bigint; text: string };

const ABSOLUTE = /^\d+$/;
const ADD = /^[+-]\d+$/;
const PERCENT = /^([+-])(\d+(?:\.\d+)?)%$/;
const MULTIPLY = /^\*(\d+(?:\.\d+)?)$/;
const RELATIVE_START = /^[+\-*]/;

/** True when the text is written as a relative value (`+`, `-` or `*` first). */
export function isRelative(raw: string): boolean {
  return RELATIVE_START.test(raw.trim());
}

function decimal(s: string): { num: bigint; den: bigint } {
  const [int = "0", frac = ""] = s.split(".");
  return { num: BigInt(int + frac), den: 10n ** BigInt(frac.length) };
}

/** Parse an absolute or relative value for an integer field; `field` names it in errors. */
export function parseNumericEdit(raw: string, field: string): NumericEdit {
  const text = raw.trim();
  if (ABSOLUTE.test(text)) return { kind: "absolute", value: Number(text), text };
  if (ADD.test(text)) return { kind: "add", delta: Number(text), text };
  let m = PERCENT.exec(text);
  if (m) {
    const p = decimal(m[2] as string);
    // v * (100 ± p) / 100
    const sign = m[1] === "-" ? -1n : 1n;
    return { kind: "percent", num: 100n * p.den + sign * p.num, den: 100n * p.den, text };
  }
  m = MULTIPLY.exec(text);
  if (m) return { kind: "multiply", ...decimal(m[1] as string), text };
  throw new UsageError(`${field}: ${JSON.stringify(raw)} is not a whole number or a relative change`, {
    hint: "use 55, +5, -5, +10%, -10% or *1.1 (absolute values carry no sign)",
  });
}

/**
 * The new value, rounded half up (toward +infinity at .5), NOT clamped: it
 * may leave the field's range (see applyRelativeChecked). `undefined` when
 * the edit is relative and the field has no current value.
 */
export function applyNumericEdit(edit: NumericEdit, current: number | undefined): number | undefined {
  if (edit.kind === "absolute") return edit.value;
  if (current === undefined || !Number.isFinite(current)) return undefined;
  if (edit.kind === "add") return current + edit.delta;
  const product = BigInt(Math.trunc(current)) * edit.num;
  // half up for negative results too (toward +infinity; they are refused or clamped by the caller); -0 is 0
  const twice = 2n * product + edit.den;
  const d = 2n * edit.den;
  return Number(twice >= 0n ? twice / d : -((-twice + d - 1n) / d)) || 0;
}

/** A relative change whose result leaves its field's range, for one record. */
export interface RangeMiss {
  field: string;
  current: number;
  edit: string;
  result: number;
  /** The bound it crosses, e.g. `< 0`, or `not a whole number`. */
  bound: string;
  /** The value it gets with --clamp (the bound, or the result rounded half up). */
  clamped: number;
  /** A fractional result, exactly (`49.5`): the field takes whole numbers. */
  exact?: string;
}

/** `50 -100 = -50 < 0`: the arithmetic of a miss, as refusals and --clamp notes show it. */
export function describeMiss(m: RangeMiss): string {
  return m.exact !== undefined
    ? `${m.field} ${m.current} ${m.edit} = ${m.exact}, ${m.bound}`
    : `${m.field} ${m.current} ${m.edit} = ${m.result} ${m.bound}`;
}

/** The exact result of a percent or factor edit when it is not a whole number (`49.5`), else undefined. */
export function fractionOf(edit: NumericEdit, current: number | undefined): string | undefined {
  if (edit.kind !== "percent" && edit.kind !== "multiply") return undefined;
  if (current === undefined || !Number.isFinite(current)) return undefined;
  const product = BigInt(Math.trunc(current)) * edit.num;
  if (product % edit.den === 0n) return undefined;
  const neg = product < 0n;
  const abs = neg ? -product : product;
  const int = abs / edit.den;
  let frac = (abs % edit.den).toString().padStart(edit.den.toString().length - 1, "0");
  frac = frac.replace(/0+$/, "");
  return `${neg ? "-" : ""}${int}.${frac}`;
}

/**
 * applyRelative, with every result checked against its field's range (the
 * contract's min, 0 when it names none, and max): the results outside are
 * listed, and clamped into the range only with `clamp`.
 */
export function applyRelativeChecked(
  relative: ReadonlyMap<string, NumericEdit>,
  input: Readonly<Record<string, unknown>>,
  opts: { clamp?: boolean; specs?: readonly ParamSpec[] } = {},
): { values: Record<string, number | undefined>; misses: RangeMiss[] } {
  const bySpec = specIndex(opts.specs ?? VEHICLE_FIELDS);
  const values = applyRelative(relative, input);
  const misses: RangeMiss[] = [];
  for (const [name, result] of Object.entries(values)) {
    if (result === undefined) continue;
    const spec = bySpec.get(name);
    const min = spec?.min ?? 0;
    const max = spec?.max;
    const cur = input[name];
    const edit = relative.get(name)!;
    const bound = result < min ? `< ${min}` : max !== undefined && result > max ? `> ${max}` : undefined;
    if (!bound) {
      // a fraction on a whole-number field is no value of it either: refused, or rounded half up with --clamp
      const exact = fractionOf(edit, Number(cur));
      if (exact !== undefined)
        misses.push({
          field: name,
          current: Number(cur),
          edit: edit.text,
          result,
          bound: "not a whole number",
          clamped: result,
          exact,
        });
      continue;
    }
    const clamped = result < min ? min : (max as number);
    misses.push({ field: name, current: Number(cur), edit: edit.text, result, bound, clamped });
    if (opts.clamp) values[name] = clamped;
  }
  return { values, misses };
}

/** Describe an edit for plans and help (`+10%`, `*1.1`, `55`). */
export function describeNumericEdit(edit: NumericEdit): string {
  return edit.text;
}

export interface SplitValues {
  /** Values to set as given (still to be checked against the contract). */
  absolute: Record<string, unknown>;
  /** Relative edits of integer fields, by wire name. */
  relative: Map<string, NumericEdit>;
}

/**
 * Split gathered edit values (wire names, as `--set` and the field flags give
 * them) into absolute values and relative edits: a text value of an
 * `integer` field that starts with `+`, `-` or `*` is relative (and must
 * parse, else UsageError); everything else is absolute.
 */
export function splitRelative(
  values: Record<string, unknown>,
  specs: readonly ParamSpec[] = VEHICLE_FIELDS,
  /** The fields whose value may be relative (those given by a field flag; `--set` and files are absolute). */
  mayBeRelative?: ReadonlySet<string>,
): SplitValues {
  const bySpec = specIndex(specs);
  const out: SplitValues = { absolute: {}, relative: new Map() };
  for (const [name, v] of Object.entries(values)) {
    if (
      bySpec.get(name)?.type === "integer" &&
      typeof v === "string" &&
      isRelative(v) &&
      (mayBeRelative === undefined || mayBeRelative.has(name))
    ) {
      out.relative.set(name, parseNumericEdit(v, name));
    } else out.absolute[name] = v;
  }
  return out;
}

/** The values the relative edits give one record (`undefined` = the field has no value to change). */
export function applyRelative(
  relative: ReadonlyMap<string, NumericEdit>,
  input: Readonly<Record<string, unknown>>,
): Record<string, number | undefined> {
  const out: Record<string, number | undefined> = {};
  for (const [name, edit] of relative) {
    const cur = input[name];
    const n = typeof cur === "number" ? cur : typeof cur === "string" && /^\d+$/.test(cur) ? Number(cur) : undefined;
    const next = applyNumericEdit(edit, n);
    if (next !== undefined) out[name] = next;
  }
  return out;
}
