import { InputError, UsageError } from "../base/errors.js";
import { regKey, tidyReg } from "../contract/identity.js";
import { inputMember, type JsonObject, recordId, recordToInput } from "../contract/records.js";
import type { ParamSpec } from "../contract/types.js";
import { coerce, isEmpty, type WireRecord, type WireValue, wireAsIs } from "../contract/validate.js";
import { VEHICLE_EDITABLE_FIELDS } from "../contract/vehicle-fields.js";
import { normalizeCalendarValue } from "./calendar.js";
import { lookupField } from "./where.js";

/**
 * The plan of `vehicle diff` / `vehicle apply` (rows of a fleet file against
 * the account) and of selection edits (`edit --where`, relative values,
 * calendar changes): what to create, what to change field by field, what to
 * remove.
 *
 * Field semantics (for the README):
 * - A row manages only the fields it gives; fields it leaves out keep their
 *   current value and are not a difference. A field given empty (null, "",
 *   []) means "must be empty" (csv readers drop empty cells before this, so
 *   an empty csv cell stays "absent").
 * - `exact`: every optional field the row leaves out must be empty (the plan
 *   shows it being cleared). Required fields, `user_id` / `locale_id` (from
 *   the profile) and `vehicle_images` (ids belong to one account; a row that
 *   gives no images leaves them as they are) are never cleared this way.
 * - Values compare as the contract types them: `"50"` equals `50`, flag
 *   `"1"` equals `1`, empty equals absent.
 * - Array order: see ARRAY_ORDER. The availability calendar is a string on
 *   the wire but compares as a set of days (`2.1.2027,24.12.2026` equals
 *   `24.12.2026,02.01.2027`). `vehicle_reg_number` is the identity and
 *   compares as identities do (trimmed, case-insensitive): a file cannot
 *   change only the spelling of a registration number, except its spacing
 *   repaired: a row that gives exactly the vehicle's number tidied (`tidyReg`:
 *   no spaces at either end, single plain spaces) changes it to that
 *   (`lint --fix` of `registration-spacing`); a row's own stray spaces or
 *   another case change nothing.
 */

/** Whether the order of an array field's members is meaningful. */
export type ArrayOrder = "ordered" | "set";

/**
 * Per array field: `ordered` compares member by member in order, `set`
 * ignores order and repeats.
 * - vehicle_images: ordered (display order; the first image is the cover).
 * - vehicle_delivery_* / vehicle_delivery_return_* place/location/price:
 *   ordered (the three lists are positional: item i of each describes one
 *   delivery point).
 * - vehicle_benefits_id, vehicle_options_id, vehicle_payment_types,
 *   vehicle_extras: sets of ids (order carries no meaning).
 */
export const ARRAY_ORDER: Readonly<Record<string, ArrayOrder>> = {
  vehicle_images: "ordered",
  vehicle_delivery_address_fixed_place: "ordered",
  vehicle_delivery_address_fixed_location: "ordered",
  vehicle_delivery_address_fixed_price: "ordered",
  vehicle_delivery_return_fixed_place: "ordered",
  vehicle_delivery_return_fixed_location: "ordered",
  vehicle_delivery_return_fixed_price: "ordered",
  vehicle_benefits_id: "set",
  vehicle_options_id: "set",
  vehicle_payment_types: "set",
  vehicle_extras: "set",
};

/** Fields a plan manages: the vehicle input fields without those the profile fills in. */
export const PLAN_FIELDS: readonly ParamSpec[] = VEHICLE_EDITABLE_FIELDS;

/** Optional fields that `exact` never clears. */
export const EXACT_KEEPS: ReadonlySet<string> = new Set(["vehicle_images"]);

/** Row keys that are not fields and play no part in the plan (`images` paths are the command's business). */
export const NON_FIELD_ROW_KEYS: ReadonlySet<string> = new Set(["vehicle_id", "id", "images"]);

export interface FieldChange {
  from: WireValue | null;
  to: WireValue | null;
}

export interface PlanCreate {
  /** 1-based row number in the file. */
  row: number;
  reg: string;
  identity: string;
  /** The fields to send (the row's non-empty fields, wire-typed). */
  record: WireRecord;
}

export interface PlanChange {
  vehicle_id: number;
  reg: string;
  /** 1-based row number (diff/apply); undefined for selection edits. */
  row?: number;
  fields: Record<string, FieldChange>;
  /** The current input fields (wire-typed) the plan was made from. */
  before: WireRecord;
  /** The full record to send: `before` with the changes applied (cleared fields left out). */
  after: WireRecord;
  /** The server's record as listed, for the conflict check before sending. */
  record: JsonObject;
}

