import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildMultipart, contentTypeFor, encodeForm, encodeQuery, toPairs } from "../../src/api/encode.js";

/** Decode a form/query string the way a server does (URLSearchParams treats `+` as a space). */
function parse(s: string): Array<[string, string]> {
  return [...new URLSearchParams(s.startsWith("?") ? s.slice(1) : s)];
}

type BodyInit = ConstructorParameters<typeof Response>[0];

async function formEntries(form: FormData): Promise<Array<[string, string | File]>> {
  const parsed = await new Response(form as unknown as BodyInit).formData();
  return [...parsed.entries()] as Array<[string, string | File]>;
}

describe("toPairs", () => {
  it("keeps scalar order and stringifies numbers", () => {
    expect(toPairs({ a: 1, b: "x", c: 0 })).toEqual([
      ["a", "1"],
      ["b", "x"],
      ["c", "0"],
    ]);
  });

  it("sends booleans as 1/0, also inside arrays", () => {
    expect(toPairs({ on: true, off: false, list: [true, false] })).toEqual([
      ["on", "1"],
      ["off", "0"],
      ["list[]", "1"],
      ["list[]", "0"],
    ]);
  });

  it("repeats `key[]` once per array item, in order", () => {
    expect(toPairs({ vehicle_images: [3, 1, 2] })).toEqual([
      ["vehicle_images[]", "3"],
      ["vehicle_images[]", "1"],
      ["vehicle_images[]", "2"],
    ]);
  });

  it("does not double the brackets of a key already ending in []", () => {
    expect(toPairs({ "ids[]": [1, 2] })).toEqual([
      ["ids[]", "1"],
      ["ids[]", "2"],
    ]);
  });

  it("drops undefined, null, empty strings and empty arrays but keeps 0 and false", () => {
    expect(toPairs({ u: undefined, n: null, e: "", arr: [], zero: 0, no: false })).toEqual([
      ["zero", "0"],
      ["no", "0"],
    ]);
  });
});

describe("encodeForm / encodeQuery", () => {
  it("writes exactly the pairs toPairs lists, in order (absent values, empty arrays and booleans included)", () => {
    const record = {
      a: 1,
      gone: undefined,
      "ids[]": [3, 4],
      empty: [],
      nil: null,
      blank: "",
      on: true,
      off: false,
      text: "x y&z",
      list: ["p q", "r"],
      zero: 0,
    };
    const expected = toPairs(record)
      .map(([k, v]) => `${encodeURIComponent(k).replace(/%5B/g, "[").replace(/%5D/g, "]")}=${encodeURIComponent(v)}`)
      .join("&");
    expect(encodeForm(record)).toBe(expected);
    expect(encodeForm(record)).toBe("a=1&ids[]=3&ids[]=4&on=1&off=0&text=x%20y%26z&list[]=p%20q&list[]=r&zero=0");
    expect(encodeForm({})).toBe("");
    expect(encodeForm({ only: [] })).toBe("");
  });

  it("encodes arrays as repeated bracketed keys, brackets kept readable", () => {
    expect(encodeForm({ user_id: 7, vehicle_images: [1, 2] })).toBe("user_id=7&vehicle_images[]=1&vehicle_images[]=2");
  });

  it("spaces inside bracketed array values are %20 too: right for a form decoder and for a literal query reader", () => {
    const s = encodeForm({ vehicle_delivery_address_fixed_location: ["Main station", "Airport T2"], q: "a b" });
    expect(s).toBe(
      "vehicle_delivery_address_fixed_location[]=Main%20station&vehicle_delivery_address_fixed_location[]=Airport%20T2&q=a%20b",
    );
    expect(s).not.toContain("+");
    expect(parse(s)).toEqual([
      ["vehicle_delivery_address_fixed_location[]", "Main station"],
      ["vehicle_delivery_address_fixed_location[]", "Airport T2"],
      ["q", "a b"],
    ]);
    expect(decodeURIComponent(s.split("&")[0]!.split("=")[1]!)).toBe("Main station");
    expect(encodeQuery({ a: "x y" })).toBe("?a=x%20y");
  });

  it("encodes a space as %20 (never +) and escapes & = + # % and ?", () => {
    const s = encodeForm({ q: "a b&c=d+e#f%g?h" });
    expect(s).toBe("q=a%20b%26c%3Dd%2Be%23f%25g%3Fh");
    expect(parse(s)).toEqual([["q", "a b&c=d+e#f%g?h"]]);
  });

  it("escapes ! ' ( ) * (RFC 3986 reserved)", () => {
    expect(encodeForm({ x: "!'()*" })).toBe("x=%21%27%28%29%2A");
  });

  it("percent-encodes unicode as UTF-8", () => {
    const s = encodeForm({ city: "Zürich 東京 🚗" });
    expect(s).toBe("city=Z%C3%BCrich%20%E6%9D%B1%E4%BA%AC%20%F0%9F%9A%97");
    expect(parse(s)).toEqual([["city", "Zürich 東京 🚗"]]);
  });

  it("keeps brackets inside values readable and still round-trippable", () => {
    const s = encodeForm({ note: "[a]" });
    expect(s).toBe("note=[a]");
    expect(parse(s)).toEqual([["note", "[a]"]]);
  });

  it("escapes special characters in keys too", () => {
    expect(encodeForm({ "a b": "1", "k&=": "2" })).toBe("a%20b=1&k%26%3D=2");
  });

  it("query adds ? only when something is sent", () => {
    expect(encodeQuery({ a: undefined, b: null, c: "" })).toBe("");
    expect(encodeQuery({})).toBe("");
    expect(encodeQuery({ limit: 15, offset: 0 })).toBe("?limit=15&offset=0");
  });

  it("round-trips any string record through URLSearchParams (property)", () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.string({ minLength: 1, maxLength: 8 }).filter((k) => !k.endsWith("[]")),
          fc.string({ minLength: 1, maxLength: 20, unit: "grapheme" }),
        ),
        (record) => {
          const expected = Object.entries(record);
          expect(parse(encodeForm(record))).toEqual(expected);
        },
      ),
    );
  });

  it("round-trips arrays as repeated keys (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer(), fc.string({ minLength: 1 })), { maxLength: 6 }), (items) => {
        const pairs = parse(encodeForm({ k: items }));
        expect(pairs).toEqual(items.map((i) => ["k[]", String(i)]));
      }),
    );
  });
});

