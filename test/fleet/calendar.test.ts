import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/base/errors.js";
import {
  addMonths,
  blockRanges,
  calendarJson,
  clearPast,
  daysOf,
  editCalendar,
  isoDay,
  malformedWarning,
  normalizeCalendarValue,
  parseMonth,
  parseRange,
  parseStoredCalendar,
  renderCalendarGrid,
  serializeCalendar,
  unblockRanges,
} from "../../src/plans/calendar.js";
import { planEdit } from "../../src/plans/plan.js";
import { planText } from "../../src/plans/plan-print.js";
import { expectGolden } from "./golden.js";

describe("stored calendar", () => {
  it("reads d.m.Y with or without leading zeros, sorted and de-duplicated", () => {
    const cal = parseStoredCalendar("25.12.2026, 24.12.2026,1.1.2027,,24.12.2026,01.01.2027");
    expect(cal).toEqual({ dates: ["2026-12-24", "2026-12-25", "2027-01-01"], malformed: [] });
    expect(serializeCalendar(cal)).toBe("24.12.2026,25.12.2026,01.01.2027");
    expect(parseStoredCalendar(undefined)).toEqual({ dates: [], malformed: [] });
    expect(parseStoredCalendar("")).toEqual({ dates: [], malformed: [] });
    expect(serializeCalendar(parseStoredCalendar(""))).toBe("");
  });

  it("keeps malformed entries (not d.m.Y, or not a real day), warns, and writes them back after the dates", () => {
    const cal = parseStoredCalendar("2026-12-24,31.02.2027,24.12.2026,soon");
    expect(cal).toEqual({ dates: ["2026-12-24"], malformed: ["2026-12-24", "31.02.2027", "soon"] });
    expect(malformedWarning(cal, "vehicle 7")).toBe(
      'vehicle 7: 3 stored entries are not a d.m.Y date and are kept as stored: "2026-12-24", "31.02.2027", "soon"',
    );
    expect(malformedWarning(parseStoredCalendar("1.1.2027"))).toBeUndefined();
    const blocked = blockRanges(cal, [parseRange("2026-12-25")]);
    expect(serializeCalendar(blocked)).toBe("24.12.2026,25.12.2026,2026-12-24,31.02.2027,soon");
    expect(serializeCalendar(clearPast(unblockRanges(blocked, [parseRange("2026-12")]), "2027-01-01"))).toBe(
      "2026-12-24,31.02.2027,soon",
    );
  });

  it("normalises stored values for comparison", () => {
    expect(normalizeCalendarValue("2.1.2027,24.12.2026")).toBe(normalizeCalendarValue("24.12.2026,02.01.2027"));
    expect(normalizeCalendarValue(["24.12.2026"])).toBe("24.12.2026");
  });
});

