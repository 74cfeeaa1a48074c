import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { VERSION } from "../../src/base/version.js";
import { applyChanges, diffRecords, inputOf, VEHICLE } from "../../src/resources/safe-edit.js";

describe("merge and diff of the safe edit", () => {
  it("applies changes over the current record; empty values clear", () => {
    const base = { price_per_day: 45, vehicle_description: "keep", vehicle_benefits_id: [1, 2] };
    expect(applyChanges(base, { price_per_day: 50 })).toEqual({
      price_per_day: 50,
      vehicle_description: "keep",
      vehicle_benefits_id: [1, 2],
    });
    expect(applyChanges(base, { vehicle_benefits_id: [], vehicle_description: "" })).toEqual({ price_per_day: 45 });
    expect(base).toEqual({ price_per_day: 45, vehicle_description: "keep", vehicle_benefits_id: [1, 2] });
  });

  it("lists changed, added and removed fields, treating empty as absent", () => {
    const before = { a: 1, b: [1, 2], c: "x", d: "" };
    const after = { a: 2, b: [1, 2], e: 5 };
    expect(diffRecords(before, after)).toEqual([
      { field: "a", before: 1, after: 2 },
      { field: "c", before: "x", after: null },
      { field: "e", before: null, after: 5 },
    ]);
    expect(diffRecords({ b: [] }, {})).toEqual([]);
  });

  it("reads a returned record into wire input: strings coerced, images as objects reduced to ids, server members dropped", () => {
    const input = inputOf(VEHICLE, {
      id: 9,
      created_at: "2026-01-01T00:00:00Z",
      price_per_day: "45",
      vehicle_images: [{ id: 3, url: "x" }, { image_id: 4 }],
      unknown_member: "kept out of the input",
    });
    expect(input).toEqual({ price_per_day: 45, vehicle_images: [3, 4] });
  });

  it("the version matches package.json", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
    expect(VERSION).toBe(pkg.version);
  });
});
