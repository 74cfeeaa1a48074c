import type { Finding } from "./lint.js";

/**
 * `lint --fix`: the findings that have one safe fix (past calendar dates
 * dropped, surrounding whitespace trimmed) as a fleet document, one row per
 * vehicle with only the fields that change, named by registration (and
 * country). Planned like any account file (`account diff --out`), it becomes
 * a saved plan that `account apply --plan` applies and `undo` reverts: lint
 * itself changes nothing.
 */
export interface FixDocument {
  vehicles: Record<string, unknown>[];
}

export function fixDocument(findings: readonly Finding[]): FixDocument {
  const rows = new Map<string, Record<string, unknown>>();
  for (const f of findings) {
    if (!f.fix || f.registration === undefined) continue;
    const key = `${f.vehicle_id ?? ""}|${f.registration}|${f.fix.country ?? ""}`;
    let row = rows.get(key);
    if (!row) {
      row = { vehicle_reg_number: f.registration };
      if (f.fix.country !== undefined) row.vehicle_reg_number_country = f.fix.country;
      rows.set(key, row);
    }
    row[f.fix.field] = f.fix.value;
  }
  return { vehicles: [...rows.values()] };
}

/** How many findings a fix document repairs. */
export const fixable = (findings: readonly Finding[]) => findings.filter((f) => f.fix && f.registration !== undefined);
