import { UsageError } from "../base/errors.js";
import { daysInMonth, isoOf, parseDay, wireDay } from "../contract/dates.js";
import { AVAILABILITY_DATE } from "../contract/vehicle-fields.js";

export { daysInMonth, parseDay };

/**
 * The availability calendar. On the wire `vehicle_availability_calendar` is
 * one string of comma-separated unavailable dates in PHP's `d.m.Y`
 * (`24.12.2026,25.12.2026`). Here it is a sorted set of ISO days
 * (`2026-12-24`) plus the stored entries that are not valid `d.m.Y` dates:
 * those are kept as they are (never dropped), reported as warnings and written
 * back after the valid dates.
 *
 * Input ranges: a day (`2026-12-24` or `24.12.2026`, read by the one date
 * parser in src/dates.ts), an inclusive span `2026-12-24..2026-12-26`, or a
 * whole month `2026-12`.
 */

export interface Calendar {
  /** Blocked days, ISO `YYYY-MM-DD`, sorted, unique. */
  dates: string[];
  /** Stored entries that are not valid `d.m.Y` dates, in their stored order. */
  malformed: string[];
}

export interface DateRange {
  /** First day, ISO. */
  from: string;
  /** Last day (inclusive), ISO. */
  to: string;
}

export interface YearMonth {
  year: number;
  /** 1-12 */
  month: number;
}

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

