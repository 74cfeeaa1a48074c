import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseDay, wireCalendar, wireDay } from "../../src/contract/dates.js";
import { humanToWire } from "../../src/contract/human.js";

describe("the one date parser", () => {
  it("reads ISO and the contract's d.m.Y, with or without leading zeros; no unreal days", () => {
    expect(parseDay("2026-12-24")).toBe("2026-12-24");
    expect(parseDay(" 24.12.2026 ")).toBe("2026-12-24");
    expect(parseDay("3.1.2027")).toBe("2027-01-03");
    for (const bad of ["31.02.2026", "2026-13-01", "24/12/2026", "12.24.2026", "2026-1-3", "", "tomorrow"])
      expect(parseDay(bad), bad).toBeUndefined();
  });

  it("every real day round-trips through both forms (fast-check)", () => {
    fc.assert(
      fc.property(fc.date({ min: new Date("1970-01-01"), max: new Date("2999-12-31"), noInvalidDate: true }), (d) => {
        const iso = d.toISOString().slice(0, 10);
        expect(parseDay(iso)).toBe(iso);
        expect(parseDay(wireDay(iso))).toBe(iso);
      }),
    );
  });

  it("a calendar as a person writes it (string or list, either form) becomes the wire's one string", () => {
    expect(wireCalendar("2026-12-24, 25.12.2026")).toBe("24.12.2026,25.12.2026");
    expect(wireCalendar(["2027-01-02", "3.1.2027"])).toBe("02.01.2027,03.01.2027");
    // a bad entry is left for the contract check to name
    expect(wireCalendar("2026-12-24,31.13.2026")).toBe("24.12.2026,31.13.2026");
    expect(humanToWire("vehicle_availability_calendar", "2026-12-24")).toBe("24.12.2026");
    expect(humanToWire("vehicle_description", "2026-12-24")).toBe("2026-12-24");
  });
});