describe("ranges", () => {
  it("parses a day, a span and a month", () => {
    expect(parseRange("2026-12-24")).toEqual({ from: "2026-12-24", to: "2026-12-24" });
    expect(parseRange("2026-12-24..2026-12-26")).toEqual({ from: "2026-12-24", to: "2026-12-26" });
    expect(parseRange("2027-02")).toEqual({ from: "2027-02-01", to: "2027-02-28" });
    expect(parseRange("2028-02")).toEqual({ from: "2028-02-01", to: "2028-02-29" });
    expect(daysOf(parseRange("2026-12-30..2027-01-02"))).toEqual([
      "2026-12-30",
      "2026-12-31",
      "2027-01-01",
      "2027-01-02",
    ]);
  });

  it("dates: ISO or the contract's d.m.Y, one parser (parseDay); ranges may mix them", async () => {
    const { parseDay } = await import("../../src/plans/calendar.js");
    expect(parseDay("2026-12-24")).toBe("2026-12-24");
    expect(parseDay(" 24.12.2026 ")).toBe("2026-12-24");
    expect(parseDay("1.1.2027")).toBe("2027-01-01");
    expect(parseDay("31.02.2026")).toBeUndefined();
    expect(parseDay("12/24/2026")).toBeUndefined();
    expect(parseRange("24.12.2026")).toEqual({ from: "2026-12-24", to: "2026-12-24" });
    expect(parseRange("24.12.2026..2026-12-26")).toEqual({ from: "2026-12-24", to: "2026-12-26" });
  });

  it("anything else is a usage error", () => {
    for (const bad of [
      "31.02.2026",
      "12/24/2026",
      "2026-13",
      "2026-02-30",
      "2026-12-26..2026-12-24",
      "2026-12-24..",
      "2026-1-5",
      "2026-12-24..2026-12-25..2026-12-26",
      "tomorrow",
      "2020-01-01..2040-01-01",
    ]) {
      expect(() => parseRange(bad), bad).toThrow(UsageError);
    }
    expect(() => parseMonth("12-2026")).toThrow(UsageError);
  });

  it("block, unblock and clear-past produce the exact wire string", () => {
    let cal = parseStoredCalendar("01.11.2026");
    cal = blockRanges(cal, [parseRange("2026-12-24..2026-12-26"), parseRange("2026-12-25"), parseRange("2027-01-01")]);
    expect(serializeCalendar(cal)).toBe("01.11.2026,24.12.2026,25.12.2026,26.12.2026,01.01.2027");
    cal = unblockRanges(cal, [parseRange("2026-12-25")]);
    expect(serializeCalendar(cal)).toBe("01.11.2026,24.12.2026,26.12.2026,01.01.2027");
    cal = clearPast(cal, "2026-12-24");
    expect(serializeCalendar(cal)).toBe("24.12.2026,26.12.2026,01.01.2027");
    expect(serializeCalendar(blockRanges(parseStoredCalendar(""), [parseRange("2027-02")])).split(",")).toHaveLength(
      28,
    );
  });

  it("editCalendar: block, then unblock, then clear-past; planned as added/removed days", () => {
    const r = editCalendar("01.11.2026,junk", {
      block: [parseRange("2026-12-24..2026-12-26")],
      unblock: [parseRange("2026-12-25")],
      clearPastBefore: "2026-12-01",
    });
    expect(r.value).toBe("24.12.2026,26.12.2026,junk");
    expect(editCalendar("01.11.2026", { clearPastBefore: "2026-12-01" }).value).toBe("");
    const plan = planEdit(
      [{ id: 4, vehicle_reg_number: "C", vehicle_availability_calendar: "1.11.2026" }],
      (input) => ({
        vehicle_availability_calendar: editCalendar(input.vehicle_availability_calendar, {
          block: [parseRange("2026-12-24")],
        }).value,
      }),
    );
    expect(planText(plan)).toBe(
      "~ C (vehicle 4)\n    vehicle_availability_calendar: +24.12.2026\nPlan: 0 to create, 1 to change, 0 to remove, 0 unchanged.\n",
    );
    expect(plan.change[0]?.after.vehicle_availability_calendar).toBe("01.11.2026,24.12.2026");
  });

  it("months and days", () => {
    expect(addMonths({ year: 2026, month: 11 }, 3)).toEqual({ year: 2027, month: 2 });
    expect(isoDay(new Date(Date.UTC(2026, 11, 24, 12)), true)).toBe("2026-12-24");
  });
});

describe("grid and json", () => {
  const cal = parseStoredCalendar("24.12.2026,25.12.2026,26.12.2026,31.12.2026,01.01.2027,15.02.2027,bad");

  it("renders Monday-first month grids with visible marks and a legend (golden)", () => {
    const text = `${renderCalendarGrid(cal, { from: parseMonth("2026-12"), months: 3 }).join("\n")}\n`;
    expectGolden("calendar-2026-12-plain.txt", text);
    // 1 December 2026 is a Tuesday
    expect(text).toContain(" Mo  Tu  We  Th  Fr  Sa  Su\n      1   2   3   4   5   6\n");
  });

  it("paints blocked days with the colour function instead of brackets (golden)", () => {
    const color = { blocked: (s: string) => `<${s}>`, dim: (s: string) => s.toLowerCase() };
    const text = `${renderCalendarGrid(cal, { from: parseMonth("2026-12"), months: 1, color }).join("\n")}\n`;
    expectGolden("calendar-2026-12-color.txt", text);
    expect(text).not.toContain("[");
  });

  it("json: ISO dates, malformed entries only when present", () => {
    expect(calendarJson(7, cal)).toEqual({
      vehicle_id: 7,
      blocked: ["2026-12-24", "2026-12-25", "2026-12-26", "2026-12-31", "2027-01-01", "2027-02-15"],
      malformed: ["bad"],
    });
    expect(calendarJson(8, parseStoredCalendar("1.1.2027"))).toEqual({ vehicle_id: 8, blocked: ["2027-01-01"] });
  });
});
