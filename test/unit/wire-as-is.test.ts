import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { regKey } from "../../src/contract/identity.js";
import { coerce, wireAsIs } from "../../src/contract/validate.js";
import { VEHICLE_FIELDS } from "../../src/contract/vehicle-fields.js";

// wireAsIs is coerce's answer without its objects, for values already wire-typed: it may decline
// (undefined) anything, but what it answers must be exactly what coerce answers, with no problem.
const VALUES: unknown[] = [
  0,
  1,
  2,
  -1,
  5,
  16,
  45,
  300,
  999999,
  2 ** 53,
  1.5,
  Number.NaN,
  "1",
  "45",
  "",
  " ",
  "abc",
  "Berlin, Alexanderplatz 1",
  "a\u0000b",
  "\uD800",
  "\uD83D\uDE97",
  "x".repeat(5001),
  "x".repeat(300),
  true,
  null,
  undefined,
  {},
  [],
  [1],
  [1, 2, 3],
  ["a", "b"],
  [1, "2"],
  [0],
  [-5],
  [1.5],
  ["\uD800"],
  [2 ** 53],
  "24.12.2026",
  "AB-1",
  "ab\ncd",
];

describe("wireAsIs", () => {
  it("answers, for every field and a pool of values, only what coerce answers without a problem", () => {
    let answered = 0;
    for (const spec of VEHICLE_FIELDS)
      for (const v of VALUES) {
        const fast = wireAsIs(spec, v);
        if (fast === undefined) continue;
        answered++;
        const slow = coerce(spec, v);
        expect(slow.problems, `${spec.name} ${JSON.stringify(v)}`).toEqual([]);
        expect(fast, `${spec.name} ${JSON.stringify(v)}`).toEqual(slow.value);
      }
    // the fast path is taken (a test that always declined would prove nothing)
    expect(answered).toBeGreaterThan(VEHICLE_FIELDS.length);
  });
});

describe("regKey's ASCII fast path", () => {
  // the rule, as written before the fast path: every input must read the same through it
  const slow = (raw: unknown) =>
    String(raw)
      .normalize("NFC")
      .replace(/[\u00AD\u200B-\u200D\u2060\uFEFF]/g, "")
      .replace(/[\s\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]+/g, " ")
      .trim()
      .toLowerCase();
  it("reads every registration number as the full rule does (property)", () => {
    const unit = fc.constantFrom(
      "A",
      "b",
      "1",
      "-",
      " ",
      "  ",
      "\t",
      "\u00A0",
      "\u200B",
      "e\u0301",
      "é",
      "ß",
      "İ",
      "~",
    );
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit }), fc.string()), (s) => {
        expect(regKey(s)).toBe(slow(s));
      }),
      { numRuns: 2000 },
    );
  });
});