export interface PlanRemove {
  vehicle_id: number;
  reg: string;
  record: JsonObject;
}

export interface PlanUnchanged {
  vehicle_id: number;
  reg: string;
  row?: number;
}

export interface Plan {
  create: PlanCreate[];
  change: PlanChange[];
  remove: PlanRemove[];
  unchanged: number;
  unchangedList: PlanUnchanged[];
}

export interface PlanOptions {
  /** Absent optional fields must be empty. */
  exact?: boolean;
  /** Remove account vehicles that no row lists. */
  prune?: boolean;
  /** Treat empty values in rows as absent rather than "must be empty". */
  emptyIsAbsent?: boolean;
  /** false: count the unchanged rows without listing them (only `-v` prints them; memory stays flat). */
  listUnchanged?: boolean;
  /**
   * `exact` leaves `vehicle_extras` alone too (a fleet file's: `vehicle export`
   * writes those account-bound ids only with --with-ids, as `vehicle_images`).
   * An account file gives extras by identity (`extras:`), so there `--exact`
   * clears the extras of a row that leaves them out.
   */
  keepExtras?: boolean;
}

const SPEC_BY_NAME = new Map(PLAN_FIELDS.map((f) => [f.name, f]));

/** Canonical form of a value for comparison (null = empty). */
export function canonical(spec: ParamSpec | undefined, v: unknown): string {
  if (isEmpty(v)) return "null";
  if (spec?.name === "vehicle_availability_calendar") {
    const norm = normalizeCalendarValue(v);
    return norm === "" ? "null" : JSON.stringify(norm);
  }
  if (spec?.name === "vehicle_reg_number") return JSON.stringify(regKey(v));
  if (Array.isArray(v) && spec && ARRAY_ORDER[spec.name] === "set") {
    const uniq = [...new Set(v.map((x) => JSON.stringify(x)))].sort();
    return `[${uniq.join(",")}]`;
  }
  return JSON.stringify(v);
}

/** Do two values of a field compare equal under the contract's types? */
export function sameValue(spec: ParamSpec | undefined, a: unknown, b: unknown): boolean {
  // canonical and typed are pure: the same value (or the same members in the same order) compares equal
  // without either (the common case of a diff: a file row against the record it was exported from)
  if (a === b || (Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => x === b[i])))
    return true;
  // two sets (a row's extras against the record's, in another order): the same members either way
  if (spec && ARRAY_ORDER[spec.name] === "set" && isWireList(spec, a) && isWireList(spec, b))
    return a.every((x) => b.includes(x)) && b.every((x) => a.includes(x));
  return canonical(spec, typed(spec, a)) === canonical(spec, typed(spec, b));
}

/**
 * A registration number respaced: the row gives exactly the vehicle's number
 * tidied (the same identity, another text). The one spelling change a plan
 * makes to a registration (see the field semantics above).
 */
function respacesReg(spec: ParamSpec | undefined, from: unknown, to: unknown): boolean {
  return (
    spec?.name === "vehicle_reg_number" &&
    typeof from === "string" &&
    typeof to === "string" &&
    from !== to &&
    tidyReg(from) === to
  );
}

/**
 * Does the server hold this value already? sameValue, where a registration's
 * spacing counts too: the gateway's check before it sends (a respaced number
 * is a change to send, not "already done"; a number respaced since the plan
 * is a conflict).
 */
export function sameStored(spec: ParamSpec | undefined, a: unknown, b: unknown): boolean {
  return sameValue(spec, a, b) && !respacesReg(spec, a, b) && !respacesReg(spec, b, a);
}

/** A list already of its field's wire type: typed keeps it as it is, canonical tells its members apart as === does. */
function isWireList(spec: ParamSpec, v: unknown): v is unknown[] {
  return Array.isArray(v) && spec.type.endsWith("[]") && v.every((x) => isWireScalar(spec, x));
}

/** Whether a scalar already has the wire type of a field (what `coerce` would return for it is itself). */
function isWireScalar(spec: ParamSpec, v: unknown): boolean {
  if (spec.type === "string" || spec.type === "string[]") return typeof v === "string";
  return typeof v === "number" && Number.isSafeInteger(v);
}