describe("buildMultipart", () => {
  it("carries text fields (arrays as key[]) and file parts with filenames and content types", async () => {
    const form = await buildMultipart({ user_id: 5, tags: ["a", "b"], skipped: "", flag: true }, [
      { field: "file", filename: "front.jpg", contentType: "image/jpeg", data: new Uint8Array([1, 2, 3]) },
      { field: "file", filename: "back side.png", contentType: "image/png", data: new Uint8Array([9]) },
    ]);
    const entries = await formEntries(form);
    const text = entries.filter(([, v]) => typeof v === "string");
    expect(text).toEqual([
      ["user_id", "5"],
      ["tags[]", "a"],
      ["tags[]", "b"],
      ["flag", "1"],
    ]);
    const files = entries.filter(([, v]) => typeof v !== "string") as Array<[string, File]>;
    expect(files.map(([k, f]) => [k, f.name, f.type, f.size])).toEqual([
      ["file", "front.jpg", "image/jpeg", 3],
      ["file", "back side.png", "image/png", 1],
    ]);
    expect([...new Uint8Array(await files[0]![1].arrayBuffer())]).toEqual([1, 2, 3]);
  });

  it("gives a Blob without a type of its own the declared content type", async () => {
    const form = await buildMultipart({}, [
      { field: "file", filename: "x.webp", contentType: "image/webp", data: new Blob([new Uint8Array([1, 2])]) },
    ]);
    const entries = (await formEntries(form)) as Array<[string, File]>;
    expect(entries).toHaveLength(1);
    const [field, file] = entries[0]!;
    expect(field).toBe("file");
    expect(file.name).toBe("x.webp");
    expect(file.type).toBe("image/webp");
    expect(file.size).toBe(2);
  });

  it("serialises with a multipart/form-data boundary", async () => {
    const form = await buildMultipart({ a: 1 });
    const res = new Response(form as unknown as BodyInit);
    expect(res.headers.get("content-type")).toMatch(/^multipart\/form-data; boundary=/);
    expect(await res.text()).toContain('name="a"');
  });
});

describe("contentTypeFor", () => {
  it.each([
    ["a.JPG", "image/jpeg"],
    ["a.jpeg", "image/jpeg"],
    ["dir.v2/a.png", "image/png"],
    ["a.webp", "image/webp"],
    ["a.unknown", "application/octet-stream"],
    ["noext", "application/octet-stream"],
  ])("%s → %s", (name, type) => {
    expect(contentTypeFor(name)).toBe(type);
  });
});
