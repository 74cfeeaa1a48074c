import { regKey, tidyReg } from "../../contract/identity.js";
import { crossFieldProblems, isEmpty, type Problem, validateRecord } from "../../contract/validate.js";
import { VEHICLE_EDITABLE_FIELDS, VEHICLE_FIELDS } from "../../contract/vehicle-fields.js";
import { clearPast, parseStoredCalendar, serializeCalendar } from "../../plans/calendar.js";

/**
 * The rules of `rentctl lint`: pure functions over the account's records
 * (vehicles and extras), the years catalog and the configuration. Each rule
 * has a stable id, a category, a default severity and, where one safe change
 * repairs it, a fix (a field's new value). The contract rules run the same
 * validation the create and edit checks run (src/contract/validate.ts).
 */

export const SEVERITIES = ["info", "warning", "error"] as const;
export type Severity = (typeof SEVERITIES)[number];
export const severityRank = (s: Severity): number => SEVERITIES.indexOf(s);

export type Category = "contract" | "consistency" | "quality";

export interface RuleInfo {
  id: string;
  category: Category;
  severity: Severity;
  /** What it checks (one line). */
  what: string;
  /** Why it matters (one line). */
  why: string;
  /** Thresholds a config may change, with their defaults. */
  options?: Readonly<Record<string, number>>;
  /** `lint --fix` repairs it. */
  fixable?: boolean;
}

/** Every rule, in the order of the README's table. */
export const RULES: readonly RuleInfo[] = [
  {
    id: "required-field",
    category: "contract",
    severity: "error",
    what: "a field the contract requires is missing",
    why: "the marketplace refuses the listing (create and edit check the same)",
  },
  {
    id: "invalid-value",
    category: "contract",
    severity: "error",
    what: "a value of the wrong type, out of its range, not 0/1, an unknown name or key",
    why: "the marketplace refuses the listing (create and edit check the same)",
  },
  {
    id: "text-too-long",
    category: "contract",
    severity: "error",
    what: "a text over its limit (5000 characters for descriptions)",
    why: "the marketplace refuses the listing",
  },
  {
    id: "delivery-prices",
    category: "contract",
    severity: "error",
    what: "delivery / return places and locations without one price each",
    why: "the marketplace refuses the listing; a customer cannot be quoted a delivery",
  },
  {
    id: "price-rises",
    category: "consistency",
    severity: "warning",
    what: "a per-day price for a longer rental above the one for a shorter rental (3 days above 1, week above 3 days, 14 days above week)",
    why: "customers pay more per day for renting longer: almost always a typo",
  },
  {
    id: "deposit-mismatch",
    category: "consistency",
    severity: "warning",
    what: "a deposit amount with no deposit taken, or a deposit taken with no amount",
    why: "customers see a deposit that is not charged, or a deposit of 0",
  },
  {
    id: "duplicate-vin",
    category: "consistency",
    severity: "warning",
    what: "the same VIN on two or more vehicles",
    why: "one car listed twice can be booked twice",
  },
  {
    id: "duplicate-registration",
    category: "consistency",
    severity: "warning",
    what: "the same registration number (and country) on two or more vehicles",
    why: "one car listed twice can be booked twice; files and handles cannot tell them apart",
  },
  {
    id: "minimum-age",
    category: "consistency",
    severity: "warning",
    what: "a minimum renter age under 18",
    why: "no one under 18 may drive a rental car",
    options: { min_age: 18 },
  },
  {
    id: "driving-experience",
    category: "consistency",
    severity: "warning",
    what: "more years of driving experience asked than the minimum age allows (age minus 18)",
    why: "no renter of the minimum age can meet it: the age limit is wrong, or the experience",
    options: { licence_age: 18 },
  },
  {
    id: "future-year",
    category: "consistency",
    severity: "warning",
    what: "a year of issue after the current year",
    why: "a car cannot be built in the future: a wrong year misleads customers and search filters",
  },
  {
    id: "past-calendar-dates",
    category: "consistency",
    severity: "warning",
    what: "blocked calendar dates in the past",
    why: "dead entries hide the dates that matter and grow the record",
    fixable: true,
  },
  {
    id: "calendar-blocked",
    category: "consistency",
    severity: "warning",
    what: "an active vehicle whose calendar blocks every day of the next 30",
    why: "it is listed as active but cannot be rented",
    options: { days: 30 },
  },
  {
    id: "registration-spacing",
    category: "consistency",
    severity: "warning",
    what: "a registration number with spaces at either end, runs of spaces or unusual spaces",
    why: "customers and staff compare plates by eye; rentctl matches them, other tools may not",
    fixable: true,
  },
  {
    id: "no-images",
    category: "quality",
    severity: "info",
    what: "an active vehicle without images",
    why: "listings without photos rarely rent",
  },
  {
    id: "short-description",
    category: "quality",
    severity: "info",
    what: "a description shorter than 80 characters (or none)",
    why: "customers choose on the description; a short one says little",
    options: { min_length: 80 },
  },
  {
    id: "duplicate-description",
    category: "quality",
    severity: "info",
    what: "the same description on 3 or more vehicles",
    why: "copied text tells customers nothing about this car",
    options: { min_vehicles: 3 },
  },
  {
    id: "text-whitespace",
    category: "quality",
    severity: "info",
    what: "a text field with spaces or line breaks at either end",
    why: "stray whitespace shows in the listing and breaks comparisons",
    fixable: true,
  },
  {
    id: "unused-extra",
    category: "quality",
    severity: "info",
    what: "an extra attached to no vehicle",
    why: "no customer can book it",
  },
  {
    id: "free-extra",
    category: "quality",
    severity: "info",
    what: "an extra with price 0",
    why: "usually a price left out; if it is free, say so in the description",
  },
  {
    id: "inactive-complete",
    category: "quality",
    severity: "info",
    what: "an inactive vehicle with a complete listing (images and a description)",
    why: "it looks ready to rent: was it switched off by mistake?",
  },
];

