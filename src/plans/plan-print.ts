import type { Json, JsonObject } from "../contract/records.js";
import type { WireValue } from "../contract/validate.js";
import { parseStoredCalendar, serializeCalendar } from "./calendar.js";
import { ARRAY_ORDER, type FieldChange, PLAN_FIELDS, type Plan } from "./plan.js";

/**
 * The plan as text, line by line (a generator, so commands can write each
 * line as it comes), and as data.
 *
 *   + AB-12-CD (row 4): vehicle_model_id 1001, price_per_day 45
 *   ~ AA-2-ZZ (vehicle 2)
 *       price_per_day: 50 → 55
 *       vehicle_benefits_id: +3 -1
 *   - AA-3-ZZ (vehicle 3)
 *   = AA-1-ZZ (vehicle 1)            (verbose only)
 *   Plan: 1 to create, 1 to change, 1 to remove, 1 unchanged.
 *
 * Set-like arrays (ARRAY_ORDER "set") and the calendar show added / removed
 * members; ordered arrays show the whole list before → after; text is quoted
 * and long text shortened; empty is `(empty)`.
 */

/** Colour functions (a chalk instance fits); without them the text is plain. */
export interface PlanColors {
  green(s: string): string;
  yellow(s: string): string;
  red(s: string): string;
  dim?(s: string): string;
}

export interface PlanPrintOptions {
  color?: PlanColors;
  /** List unchanged vehicles as `=` lines; with creates, every field instead of the main ones. */
  verbose?: boolean;
  /** A display name for a catalog value (pre-resolved, synchronous), shown beside the id. */
  label?: (field: string, value: number) => string | undefined;
}

/** Fields shown on a `+` line (when the row gives them). */
export const CREATE_MAIN_FIELDS = [
  "vehicle_model_id",
  "vehicle_segment_id",
  "vehicle_class_id",
  "vehicle_year_of_issue_id",
  "price_per_day",
  "vehicle_currency_id",
  "vehicle_activity",
  "pickup_location",
] as const;

const MAX_TEXT = 60;
const MAX_MEMBERS = 8;
const FIELD_ORDER = new Map(PLAN_FIELDS.map((f, i) => [f.name, i]));
const CATALOG_FIELDS = new Set(PLAN_FIELDS.filter((f) => f.catalog).map((f) => f.name));

const plain = (s: string) => s;

function scalarText(field: string, v: unknown, opts: PlanPrintOptions): string {
  if (typeof v === "number") {
    const name = CATALOG_FIELDS.has(field) ? opts.label?.(field, v) : undefined;
    return name ? `${v} (${name})` : String(v);
  }
  const s = String(v);
  const short = [...s].length > MAX_TEXT ? `${[...s].slice(0, MAX_TEXT - 1).join("")}…` : s;
  return JSON.stringify(short);
}

/** One value as shown in a plan. */
export function valueText(field: string, v: WireValue | null | undefined, opts: PlanPrintOptions = {}): string {
  if (v === null || v === undefined || v === "" || (Array.isArray(v) && v.length === 0)) return "(empty)";
  if (Array.isArray(v)) return `[${v.map((x) => scalarText(field, x, opts)).join(", ")}]`;
  return scalarText(field, v, opts);
}

function members(field: string, v: WireValue | null): string[] {
  if (v === null) return [];
  if (field === "vehicle_availability_calendar") {
    const cal = parseStoredCalendar(v);
    const s = serializeCalendar(cal);
    return s === "" ? [] : s.split(",");
  }
  return Array.isArray(v) ? v.map(String) : [String(v)];
}

function listed(items: string[], sign: string): string[] {
  const shown = items.slice(0, MAX_MEMBERS).map((x) => `${sign}${x}`);
  if (items.length > MAX_MEMBERS) shown.push(`(${sign}${items.length - MAX_MEMBERS} more)`);
  return shown;
}

