import { wireCalendar } from "./dates.js";
import type { ParamSpec } from "./types.js";

/**
 * What a person writes, in the contract's wire form: client side only (flags,
 * `--set`, `--from-file`, fleet files, the wizard). The sandbox never applies
 * it: it checks what arrives on the wire exactly as the contract states.
 *
 * - `vehicle_availability_calendar`: dates in either form the tool accepts
 *   (ISO `2026-12-24` or `24.12.2026`, src/dates.ts), as a comma-separated
 *   string or a list in a file, become the wire's one string of `dd.mm.yyyy`.
 */
export function humanToWire(field: string, value: unknown): unknown {
  if (field === "vehicle_availability_calendar" && value !== "" && value !== null && value !== undefined)
    return wireCalendar(value);
  return value;
}

/** Every member of a record in wire form (see humanToWire), in place. */
export function recordToWire(values: Record<string, unknown>): void {
  // humanToWire changes only these (this runs for every row of a fleet file)
  for (const k of HUMAN_FIELDS) {
    if (!(k in values)) continue;
    const v = values[k];
    const w = humanToWire(k, v);
    if (w !== v) values[k] = w;
  }
}

/** The fields humanToWire converts (never taken as written). */
export const HUMAN_FIELDS: ReadonlySet<string> = new Set(["vehicle_availability_calendar"]);

const INTEGER_SPECS = new WeakMap<readonly ParamSpec[], Map<string, ParamSpec>>();

/** The integer fields of a field table by name (built once per table). */
function integerSpecs(specs: readonly ParamSpec[]): Map<string, ParamSpec> {
  let m = INTEGER_SPECS.get(specs);
  if (!m) {
    m = new Map(specs.filter((s) => s.type === "integer" || s.type === "integer[]").map((s) => [s.name, s]));
    INTEGER_SPECS.set(specs, m);
  }
  return m;
}

/** `+5`, `*1.1`, `10%`: a relative form, which only the field flags of `vehicle edit` take. */
const RELATIVE_FORM = /^\s*(\+\d+(\.\d+)?%?|-\d+(\.\d+)?%|\*\d+(\.\d+)?|\d+(\.\d+)?%)\s*$/;

/**
 * Relative forms where values are absolute (files, `--from-file`): refused by
 * name rather than read as another number (`"+5"` is not 5).
 */
export function relativeFormProblems(
  values: Readonly<Record<string, unknown>>,
  specs: readonly ParamSpec[],
): Array<{ field: string; message: string }> {
  const out: Array<{ field: string; message: string }> = [];
  // the row's members (a few) rather than every field of the table: this runs for every row of a fleet file
  const integers = integerSpecs(specs);
  for (const name in values) {
    const spec = integers.get(name);
    if (!spec) continue;
    const v = values[name];
    const bad = Array.isArray(v)
      ? v.find((m) => typeof m === "string" && RELATIVE_FORM.test(m))
      : typeof v === "string" && RELATIVE_FORM.test(v)
        ? v
        : undefined;
    if (bad !== undefined)
      out.push({
        field: spec.name,
        message: `${JSON.stringify(bad)} is a relative change; files take absolute values (relative ones only in the field flags of vehicle edit)`,
      });
  }
  return out;
}
