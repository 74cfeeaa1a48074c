import { describe, expect, it } from "vitest";
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
