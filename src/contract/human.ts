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
  for (const [k, v] of Object.entries(values)) {
    const w = humanToWire(k, v);
    if (w !== v) values[k] = w;
  }
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
  for (const spec of specs) {
    if (spec.type !== "integer" && spec.type !== "integer[]") continue;
    const v = values[spec.name];
    const bad = (Array.isArray(v) ? v : [v]).find((m) => typeof m === "string" && RELATIVE_FORM.test(m));
    if (bad !== undefined)
      out.push({
        field: spec.name,
        message: `${JSON.stringify(bad)} is a relative change; files take absolute values (relative ones only in the field flags of vehicle edit)`,
      });
  }
  return out;
}