/** Coerce a value to its wire type; values that do not coerce are kept as they are. */
function typed(spec: ParamSpec | undefined, v: unknown): WireValue | null {
  if (isEmpty(v)) return null;
  if (!spec) return v as WireValue;
  // Already wire-typed (a listed record's values): coerce would return it unchanged, or keep it for a
  // problem (a range), so it is returned as it is without the work (this runs for every field of every vehicle).
  if (
    Array.isArray(v)
      ? spec.type.endsWith("[]") && v.every((x) => isWireScalar(spec, x))
      : !spec.type.endsWith("[]") && isWireScalar(spec, v)
  )
    return v as WireValue;
  const r = coerce(spec, v);
  return r.problems.length || r.value === undefined ? (v as WireValue) : r.value;
}

/** The input fields of a listed record, wire-typed (values that do not coerce kept as stored). */
export function currentInput(record: JsonObject): WireRecord {
  const input = recordToInput(
    record,
    PLAN_FIELDS.map((f) => f.name),
  );
  const out: WireRecord = {};
  for (const [k, v] of Object.entries(input)) {
    const t = typed(SPEC_BY_NAME.get(k), v);
    if (t !== null) out[k] = t;
  }
  return out;
}

/**
 * A row's managed fields under wire names, wire-typed; `null` = must be empty.
 * Unknown keys and values that do not fit the contract are an InputError
 * naming the row (the file reader normally reports them first).
 */
export function rowFields(row: Record<string, unknown>, rowNumber: number, emptyIsAbsent = false) {
  const out: Record<string, WireValue | null> = {};
  const problems: { field: string; message: string }[] = [];
  // each problem names its row, as the file reader's do (an account plan lists them among others)
  const at = () => rowLabel(rowNumber, row);
  const bad = (field: string, message: string) => problems.push({ field: `${at()} ${field}`, message });
  for (const key in row) {
    const raw = row[key];
    if (NON_FIELD_ROW_KEYS.has(key)) continue;
    // mapped rows are keyed by wire name already; other names go through the aliases
    const spec = SPEC_BY_NAME.get(key) ?? lookupField(key, PLAN_FIELDS);
    if (!spec) {
      bad(key, "unknown field");
      continue;
    }
    if (isEmpty(raw)) {
      if (!emptyIsAbsent) out[spec.name] = null;
      continue;
    }
    const asIs = wireAsIs(spec, raw);
    if (asIs !== undefined) {
      out[spec.name] = asIs;
      continue;
    }
    const r = coerce(spec, raw);
    if (r.problems.length || r.value === undefined) {
      for (const m of r.problems) bad(spec.name, m);
      continue;
    }
    out[spec.name] = r.value;
  }
  if (problems.length) throw new InputError(`${at()}: invalid`, { details: problems });
  return out;
}

/** How a row is named in problems: `row 3 (B-SC 1001)`. */
export const rowLabel = (row: number, values: Record<string, unknown>) => {
  const reg = values.vehicle_reg_number;
  return `row ${row}${typeof reg === "string" && reg.trim() ? ` (${reg.trim()})` : ""}`;
};

function vehicleIdOf(record: JsonObject): number {
  const id = recordId(record, "vehicle");
  if (id === undefined) throw new InputError("a listed vehicle has no id");
  return id;
}

function regOf(record: Record<string, unknown>): string {
  const v = record.vehicle_reg_number;
  return v === undefined || v === null ? "" : String(v).trim();
}

/** Apply changes (null / empty = clear) over a record. */
export function applyFieldValues(base: WireRecord, changes: Record<string, unknown>): WireRecord {
  const next: WireRecord = { ...base };
  for (const [k, v] of Object.entries(changes)) {
    if (isEmpty(v)) delete next[k];
    else next[k] = v as WireValue;
  }
  return next;
}

/**
 * The changes a row makes to a listed record, compared field by field on the
 * record itself: the record's input (currentInput) is built only for a row
 * that changes something (a diff of an unchanged fleet compares each row's
 * fields and builds nothing).
 */
function recordChanges(
  record: JsonObject,
  desired: Record<string, WireValue | null>,
): Record<string, FieldChange> | undefined {
  let fields: Record<string, FieldChange> | undefined;
  for (const name in desired) {
    const v = inputMember(record, name);
    const to = desired[name];
    // the same value, as a row from an export has it: equal whatever the type (sameValue's first test)
    if (v === to && v !== undefined) continue;
    const spec = SPEC_BY_NAME.get(name);
    const from = v === undefined ? null : typed(spec, v);
    if (sameValue(spec, from, to) && !respacesReg(spec, from, to)) continue;
    fields ??= {};
    fields[name] = { from, to: isEmpty(to) ? null : (to as WireValue) };
  }
  return fields; // undefined: nothing changes (nothing made for an unchanged row)
}

