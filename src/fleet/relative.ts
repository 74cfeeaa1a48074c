import type { ParamSpec } from "../contract/types.js";
import { specIndex } from "../contract/validate.js";
import { VEHICLE_FIELDS } from "../contract/vehicle-fields.js";
import { UsageError } from "../errors.js";

/**
 * Relative values for integer fields on edit (`--price-per-day +10%`,
 * `--set price_per_day=*1.1`).
 *
 * Forms: `+5` / `-5` (add / subtract a whole number), `+10%` / `-12.5%`
 * (percentage), `*1.1` (factor), and a plain absolute whole number `55`.
 * Decision: an absolute value never carries a sign, so `-5` always means
 * "subtract 5" (the contract's integer fields are all >= 0 anyway).
 *
 * Results are computed exactly (decimal arithmetic, no floating point),
 * rounded half up to a whole number and never below 0. A relative change of a
 * field that has no value leaves it without a value (there is nothing to
 * change); an absolute value sets it.
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

/** a / b rounded half up, for a >= 0, b > 0. */
function roundHalfUp(a: bigint, b: bigint): bigint {
  return (2n * a + b) / (2n * b);
}

/**
 * The new value: rounded half up, never below 0. `undefined` when the edit is
 * relative and the field has no current value.
 */
export function applyNumericEdit(edit: NumericEdit, current: number | undefined): number | undefined {
  if (edit.kind === "absolute") return edit.value;
  if (current === undefined || !Number.isFinite(current)) return undefined;
  if (edit.kind === "add") return Math.max(0, current + edit.delta);
  const v = BigInt(Math.trunc(current));
  const product = v * edit.num;
  if (product <= 0n) return 0;
  return Number(roundHalfUp(product, edit.den));
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
): SplitValues {
  const bySpec = specIndex(specs);
  const out: SplitValues = { absolute: {}, relative: new Map() };
  for (const [name, v] of Object.entries(values)) {
    if (bySpec.get(name)?.type === "integer" && typeof v === "string" && isRelative(v)) {
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
