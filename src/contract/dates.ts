/**
 * THE date parser of what a person types, in one place (calendar ranges,
 * `--where available=…`, `--free-on`, `vehicle_availability_calendar` in
 * flags, `--set`, files and the wizard): ISO `2026-12-24` or the contract's
 * own `24.12.2026` (d.m.Y, day and month with or without a leading zero).
 * Dates are ISO inside the tool and in json; the wire gets the contract's
 * `dd.mm.yyyy` (wireDay). A text that is neither, or no real day
 * (31.02.2026), is not a date.
 */

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The ISO day of a year, month and day, or undefined when that is no real day. */
export function isoOf(y: number, m: number, d: number): string | undefined {
  if (y < 1 || y > 9999 || m < 1 || m > 12 || d < 1) return undefined;
  if (d > daysInMonth(y, m)) return undefined;
  return `${pad(y, 4)}-${pad(m)}-${pad(d)}`;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})$/;
/** The contract's d.m.Y (the same rule as AVAILABILITY_DATE, with the parts captured). */
const DMY = /^(0?[1-9]|[12]\d|3[01])\.(0?[1-9]|1[0-2])\.(\d{4})$/;

/** ISO `2026-12-24` or d.m.Y `24.12.2026` as the ISO day, or undefined. */
export function parseDay(text: string): string | undefined {
  const s = text.trim();
  const iso = ISO.exec(s);
  if (iso) return isoOf(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const dmy = DMY.exec(s);
  return dmy ? isoOf(Number(dmy[3]), Number(dmy[2]), Number(dmy[1])) : undefined;
}

/** An ISO day in the contract's wire form, `dd.mm.yyyy`. */
export function wireDay(iso: string): string {
  const [y, m, d] = iso.split("-");
  return `${d}.${m}.${y}`;
}

/**
 * A calendar value as a person gave it (a comma-separated string, or a list
 * in a file), each date in either form, as the wire's one string of
 * `dd.mm.yyyy`. An entry that is not a date stays as written, so that the
 * contract check names that one.
 */
export function wireCalendar(value: unknown): unknown {
  const entries = Array.isArray(value) ? value.map(String) : typeof value === "string" ? value.split(",") : undefined;
  if (!entries) return value;
  // each date that is one becomes the wire's form; one that is not stays as written, for the check to name
  return entries
    .map((e) => e.trim())
    .filter((e) => e !== "")
    .map((e) => {
      const day = parseDay(e);
      return day ? wireDay(day) : e;
    })
    .join(",");
}