export const RULE_IDS: readonly string[] = RULES.map((r) => r.id);
export const RULE_BY_ID: ReadonlyMap<string, RuleInfo> = new Map(RULES.map((r) => [r.id, r]));

/** A rule as configured: on or off, its severity, its thresholds. */
export interface RuleSetting {
  enabled: boolean;
  severity: Severity;
  options: Readonly<Record<string, number>>;
}

export type RuleSettings = ReadonlyMap<string, RuleSetting>;

/** Every rule with its defaults. */
export function defaultSettings(): Map<string, RuleSetting> {
  return new Map(RULES.map((r) => [r.id, { enabled: true, severity: r.severity, options: { ...r.options } }]));
}

/** A vehicle as the rules read it. */
export interface LintVehicle {
  /** 1-based: the row of a file, or the position in the listing. */
  row: number;
  id?: number;
  /** Wire names; catalog names resolved to ids; values as stored or written (not coerced). */
  values: Record<string, unknown>;
  /** Problems found reading the row (unknown keys, unknown catalog names): invalid-value findings. */
  readProblems?: readonly Problem[];
  /** The extras it references (keys of LintExtra). */
  extraKeys: readonly string[];
  /** A file row's `images:` paths (counted as images). */
  imageFiles?: number;
}

/** An extra as the rules read it. */
export interface LintExtra {
  row: number;
  id?: number;
  /** What vehicles reference it by: `id:N` (its id), `option/period` (a file's identity). */
  keys: readonly string[];
  /** `Child seat (period 1)`. */
  label: string;
  price?: number;
  readProblems?: readonly Problem[];
}

export interface LintData {
  vehicles: readonly LintVehicle[];
  /** undefined: the input says nothing of extras (a fleet file). */
  extras?: readonly LintExtra[];
  /** Year-of-issue catalog: id -> year. */
  years: ReadonlyMap<number, number>;
  /** Today, ISO `YYYY-MM-DD` (the clock of the context). */
  today: string;
  /** The input gives images (a live account, or a file with vehicle_images / images somewhere). */
  imagesKnown: boolean;
}

/** What a rule found, before it is named (the op adds the vehicle's registration and model). */
export interface RawFinding {
  rule: string;
  /** Index into data.vehicles, or undefined for an extra's finding. */
  vehicle?: number;
  /** Index into data.extras. */
  extra?: number;
  field?: string;
  /** What is wrong, after the subject and field (`is required`). */
  text: string;
  /** The one safe change that repairs it. */
  fix?: { field: string; value: unknown };
}