/** The text of one field change, without the field name: `50 → 55`, `+3 -1`. */
export function changeText(field: string, change: FieldChange, opts: PlanPrintOptions = {}): string {
  const c = opts.color;
  const setLike = ARRAY_ORDER[field] === "set" || field === "vehicle_availability_calendar";
  if (setLike) {
    const before = members(field, change.from);
    const after = members(field, change.to);
    const added = [...new Set(after.filter((x) => !before.includes(x)))];
    const removed = [...new Set(before.filter((x) => !after.includes(x)))];
    const parts = [
      ...listed(added, "+").map((s) => (c ? c.green(s) : s)),
      ...listed(removed, "-").map((s) => (c ? c.red(s) : s)),
    ];
    if (parts.length) return parts.join(" ");
  }
  const from = valueText(field, change.from, opts);
  const to = valueText(field, change.to, opts);
  return c ? `${c.red(from)} → ${c.green(to)}` : `${from} → ${to}`;
}

function byContractOrder(a: string, b: string): number {
  return (FIELD_ORDER.get(a) ?? 999) - (FIELD_ORDER.get(b) ?? 999) || a.localeCompare(b);
}

const regText = (reg: string) => (reg === "" ? "(no registration number)" : reg);

/** The summary line. */
export function planSummary(plan: Plan): string {
  return `Plan: ${plan.create.length} to create, ${plan.change.length} to change, ${plan.remove.length} to remove, ${plan.unchanged} unchanged.`;
}

/** The plan as text lines (no newline characters), the summary last. */
export function* planLines(plan: Plan, opts: PlanPrintOptions = {}): Generator<string> {
  const c = opts.color;
  const green = c?.green ?? plain;
  const yellow = c?.yellow ?? plain;
  const red = c?.red ?? plain;
  const dim = c?.dim ?? plain;
  for (const cr of plan.create) {
    const names = Object.keys(cr.record)
      .filter((k) => k !== "vehicle_reg_number")
      .sort(byContractOrder);
    const main = opts.verbose ? [] : CREATE_MAIN_FIELDS.filter((k) => k in cr.record);
    const head = `+ ${regText(cr.reg)} (row ${cr.row})`;
    const summary = main.map((k) => `${k} ${valueText(k, cr.record[k], opts)}`).join(", ");
    yield green(summary ? `${head}: ${summary}` : head);
    if (opts.verbose) for (const k of names) yield `    ${k}: ${valueText(k, cr.record[k], opts)}`;
  }
  for (const ch of plan.change) {
    yield yellow(`~ ${regText(ch.reg)} (vehicle ${ch.vehicle_id})`);
    for (const k of Object.keys(ch.fields).sort(byContractOrder)) {
      yield `    ${k}: ${changeText(k, ch.fields[k] as FieldChange, opts)}`;
    }
  }
  for (const rm of plan.remove) yield red(`- ${regText(rm.reg)} (vehicle ${rm.vehicle_id})`);
  if (opts.verbose) for (const u of plan.unchangedList) yield dim(`= ${regText(u.reg)} (vehicle ${u.vehicle_id})`);
  yield planSummary(plan);
}

/** The plan as one text block (each line ending with a newline). */
export function planText(plan: Plan, opts: PlanPrintOptions = {}): string {
  let out = "";
  for (const line of planLines(plan, opts)) out += `${line}\n`;
  return out;
}

/** The plan as data: `{create, change: [{vehicle_id, reg, fields: {name: {from, to}}}], remove, unchanged}`. */
export function planJson(plan: Plan): JsonObject {
  return {
    create: plan.create.map((c) => ({ row: c.row, reg: c.reg, fields: c.record as JsonObject })),
    change: plan.change.map((c) => {
      const fields: JsonObject = {};
      for (const k of Object.keys(c.fields).sort(byContractOrder)) {
        const f = c.fields[k] as FieldChange;
        fields[k] = { from: f.from as Json, to: f.to as Json };
      }
      return { vehicle_id: c.vehicle_id, reg: c.reg, ...(c.row === undefined ? {} : { row: c.row }), fields };
    }),
    remove: plan.remove.map((r) => ({ vehicle_id: r.vehicle_id, reg: r.reg })),
    unchanged: plan.unchanged,
  };
}