/** The ISO day of a Date in local time (today as the user sees it) or UTC. */
export function isoDay(date: Date, utc = false): string {
  return utc
    ? `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`
    : `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** One stored `d.m.Y` entry as an ISO day, or undefined when it is not a real date. */
export function parseStoredDate(entry: string): string | undefined {
  const s = entry.trim();
  if (!AVAILABILITY_DATE.test(s)) return undefined;
  const [d, m, y] = s.split(".").map(Number) as [number, number, number];
  return isoOf(y, m, d);
}

/** Read the stored value (a string; a list is accepted too). Empty pieces are not entries. */
export function parseStoredCalendar(value: unknown): Calendar {
  const pieces = Array.isArray(value)
    ? value.map((v) => String(v))
    : value === undefined || value === null
      ? []
      : String(value).split(",");
  const dates = new Set<string>();
  const malformed: string[] = [];
  for (const p of pieces) {
    const t = p.trim();
    if (t === "") continue;
    const iso = parseStoredDate(t);
    if (iso) dates.add(iso);
    else if (!malformed.includes(t)) malformed.push(t);
  }
  return { dates: [...dates].sort(), malformed };
}

/** A warning line for stored entries that are not `d.m.Y` dates, or undefined. */
export function malformedWarning(cal: Calendar, what = "calendar"): string | undefined {
  if (cal.malformed.length === 0) return undefined;
  const list = cal.malformed.map((m) => JSON.stringify(m)).join(", ");
  return `${what}: ${cal.malformed.length} stored ${cal.malformed.length === 1 ? "entry is" : "entries are"} not a d.m.Y date and ${cal.malformed.length === 1 ? "is" : "are"} kept as stored: ${list}`;
}

/** The wire value: valid dates sorted as `dd.mm.yyyy`, then the malformed entries as stored. */
export function serializeCalendar(cal: Calendar): string {
  return [...[...new Set(cal.dates)].sort().map(wireDay), ...cal.malformed].join(",");
}

/** The stored value in canonical form (for comparing two stored values: order and padding do not matter). */
export function normalizeCalendarValue(value: unknown): string {
  return serializeCalendar(parseStoredCalendar(value));
}

const MONTH = /^(\d{4})-(\d{2})$/;
/** Longest span accepted in one range (about ten years). */
const MAX_RANGE_DAYS = 3700;

function parseIsoDay(s: string, raw: string): string {
  const iso = parseDay(s);
  if (!iso) throw rangeError(raw, `${JSON.stringify(s)} is not a date`);
  return iso;
}

function rangeError(raw: string, why: string): UsageError {
  return new UsageError(`date range ${JSON.stringify(raw)}: ${why}`, {
    hint: "use dates as 2026-12-24 or 24.12.2026, ranges as 2026-12-24..2026-12-26, or 2026-12 (a whole month)",
  });
}

/** Parse `YYYY-MM` (a month). */
export function parseMonth(raw: string): YearMonth {
  const m = MONTH.exec(raw.trim());
  const year = Number(m?.[1]);
  const month = Number(m?.[2]);
  if (!m || month < 1 || month > 12 || year < 1) {
    throw new UsageError(`month ${JSON.stringify(raw)}: expected YYYY-MM, e.g. 2026-12`);
  }
  return { year, month };
}

/** Parse a RANGE: `2026-12-24`, `2026-12-24..2026-12-26` or `2026-12`. */
export function parseRange(raw: string): DateRange {
  const s = raw.trim();
  if (MONTH.test(s)) {
    let ym: YearMonth;
    try {
      ym = parseMonth(s);
    } catch {
      throw rangeError(raw, `${JSON.stringify(s)} is not a month`);
    }
    return {
      from: isoOf(ym.year, ym.month, 1) as string,
      to: isoOf(ym.year, ym.month, daysInMonth(ym.year, ym.month)) as string,
    };
  }
  const parts = s.split("..");
  if (parts.length === 1) {
    const d = parseIsoDay(s, raw);
    return { from: d, to: d };
  }
  if (parts.length !== 2) throw rangeError(raw, "expected FROM..TO");
  const from = parseIsoDay((parts[0] as string).trim(), raw);
  const to = parseIsoDay((parts[1] as string).trim(), raw);
  if (to < from) throw rangeError(raw, "ends before it starts");
  if (dayNumber(to) - dayNumber(from) >= MAX_RANGE_DAYS) throw rangeError(raw, "spans more than ten years");
  return { from, to };
}

function dayNumber(iso: string): number {
  const [y, m, d] = iso.split("-").map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d) / 86_400_000;
}

function isoOfDayNumber(n: number): string {
  return isoDay(new Date(n * 86_400_000), true);
}

/** Every day of a range, ISO, in order. */
export function daysOf(range: DateRange): string[] {
  const out: string[] = [];
  for (let n = dayNumber(range.from), end = dayNumber(range.to); n <= end; n++) out.push(isoOfDayNumber(n));
  return out;
}

/** Block every day of the ranges (malformed entries kept). */
export function blockRanges(cal: Calendar, ranges: readonly DateRange[]): Calendar {
  const set = new Set(cal.dates);
  for (const r of ranges) for (const d of daysOf(r)) set.add(d);
  return { dates: [...set].sort(), malformed: [...cal.malformed] };
}

/** Unblock every day of the ranges (malformed entries kept). */
export function unblockRanges(cal: Calendar, ranges: readonly DateRange[]): Calendar {
  return {
    dates: cal.dates.filter((d) => !ranges.some((r) => d >= r.from && d <= r.to)),
    malformed: [...cal.malformed],
  };
}

/** Drop the days before `today` (ISO); malformed entries are kept. */
export function clearPast(cal: Calendar, today: string): Calendar {
  return { dates: cal.dates.filter((d) => d >= today), malformed: [...cal.malformed] };
}

export interface CalendarEdit {
  block?: readonly DateRange[];
  unblock?: readonly DateRange[];
  /** ISO day: drop blocked days before it (`--clear-past`). */
  clearPastBefore?: string;
}

/**
 * Apply `--block`, `--unblock` and `--clear-past` to a stored value, in that
 * order (a day both blocked and unblocked ends unblocked). Returns the new
 * wire value ("" = no dates) and the calendar; malformed entries are kept.
 */
export function editCalendar(stored: unknown, edit: CalendarEdit): { value: string; calendar: Calendar } {
  let cal = parseStoredCalendar(stored);
  if (edit.block?.length) cal = blockRanges(cal, edit.block);
  if (edit.unblock?.length) cal = unblockRanges(cal, edit.unblock);
  if (edit.clearPastBefore) cal = clearPast(cal, edit.clearPastBefore);
  return { value: serializeCalendar(cal), calendar: cal };
}

/** The json form of `vehicle calendar`. `malformed` only when there are such entries. */
export function calendarJson(
  vehicleId: number,
  cal: Calendar,
): { vehicle_id: number; blocked: string[]; malformed?: string[] } {
  return cal.malformed.length
    ? { vehicle_id: vehicleId, blocked: [...cal.dates], malformed: [...cal.malformed] }
    : { vehicle_id: vehicleId, blocked: [...cal.dates] };
}

/** Colour for the grid: `blocked` paints a blocked day's number, `dim` the weekday header (optional). */
export interface CalendarColors {
  blocked(s: string): string;
  dim?(s: string): string;
}

export interface GridOptions {
  from: YearMonth;
  months: number;
  /** With colour, blocked days are painted; without, they are shown as `[24]`. */
  color?: CalendarColors;
}

const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
const WEEKDAYS = ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"];

/** The month `n` months after `ym`. */
export function addMonths(ym: YearMonth, n: number): YearMonth {
  const i = ym.year * 12 + (ym.month - 1) + n;
  return { year: Math.floor(i / 12), month: (i % 12) + 1 };
}

/**
 * Month grids, one below the other, weeks starting on Monday; each day is a
 * 4-character cell (` 24 `, blocked `[24]`). Ends with a legend line and the
 * number of blocked days shown. Returns lines (no newline characters).
 */
export function renderCalendarGrid(cal: Calendar, opts: GridOptions): string[] {
  const blocked = new Set(cal.dates);
  const c = opts.color;
  const lines: string[] = [];
  let shown = 0;
  for (let i = 0; i < opts.months; i++) {
    const { year, month } = addMonths(opts.from, i);
    if (i > 0) lines.push("");
    lines.push(` ${MONTH_NAMES[month - 1]} ${year}`);
    const header = WEEKDAYS.map((w) => ` ${w} `).join("");
    lines.push((c?.dim ? c.dim(header) : header).trimEnd());
    const first = (new Date(Date.UTC(year, month - 1, 1)).getUTCDay() + 6) % 7; // Monday = 0
    let cells: string[] = Array.from({ length: first }, () => "    ");
    const n = daysInMonth(year, month);
    for (let d = 1; d <= n; d++) {
      const iso = isoOf(year, month, d) as string;
      const num = String(d).padStart(2, " ");
      if (blocked.has(iso)) {
        shown++;
        cells.push(c ? ` ${c.blocked(num)} ` : `[${num}]`);
      } else cells.push(` ${num} `);
      if (cells.length === 7 || d === n) {
        lines.push(cells.join("").trimEnd());
        cells = [];
      }
    }
  }
  lines.push("");
  const sample = c ? c.blocked("24") : "[24]";
  lines.push(`${sample} blocked (unavailable); ${shown} blocked ${shown === 1 ? "day" : "days"} shown`);
  return lines;
}
