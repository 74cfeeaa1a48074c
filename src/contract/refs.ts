import type { ParamSpec } from "./types.js";
import { crossFieldProblems, isEmpty, type Problem, specIndex, validateRecord } from "./validate.js";

/**
 * Catalog references in a record, wherever it comes from (a file, `--set`, a
 * field flag, a fleet row): the one rule, decided here.
 *
 * - Ids as given. A number (or `id: N`) is an id and is sent as it is: the
 *   server is the judge of its ids (a catalog answer may be cached, per
 *   locale or simply lack an item the server accepts). No catalog is read to
 *   check an id.
 * - Names resolved. Only a name is looked up in its catalog (a number is a
 *   name only where the catalog's names are numbers: a year, `namesFrom`).
 * - Local checks first. Every rule that needs no server (required fields,
 *   types, text limits, ranges, fields that go in step) is checked before a
 *   catalog is read or anything is sent, and every such problem is listed at
 *   once: a network outage never hides a local mistake. A name counts as
 *   given here; what it resolves to is checked again before sending.
 */

const ID_FORM = /^\s*id:\s*(\d+)\s*$/i;

/**
 * What a reader makes of one member of a catalog field: undefined when it is
 * kept as it is (an id, or a value that is no name); an `id: N` form read as
 * N; or a name to look up in the field's catalog (`resolvable`). A number is
 * an id, except where the catalog's names are numbers (a year: ParamSpec.namesFrom).
 */
export function memberChange(
  given: unknown,
  namesFrom: number | undefined,
  resolvable: boolean,
): { id: number } | { name: string } | undefined {
  let v = given;
  if (typeof v === "number") {
    // an id below the catalog's first name-like number is an id (most members of most rows): no string made
    if (namesFrom === undefined || (Number.isSafeInteger(v) && v >= 0 && v < namesFrom)) return undefined;
    v = String(v);
  }
  if (typeof v !== "string") return undefined;
  const id = ID_FORM.exec(v);
  if (id) return { id: Number(id[1]) };
  if (/^\s*\d+\s*$/.test(v) && !(namesFrom !== undefined && Number(v) >= namesFrom)) return undefined;
  return resolvable ? { name: v } : undefined;
}

export interface LocalCheck {
  /** A create: every required field must be given (the client-filled ones, owner and locale, count as given). */
  create: boolean;
  /** Whether a field's names are looked up in a catalog (else a name in it is a type mistake). */
  resolvable: (field: string) => boolean;
  /** Values left to the caller's own rule: the relative forms (`+5`, `-10%`) the field flags of an edit take. */
  leave?: (field: string, value: unknown) => boolean;
}

/** A value that passes a field's own checks: stands for a name (resolved later) or a client-filled field. */
function stand(spec: ParamSpec): string | number {
  if (spec.type === "string" || spec.type === "string[]") return "x";
  const low = spec.min ?? 0;
  return spec.max !== undefined && spec.max < low ? spec.max : low;
}

/**
 * Every problem of a record that needs no server (see above), by field. Members
 * that are not fields of `specs` are left to the caller's own rule.
 */
export function localProblems(
  values: Readonly<Record<string, unknown>>,
  specs: readonly ParamSpec[],
  check: LocalCheck,
): Problem[] {
  const bySpec = specIndex(specs);
  const stood: Record<string, unknown> = {};
  for (const name in values) {
    const spec = bySpec.get(name);
    if (!spec) continue;
    const v = values[name];
    if (check.leave?.(name, v)) {
      stood[name] = stand(spec);
      continue;
    }
    const canResolve = check.resolvable(name);
    const one = (m: unknown): unknown => {
      const change = memberChange(m, spec.namesFrom, canResolve);
      if (!change) return m;
      return "id" in change ? change.id : stand(spec);
    };
    stood[name] = Array.isArray(v) ? v.map(one) : one(v);
  }
  if (check.create)
    for (const spec of specs)
      if (spec.clientFilled === true && isEmpty(stood[spec.name])) stood[spec.name] = stand(spec);
  const { record, problems } = validateRecord(stood, specs, { requireRequired: check.create, allowUnknown: true });
  problems.push(...crossFieldProblems(record));
  return problems;
}
