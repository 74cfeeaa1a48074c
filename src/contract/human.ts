import { wireCalendar } from "./dates.js";

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