/** The fields a listing gives: the owner and locale are filled by rentctl on every write, never the listing's defect. */
const LISTING_FIELDS = VEHICLE_EDITABLE_FIELDS;
const PRICE_TIERS = ["price_per_day", "price_per_3days", "price_per_week", "price_per_14days"] as const;
const TEXT_FIELDS = VEHICLE_FIELDS.filter(
  (f) => (f.type === "string" || f.type === "string[]") && f.name !== "vehicle_reg_number",
).map((f) => f.name);

const num = (v: unknown): number | undefined => {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string" && /^\s*-?\d+\s*$/.test(v)) return Number(v);
  return undefined;
};
const text = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const isActive = (v: LintVehicle) => num(v.values.vehicle_activity) === 1;
const hasImages = (v: LintVehicle) => !isEmpty(v.values.vehicle_images) || (v.imageFiles ?? 0) > 0;
const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? "" : "s"}`;

/** The contract's findings of one vehicle: the checks of `vehicle create` (validateRecord, crossFieldProblems). */
function contractFindings(v: LintVehicle, i: number, out: RawFinding[]): void {
  for (const p of v.readProblems ?? [])
    out.push({ rule: "invalid-value", vehicle: i, field: p.field, text: p.message });
  const { record, problems } = validateRecord(v.values, LISTING_FIELDS, { requireRequired: true, allowUnknown: true });
  problems.push(...crossFieldProblems(record));
  for (const p of problems) out.push({ rule: contractRule(p), vehicle: i, field: p.field, text: p.message });
}

function contractRule(p: Problem): string {
  if (p.message === "is required") return "required-field";
  if (p.field.startsWith("vehicle_delivery_") && p.message.startsWith("needs one price")) return "delivery-prices";
  if (/^must be at most \d+ characters/.test(p.message)) return "text-too-long";
  return "invalid-value";
}

/** Indexes of vehicles by a key (a VIN, a registration, a description). */
class KeyGroups {
  readonly #by = new Map<string, number[]>();
  add(key: string | undefined, i: number): void {
    if (key === undefined) return;
    const list = this.#by.get(key);
    if (list) list.push(i);
    else this.#by.set(key, [i]);
  }
  /** The groups of `min` or more. */
  groups(min: number): number[][] {
    return [...this.#by.values()].filter((l) => l.length >= min);
  }
}

/** What the findings of a vehicle need once its values are let go. */
export interface VehicleRef {
  row: number;
  id?: number;
  registration?: string;
  country?: unknown;
  modelId?: unknown;
  segmentId?: unknown;
}

function refOf(v: LintVehicle): VehicleRef {
  const reg = v.values.vehicle_reg_number;
  return {
    row: v.row,
    id: v.id,
    registration: typeof reg === "string" || typeof reg === "number" ? String(reg) : undefined,
    country: v.values.vehicle_reg_number_country,
    modelId: v.values.vehicle_model_id,
    segmentId: v.values.vehicle_segment_id,
  };
}

const regOf = (v: VehicleRef) => v.registration?.trim() || `row ${v.row}`;

/** Add `days` to an ISO day. */
function addDays(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Run every enabled rule; findings in input order (vehicles, then extras). */
export function runRules(data: LintData, settings: RuleSettings): RawFinding[] {
  const run = startRules(data, settings);
  for (const v of data.vehicles) run.add(v);
  return run.finish(data.extras);
}

/**
 * The rules over vehicles handed one at a time (a listing streams: each
 * vehicle's values are let go once checked; the rules over several vehicles
 * keep only their keys), then the extras.
 */
export interface RuleRun {
  add(v: LintVehicle): void;
  /** The findings, vehicles' first (in the order added), then the extras'. */
  finish(extras?: readonly LintExtra[]): RawFinding[];
  /** The vehicles added, by the index findings give. */
  readonly vehicles: readonly VehicleRef[];
}

export function startRules(data: Omit<LintData, "vehicles" | "extras">, settings: RuleSettings): RuleRun {
  const on = (id: string) => settings.get(id)?.enabled !== false;
  const opt = (id: string, name: string) => settings.get(id)?.options[name] ?? RULE_BY_ID.get(id)!.options![name]!;
  const out: RawFinding[] = [];
  const vehicles: VehicleRef[] = [];
  const vins = new KeyGroups();
  const regs = new KeyGroups();
  const descriptions = new KeyGroups();
  const used = new Set<string>();
  /** The other members of a group, named (at most three: a group may be the whole account). */
  const others = (g: number[], i: number, name: (v: VehicleRef) => string) => {
    const rest = g.filter((j) => j !== i);
    const shown = rest.slice(0, 3).map((j) => name(vehicles[j]!));
    return `${rest.length === 1 ? "" : `${rest.length} other vehicles: `}${shown.join(", ")}${rest.length > 3 ? ", …" : ""}`;
  };
  const year = Number(data.today.slice(0, 4));
  const minLength = opt("short-description", "min_length");
  const blockDays = opt("calendar-blocked", "days");

  const add = (v: LintVehicle) => {
    const i = vehicles.length;
    vehicles.push(refOf(v));
    const val = v.values;
    contractFindings(v, i, out);
    for (const k of v.extraKeys) used.add(k);
    vins.add(text(val.vehicle_vin)?.trim().toUpperCase() || undefined, i);
    const regValue = val.vehicle_reg_number;
    const rk = regValue === undefined || regValue === null ? "" : regKey(regValue);
    regs.add(rk ? `${rk}|${val.vehicle_reg_number_country ?? ""}` : undefined, i);
    descriptions.add(text(val.vehicle_description)?.trim().replace(/\s+/g, " ").toLowerCase() || undefined, i);

    if (on("price-rises"))
      for (let t = 1; t < PRICE_TIERS.length; t++) {
        const lo = num(val[PRICE_TIERS[t - 1]!]);
        const hi = num(val[PRICE_TIERS[t]!]);
        if (lo !== undefined && hi !== undefined && hi > lo)
          out.push({
            rule: "price-rises",
            vehicle: i,
            field: PRICE_TIERS[t],
            text: `${hi} per day is above ${PRICE_TIERS[t - 1]} ${lo}: a longer rental costs more per day`,
          });
      }

    if (on("deposit-mismatch")) {
      const taken = num(val.vehicle_protection_plans_no_deposit);
      const amount = num(val.vehicle_protection_plans_deposit_price) ?? 0;
      if (taken === 0 && amount > 0)
        out.push({
          rule: "deposit-mismatch",
          vehicle: i,
          field: "vehicle_protection_plans_deposit_price",
          text: `a deposit of ${amount} with no deposit taken (vehicle_protection_plans_no_deposit 0)`,
        });
      else if (taken === 1 && amount === 0)
        out.push({
          rule: "deposit-mismatch",
          vehicle: i,
          field: "vehicle_protection_plans_no_deposit",
          text: "a deposit is taken (1) but its amount is 0",
        });
    }

    const age = num(val.vehicle_minimal_age_to_rent);
    if (on("minimum-age") && age !== undefined && age < opt("minimum-age", "min_age"))
      out.push({
        rule: "minimum-age",
        vehicle: i,
        field: "vehicle_minimal_age_to_rent",
        text: `${age} is under ${opt("minimum-age", "min_age")}`,
      });
    const exp = num(val.vehicle_drivers_experience);
    const licence = opt("driving-experience", "licence_age");
    if (on("driving-experience") && age !== undefined && exp !== undefined && exp > Math.max(0, age - licence))
      out.push({
        rule: "driving-experience",
        vehicle: i,
        field: "vehicle_drivers_experience",
        text: `${plural(exp, "year")} asked, but a renter of the minimum age ${age} can have at most ${Math.max(0, age - licence)}`,
      });

    const yearId = num(val.vehicle_year_of_issue_id);
    const built = yearId === undefined ? undefined : data.years.get(yearId);
    if (on("future-year") && built !== undefined && built > year)
      out.push({
        rule: "future-year",
        vehicle: i,
        field: "vehicle_year_of_issue_id",
        text: `${built} is after this year (${year})`,
      });

    const calValue = val.vehicle_availability_calendar;
    if (!isEmpty(calValue) && (on("past-calendar-dates") || on("calendar-blocked"))) {
      const cal = parseStoredCalendar(calValue);
      const past = cal.dates.filter((d) => d < data.today);
      if (on("past-calendar-dates") && past.length)
        out.push({
          rule: "past-calendar-dates",
          vehicle: i,
          field: "vehicle_availability_calendar",
          text: `${plural(past.length, "blocked date")} in the past (${past[0]}${past.length > 1 ? ` … ${past[past.length - 1]}` : ""})`,
          fix: { field: "vehicle_availability_calendar", value: serializeCalendar(clearPast(cal, data.today)) },
        });
      if (on("calendar-blocked") && isActive(v)) {
        const blocked = new Set(cal.dates);
        let all = blockDays > 0;
        for (let d = 0; d < blockDays && all; d++) if (!blocked.has(addDays(data.today, d))) all = false;
        if (all)
          out.push({
            rule: "calendar-blocked",
            vehicle: i,
            field: "vehicle_availability_calendar",
            text: `active, but every day of the next ${blockDays} is blocked`,
          });
      }
    }

    const reg = text(val.vehicle_reg_number);
    const tidy = reg && tidyReg(reg);
    if (on("registration-spacing") && reg && tidy && tidy !== reg)
      out.push({
        rule: "registration-spacing",
        vehicle: i,
        field: "vehicle_reg_number",
        text: `${JSON.stringify(reg)} is written with stray spaces (${JSON.stringify(tidy)})`,
        // a plan respaces a registration only to exactly this (src/plans/plan.ts)
        fix: { field: "vehicle_reg_number", value: tidy },
      });

    if (on("no-images") && data.imagesKnown && isActive(v) && !hasImages(v))
      out.push({ rule: "no-images", vehicle: i, field: "vehicle_images", text: "active, but has no images" });

    const description = text(val.vehicle_description)?.trim() ?? "";
    if (on("short-description") && description.length < minLength)
      out.push({
        rule: "short-description",
        vehicle: i,
        field: "vehicle_description",
        text: description
          ? `${plural([...description].length, "character")}, under ${minLength}`
          : `no description (at least ${minLength} characters help a listing rent)`,
      });

    if (on("text-whitespace"))
      for (const f of TEXT_FIELDS) {
        const value = val[f];
        const trim = (s: unknown) => (typeof s === "string" ? s.trim() : s);
        const bad = Array.isArray(value)
          ? value.some((s) => typeof s === "string" && s !== s.trim())
          : typeof value === "string" && value !== value.trim() && value.trim() !== "";
        if (bad)
          out.push({
            rule: "text-whitespace",
            vehicle: i,
            field: f,
            text: "has spaces or line breaks at either end",
            fix: { field: f, value: Array.isArray(value) ? value.map(trim) : trim(value) },
          });
      }

    if (
      on("inactive-complete") &&
      num(val.vehicle_activity) === 0 &&
      (!data.imagesKnown || hasImages(v)) &&
      description.length >= minLength
    )
      out.push({
        rule: "inactive-complete",
        vehicle: i,
        field: "vehicle_activity",
        text: "inactive, but its listing is complete (images and a description)",
      });
  };

  const finish = (extras?: readonly LintExtra[]) => {
    if (on("duplicate-vin"))
      for (const g of vins.groups(2))
        for (const i of g)
          out.push({ rule: "duplicate-vin", vehicle: i, field: "vehicle_vin", text: `also on ${others(g, i, regOf)}` });

    if (on("duplicate-registration"))
      for (const g of regs.groups(2))
        for (const i of g)
          out.push({
            rule: "duplicate-registration",
            vehicle: i,
            field: "vehicle_reg_number",
            text: `also on ${others(g, i, (v) => (v.id !== undefined ? `id ${v.id}` : `row ${v.row}`))}`,
          });

    if (on("duplicate-description"))
      for (const g of descriptions.groups(opt("duplicate-description", "min_vehicles")))
        for (const i of g)
          out.push({
            rule: "duplicate-description",
            vehicle: i,
            field: "vehicle_description",
            text: `the same description is on ${plural(g.length, "vehicle")}`,
          });

    extras?.forEach((e, x) => {
      for (const p of e.readProblems ?? [])
        out.push({ rule: "invalid-value", extra: x, field: p.field, text: p.message });
      if (on("unused-extra") && e.keys.length && !e.keys.some((k) => used.has(k)))
        out.push({ rule: "unused-extra", extra: x, text: "is attached to no vehicle" });
      if (on("free-extra") && e.price === 0)
        out.push({ rule: "free-extra", extra: x, field: "price", text: "costs 0" });
    });
    // contract rules may be turned off or re-rated like the others
    return out.filter((f) => on(f.rule));
  };
  return { add, finish, vehicles };
}
