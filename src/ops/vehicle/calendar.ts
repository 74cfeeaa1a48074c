import { UsageError } from "../../base/errors.js";
import type { JsonObject } from "../../contract/records.js";
import { addMonths, daysInMonth, parseMonth, parseStoredCalendar, type YearMonth } from "../../plans/calendar.js";
import { fetchRecord, VEHICLE } from "../../resources/safe-edit.js";
import type { OpContext } from "../context.js";

/** What `vehicle calendar ID` shows: a window of months (from, months), or the whole record. */
export interface CalendarInput {
  id: number;
  /** First month, YYYY-MM (default: this month, by the context's clock). */
  from?: string;
  /** Months in the window, 1 to 24 (default 3). */
  months?: number;
}

/** The window of a calendar answer: its first and last day (ISO) and its months. */
export interface CalendarWindow {
  from: string;
  to: string;
  months: number;
}

export interface VehicleCalendar {
  vehicle_id: number;
  /** Blocked (unavailable) days, ISO, sorted; only the window's when a window was asked for. */
  blocked: string[];
  /** Stored entries that are no d.m.Y date (kept, never dropped; shown with a warning). */
  malformed?: string[];
  /** Present when `from` or `months` was given: the days `blocked` covers. */
  window?: CalendarWindow;
}

export const DEFAULT_CALENDAR_MONTHS = 3;
const MAX_CALENDAR_MONTHS = 24;

const iso = (ym: YearMonth, day: number) =>
  `${String(ym.year).padStart(4, "0")}-${String(ym.month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;

/** The window of `from` (YYYY-MM, default this month) and `months` (1 to 24, default 3). */
export function calendarWindow(
  ctx: Pick<OpContext, "now">,
  from?: string,
  months?: number,
): CalendarWindow & {
  first: YearMonth;
} {
  const n = months ?? DEFAULT_CALENDAR_MONTHS;
  if (!Number.isInteger(n) || n < 1 || n > MAX_CALENDAR_MONTHS)
    throw new UsageError(
      `months: expected a whole number from 1 to ${MAX_CALENDAR_MONTHS}, got ${JSON.stringify(months)}`,
    );
  const now = new Date(ctx.now());
  const first = from !== undefined ? parseMonth(from) : { year: now.getFullYear(), month: now.getMonth() + 1 };
  const last = addMonths(first, n - 1);
  return { first, from: iso(first, 1), to: iso(last, daysInMonth(last.year, last.month)), months: n };
}

/**
 * A vehicle's blocked days. With `from` or `months`, only the days of that
 * window, and the window in the answer; without either, every blocked day of
 * the record (the whole calendar, as before windows were asked for).
 */
export async function vehicleCalendar(ctx: OpContext, input: CalendarInput): Promise<VehicleCalendar> {
  const windowed = input.from !== undefined || input.months !== undefined;
  const w = windowed ? calendarWindow(ctx, input.from, input.months) : undefined; // checked before any request
  return calendarOf(await fetchRecord(ctx, VEHICLE, input.id), w);
}

/** A vehicle record's calendar answer, in a window or whole (the one shape every front end gives). */
export function calendarOf(record: JsonObject, w?: CalendarWindow): VehicleCalendar {
  const cal = parseStoredCalendar(record.vehicle_availability_calendar);
  const blocked = w ? cal.dates.filter((d) => d >= w.from && d <= w.to) : [...cal.dates];
  return {
    vehicle_id: Number(record.id),
    blocked,
    ...(cal.malformed.length ? { malformed: [...cal.malformed] } : {}),
    ...(w ? { window: { from: w.from, to: w.to, months: w.months } } : {}),
  };
}