function fieldChanges(before: WireRecord, desired: Record<string, WireValue | null>): Record<string, FieldChange> {
  const fields: Record<string, FieldChange> = {};
  for (const [name, to] of Object.entries(desired)) {
    const spec = SPEC_BY_NAME.get(name);
    const from = before[name] ?? null;
    if (!sameValue(spec, from, to) || respacesReg(spec, from, to)) fields[name] = { from, to: isEmpty(to) ? null : to };
  }
  return fields;
}

/**
 * The plan of a file's rows, one row at a time: the row's fields compared
 * with the account vehicle it matches (or a create), only what changes kept
 * whole. src/plans/sync.ts streamPlan feeds it rows as the file streams and
 * vehicles as the listing does.
 */
export class PlanBuilder {
  readonly plan: Plan = { create: [], change: [], remove: [], unchanged: 0, unchangedList: [] };
  readonly #seen = new Map<string, number>();
  readonly #opts: Pick<PlanOptions, "exact" | "emptyIsAbsent" | "listUnchanged" | "keepExtras">;

  constructor(opts: Pick<PlanOptions, "exact" | "emptyIsAbsent" | "listUnchanged" | "keepExtras">) {
    this.#opts = opts;
  }

  /** A row's managed fields, wire-typed (null: must be empty); an InputError names the row. */
  desired(row: Record<string, unknown>, n: number): Record<string, WireValue | null> {
    return rowFields(row, n, this.#opts.emptyIsAbsent);
  }

  /** Plan row `n` (its desired fields) under identity `key`, against `record` (undefined: a create). */
  add(
    n: number,
    desired: Record<string, WireValue | null>,
    key: string | undefined,
    record: JsonObject | undefined,
  ): PlanCreate | PlanChange | PlanUnchanged {
    const plan = this.plan;
    if (key === undefined) {
      throw new InputError(`row ${n}: no vehicle_reg_number`, {
        details: [{ field: "vehicle_reg_number", message: "required to match the row with a vehicle" }],
      });
    }
    const first = this.#seen.get(key);
    if (first !== undefined) {
      throw new InputError(
        `row ${Math.max(n, first)}: the same vehicle as row ${Math.min(n, first)} (${regOf(desired)})`,
        {
          hint: "each vehicle may appear once in a file",
        },
      );
    }
    this.#seen.set(key, n);
    if (!record) {
      const create: WireRecord = {};
      for (const [k, v] of Object.entries(desired)) if (v !== null) create[k] = v;
      const c = { row: n, reg: regOf(desired), identity: key, record: create };
      plan.create.push(c);
      return c;
    }
    const id = vehicleIdOf(record);
    if (this.#opts.exact) {
      for (const spec of PLAN_FIELDS) {
        if (spec.required === true || EXACT_KEEPS.has(spec.name) || spec.name in desired) continue;
        if (this.#opts.keepExtras && spec.name === "vehicle_extras") continue;
        desired[spec.name] = null;
      }
    }
    const fields = recordChanges(record, desired);
    if (!fields) {
      const u = { vehicle_id: id, reg: regOf(record), row: n };
      plan.unchanged++;
      if (this.#opts.listUnchanged !== false) plan.unchangedList.push(u);
      return u;
    }
    const before = currentInput(record);
    const c = {
      vehicle_id: id,
      reg: regOf(record),
      row: n,
      fields,
      before,
      after: applyFieldValues(before, desired),
      record,
    };
    plan.change.push(c);
    return c;
  }

  /** An unchanged row made a change (the command adds a field the plan did not compare: image files to attach). */
  unchangedToChange(u: PlanUnchanged, before: WireRecord, record: JsonObject): PlanChange {
    const i = this.plan.unchangedList.lastIndexOf(u);
    if (i >= 0) this.plan.unchangedList.splice(i, 1);
    this.plan.unchanged--;
    const c: PlanChange = {
      vehicle_id: u.vehicle_id,
      reg: u.reg,
      row: u.row,
      fields: {},
      before,
      after: { ...before },
      record,
    };
    this.plan.change.push(c);
    return c;
  }

  /** The vehicles no row matched, removed (in id order) when pruning. */
  prune(records: Iterable<JsonObject>): void {
    const out: PlanRemove[] = [];
    for (const r of records) out.push({ vehicle_id: vehicleIdOf(r), reg: regOf(r), record: r });
    out.sort((a, b) => a.vehicle_id - b.vehicle_id);
    this.plan.remove.push(...out);
  }

  /** The plan, its lists in file order (rows planned out of order, e.g. waiting for the listing, are put back in place). */
  finish(): Plan {
    const byRow = (a: { row?: number }, b: { row?: number }) => (a.row ?? 0) - (b.row ?? 0);
    this.plan.create.sort(byRow);
    this.plan.change.sort(byRow);
    this.plan.unchangedList.sort(byRow);
    return this.plan;
  }
}

/**
 * A selection edit: `change(input, record)` returns the fields to set
 * (null / empty clears; values are coerced to wire types) or undefined for no
 * change. Produces the same change shape as a file's plan (no creates or
 * removals). Records keep their given order.
 */
export function planEdit(
  records: readonly JsonObject[],
  change: (input: WireRecord, record: JsonObject) => Record<string, unknown> | undefined,
): Plan {
  const plan: Plan = { create: [], change: [], remove: [], unchanged: 0, unchangedList: [] };
  for (const record of records) {
    const id = vehicleIdOf(record);
    const before = currentInput(record);
    const wanted = change({ ...before }, record) ?? {};
    const desired: Record<string, WireValue | null> = {};
    for (const [k, v] of Object.entries(wanted)) {
      const spec = SPEC_BY_NAME.get(k);
      desired[k] = isEmpty(v) ? null : typed(spec, v);
    }
    const fields = fieldChanges(before, desired);
    if (Object.keys(fields).length === 0) {
      plan.unchanged++;
      plan.unchangedList.push({ vehicle_id: id, reg: regOf(record) });
      continue;
    }
    plan.change.push({
      vehicle_id: id,
      reg: regOf(record),
      fields,
      before,
      after: applyFieldValues(before, desired),
      record,
    });
  }
  return plan;
}

/** True when the plan has nothing to do (diff exits 0, else 8). */
export function planIsEmpty(plan: Plan): boolean {
  return plan.create.length === 0 && plan.change.length === 0 && plan.remove.length === 0;
}

/** Most vehicles a prune may remove without `--allow-mass-delete`. */
export const MASS_REMOVAL_LIMIT = 20;

/**
 * The mass-removal guard: the reason to refuse (print it, exit 2, send
 * nothing), or undefined when the removals may go ahead. Refuses, unless
 * `allowMassDelete`, when an empty file is applied with prune, or when the
 * plan removes more than half of the account's vehicles or more than 20.
 */
/** The error of an apply the mass-removal guard refuses (vehicle apply and account apply alike). */
export function massRemovalError(refusal: string): UsageError {
  return new UsageError(`refusing to apply: ${refusal}; nothing was sent`, {
    hint: "check the file (and --prune); pass --allow-mass-delete if these removals are intended",
  });
}

export function massRemovalRefusal(input: {
  removals: number;
  accountSize: number;
  rows: number;
  prune: boolean;
  allowMassDelete?: boolean;
  /** An account file's extras section (when it is managed): deletions by --prune, the account's extras, the file's rows. */
  extras?: { removals: number; accountSize: number; rows: number };
}): string | undefined {
  if (!input.prune || input.allowMassDelete) return undefined;
  const guard = (noun: string, removals: number, accountSize: number, rows: number) => {
    if (removals === 0) return undefined;
    const all = `${removals} of the account's ${accountSize} ${noun}${accountSize === 1 ? "" : "s"}`;
    if (rows === 0) return `the file lists no ${noun}s: --prune would remove ${all}`;
    if (removals > MASS_REMOVAL_LIMIT) return `--prune would remove ${all} (more than ${MASS_REMOVAL_LIMIT})`;
    if (removals * 2 > accountSize) return `--prune would remove ${all} (more than half)`;
    return undefined;
  };
  const vehicles =
    input.rows === 0
      ? `the file lists no vehicles: --prune would remove ${input.removals} of the account's ${input.accountSize} vehicle${input.accountSize === 1 ? "" : "s"}`
      : guard("vehicle", input.removals, input.accountSize, input.rows);
  const extras = input.extras && guard("extra", input.extras.removals, input.extras.accountSize, input.extras.rows);
  return vehicles && extras ? `${vehicles}, and ${extras.replace(/^--prune would /, "")}` : (vehicles ?? extras);
}
