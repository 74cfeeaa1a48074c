import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InputError } from "../../src/base/errors.js";
import { checkJson, MAX_DEPTH } from "../../src/files/input-limits.js";

// checkJson's fast path (parse, count members, count colons outside strings) must refuse exactly the
// texts with a member named twice or nesting deeper than MAX_DEPTH, and hand back JSON.parse's value.
const refuses = (text: string) => {
  try {
    checkJson(text, () => "row 1");
    return false;
  } catch (e) {
    if (e instanceof InputError) return true;
    throw e;
  }
};

describe("checkJson", () => {
  it("returns JSON.parse's value for any JSON without repeated members (property)", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (v) => {
        const text = JSON.stringify(v);
        // fc.jsonValue builds objects, whose members are unique: never refused
        expect(checkJson(text, () => "row 1")?.value).toStrictEqual(JSON.parse(text));
      }),
      { numRuns: 500 },
    );
  });

  it("refuses a member written twice anywhere, keys and values with quotes, colons and escapes included (property)", () => {
    const key = fc.string({ unit: fc.constantFrom("a", ":", '"', "\\", "{", "}", ",", "é", "\n") });
    fc.assert(
      fc.property(key, fc.jsonValue({ maxDepth: 3 }), fc.jsonValue({ maxDepth: 3 }), fc.boolean(), (k, a, b, nest) => {
        const k1 = JSON.stringify(k);
        // the same name spelled another way (\u escapes) is the same member
        const k2 = k.length
          ? `"\\u${k.charCodeAt(0).toString(16).padStart(4, "0")}${JSON.stringify(k.slice(1)).slice(1)}`
          : k1;
        const obj = `{${k1}:${JSON.stringify(a)},"other:\\"x":1,${k2}:${JSON.stringify(b)}}`;
        const text = nest ? `[1,{"v":${obj}}]` : obj;
        expect(refuses(text)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("refuses a member written twice where no string holds a colon (the count of the whole text)", () => {
    expect(refuses('{"a":1,"b":{"c":1,"c":2}}')).toBe(true);
    expect(refuses('[{"a":1},{"a":1,"b":[{"x":"y","x":"y"}]}]')).toBe(true);
    expect(refuses('{"a":"10:00","b":{"c":1}}')).toBe(false);
  });

  it("refuses nesting deeper than MAX_DEPTH, and a nesting bomb, naming the depth", () => {
    const deep = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
    expect(refuses(deep(MAX_DEPTH))).toBe(false);
    expect(refuses(deep(MAX_DEPTH + 1))).toBe(true);
    expect(() => checkJson(deep(200_000), () => "row 1")).toThrow(/nesting deeper than 64/);
  });

  it("leaves malformed text to JSON.parse (its message names the position)", () => {
    expect(checkJson('{"a":', () => "row 1")).toBeUndefined();
  });
});
