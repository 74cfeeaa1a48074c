import type { Finding } from "./lint.js";

/**
 * `lint --fix`: the findings that have one safe fix (past calendar dates
 * dropped, surrounding whitespace trimmed, a registration's spacing
 * normalised) as a fleet document, one row per vehicle with only the fields
 * that change, named by registration (and country). Planned like any account
 * file (`account diff --out`), it becomes a saved plan that `account apply
 * --plan` applies and `undo` reverts: lint itself changes nothing.
 *
 * A row names its vehicle by registration, and a plan matches a registration
 * on several vehicles to the first of them only: the fixes of such vehicles
 * (a `duplicate-registration` finding) are left out, as they could land on
 * the other vehicle.
 */
export interface FixDocument {
  vehicles: Record<string, unknown>[];
}

export function fixDocument(findings: readonly Finding[]): FixDocument {
  const rows = new Map<string, Record<string, unknown>>();
  for (const f of fixable(findings)) {
    const fix = f.fix!;
    const key = `${f.vehicle_id ?? ""}|${f.registration}|${fix.country ?? ""}`;
    let row = rows.get(key);
    if (!row) {
      row = { vehicle_reg_number: f.registration };
      if (fix.country !== undefined) row.vehicle_reg_number_country = fix.country;
      rows.set(key, row);
    }
    // the registration's own fix (its spacing) names the vehicle too: a plan matches it by identity
    row[fix.field] = fix.value;
  }
  return { vehicles: [...rows.values()] };
}

/** The findings a fix document repairs (with a fix, on a vehicle its registration alone names). */
export function fixable(findings: readonly Finding[]): Finding[] {
  const shared = sharedRegistrations(findings);
  return findings.filter((f) => f.fix && f.registration !== undefined && !shared.has(f.registration));
}

/** The findings with a fix left out: their registration is on more than one vehicle. */
export function unfixable(findings: readonly Finding[]): Finding[] {
  const shared = sharedRegistrations(findings);
  return findings.filter((f) => f.fix && f.registration !== undefined && shared.has(f.registration));
}

function sharedRegistrations(findings: readonly Finding[]): Set<string> {
  const out = new Set<string>();
  for (const f of findings)
    if (f.rule === "duplicate-registration" && f.registration !== undefined) out.add(f.registration);
  return out;
}
