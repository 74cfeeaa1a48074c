import { createReadStream, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { InputError } from "../../src/base/errors.js";
import { type DocEvent, type ReadDocumentOptions, readDocument } from "../../src/files/doc-stream.js";
import { checkJson, MAX_DEPTH, MAX_ROW_BYTES } from "../../src/files/input-limits.js";
import { parseYaml } from "../../src/files/yaml.js";

/**
 * The streaming reader of account and fleet documents (src/files/doc-stream.ts):
 * its events rebuild exactly what a whole-document JSON.parse / yaml parse
 * gives, whatever the chunk boundaries; broken and hostile files are
 * InputErrors naming the line; items are handed out while the file is read.
 */
const dir = mkdtempSync(join(tmpdir(), "rentctl-docstream-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KEYS = ["extras", "vehicles"] as const;
type Format = "json" | "yaml";

let n = 0;
function file(content: string | Buffer, ext: Format): string {
  const p = join(dir, `d${n++}.${ext}`);
  writeFileSync(p, content);
  return p;
}

async function events(path: string, format: Format, opts?: ReadDocumentOptions): Promise<DocEvent[]> {
  const out: DocEvent[] = [];
  for await (const e of readDocument(path, format, KEYS, opts)) out.push(e);
  return out;
}

async function refused(path: string, format: Format, opts?: ReadDocumentOptions): Promise<string> {
  const e = await events(path, format, opts).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e, "refused").toBeInstanceOf(InputError);
  return (e as Error).message;
}

/** The document the events describe, checking their order on the way (shape first, open / items 1..n / close). */
function rebuild(evs: DocEvent[]): unknown {
  const first = evs[0];
  if (first?.type !== "shape") throw new Error(`first event: ${JSON.stringify(first)}`);
  if (first.shape === "empty") {
    if (evs.length !== 1) throw new Error("events after an empty shape");
    return null;
  }
  let doc: Record<string, unknown> | unknown[] | undefined = first.shape === "mapping" ? {} : undefined;
  let open: string | undefined;
  let list: unknown[] = [];
  let line = 0;
  const set = (key: string, value: unknown) => {
    if (!doc || Array.isArray(doc)) throw new Error(`member ${key} in a list document`);
    if (Object.hasOwn(doc, key)) throw new Error(`member ${key} twice`);
    Object.defineProperty(doc, key, { value, enumerable: true, writable: true, configurable: true });
  };
  for (const e of evs.slice(1)) {
    if (e.type === "shape") throw new Error("a second shape");
    if (e.type === "member") {
      if (open !== undefined) throw new Error("member inside a list");
      set(e.key, e.value);
    } else if (e.type === "open") {
      if (open !== undefined) throw new Error("open inside a list");
      if ((first.shape === "list") !== (e.key === "")) throw new Error(`open ${e.key} in a ${first.shape}`);
      open = e.key;
      list = [];
      line = 0;
      if (first.shape === "mapping") set(e.key, list);
    } else if (e.type === "item") {
      if (e.key !== open || e.index !== list.length + 1) throw new Error(`item ${e.key} ${e.index}`);
      if (!(e.line >= line && e.line >= 1)) throw new Error(`item line ${e.line} after ${line}`);
      line = e.line;
      list.push(e.value);
    } else {
      if (e.key !== open) throw new Error(`close ${e.key}`);
      open = undefined;
      if (first.shape === "list") doc = list;
    }
  }
  if (open !== undefined) throw new Error("a list left open");
  return doc;
}

/** The whole parse: yaml by the yaml library (js-yaml, as rentctl reads it); json as rentctl reads it (checkJson first: a member given twice, too deep). */
const whole = (text: string, format: Format): unknown => {
  const t = text.replace(/^\uFEFF/, "");
  if (format === "yaml") return parseYaml(t);
  checkJson(t, () => "the document");
  return JSON.parse(t);
};

// ------------------------------------------------------------- generated documents

function prng(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  '"',
  "'",
  "[",
  "]",
  "{",
  "}",
  "\\",
  "\\u0041",
  "\n",
  "\r\n",
  "\t",
  "- ",
  ": ",
  "#",
  " # ",
  ",",
  "é",
  "日本",
  "😀",
  "\u2028",
  "\u0001",
  "null",
  "- x",
  "%",
  "---",
  "|",
  ">",
  "a",
  "b c",
  " ",
  "0",
  "?",
  "x".repeat(90),
];
/** Pieces that read as anchors, aliases or tags where a node starts: such documents are parsed whole. */
const PROPERTIES = [" &a", " *b", "!t", ": *b", "- &a"];
const NUMBERS = [0, 1, -1, 42, 3.5, -0.25, 1e21, 5e-324, 123456789012, Number.MAX_SAFE_INTEGER];

function gen(seed: number) {
  const r = prng(seed);
  const int = (k: number) => Math.floor(r() * k);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  const pieces = int(4) ? PIECES : [...PIECES, ...PROPERTIES];
  const str = () => Array.from({ length: int(6) }, () => pick(pieces)).join("");
  const value = (depth: number): unknown => {
    const k = int(depth > 2 ? 4 : 7);
    if (k === 0) return str();
    if (k === 1) return pick(NUMBERS);
    if (k === 2) return pick([true, false, null]);
    if (k === 3) return str();
    if (k === 4) return Array.from({ length: int(4) }, () => value(depth + 1));
    return record(depth + 1);
  };
  const record = (depth = 0): Record<string, unknown> => {
    const o: Record<string, unknown> = {};
    for (let i = int(6); i > 0; i--)
      o[pick(["vehicle_reg_number", "price", "extras", "a", "b c", str() || "k"])] = value(depth);
    return o;
  };
  return { r, int, pick, str, value, record };
}

type Gen = ReturnType<typeof gen>;

/** JSON text of a value with random white space (CRLF too) and random escapes (\u, \/). */
function jsonText(v: unknown, g: Gen): string {
  const ws = () => g.pick(["", "", " ", "\n  ", "\r\n", "\t"]);
  const s = (x: string) => {
    let out = '"';
    for (const ch of x) {
      const k = g.int(8);
      if (ch === '"' || ch === "\\") out += `\\${ch}`;
      else if (ch.charCodeAt(0) < 0x20 || k === 0)
        for (let j = 0; j < ch.length; j++) out += `\\u${ch.charCodeAt(j).toString(16).padStart(4, "0")}`;
      else if (ch === "/" || k === 1) out += ch === "/" ? "\\/" : ch;
      else out += ch;
    }
    // a surrogate pair written as two \u escapes
    if (g.int(6) === 0) out += "\\ud83d\\ude00";
    return `${out}"`;
  };
  if (v === null || typeof v === "boolean") return String(v);
  if (typeof v === "number") return g.int(4) === 0 && Number.isSafeInteger(v) ? `${v}E0` : JSON.stringify(v);
  if (typeof v === "string") return s(v);
  if (Array.isArray(v)) return `[${ws()}${v.map((x) => jsonText(x, g)).join(`${ws()},${ws()}`)}${ws()}]`;
  const entries = Object.entries(v as Record<string, unknown>);
  return `{${ws()}${entries.map(([k, x]) => `${s(k)}${ws()}:${ws()}${jsonText(x, g)}`).join(`${ws()},${ws()}`)}${ws()}}`;
}

/** A json account or fleet document of many kinds. */
function jsonDoc(seed: number): string {
  const g = gen(seed);
  const list = (k: number) => Array.from({ length: g.int(k) }, () => g.record());
  const kind = g.int(10);
  let text: string;
  if (kind === 0) text = g.pick(["null", " null ", "\r\nnull\n", "[]", "{}", '{"vehicles": []}', '{"vehicles": null}']);
  else if (kind <= 3) text = jsonText(list(8), g);
  else {
    const members: Array<[string, string]> = [];
    if (g.int(2)) members.push(['"$schema"', jsonText("rentctl-account.schema.json", g)]);
    if (g.int(3)) members.push([g.pick(['"extras"', '"\\u0065xtras"']), jsonText(g.int(5) ? list(4) : null, g)]);
    if (g.int(5))
      members.push([g.pick(['"vehicles"', '"veh\\u0069cles"']), jsonText(g.int(6) ? list(8) : g.value(0), g)]);
    if (!g.int(3)) members.push(['"other"', jsonText(g.record(), g)]);
    members.sort(() => g.r() - 0.5);
    text = `{${members.map(([k, v]) => `\n  ${k}: ${v}`).join(",")}\n}`;
  }
  if (g.int(4) === 0) text = text.replace(/\n/g, "\r\n");
  if (g.int(5) === 0) text = `\uFEFF${text}`;
  return g.int(2) ? `${text}\n` : text;
}

/** A yaml document: mostly the export layout (item by item), sometimes another one (parsed whole). */
function yamlDoc(seed: number): string {
  const g = gen(seed);
  const records = (k: number) => Array.from({ length: g.int(k) }, () => g.record());
  const items = (rs: Record<string, unknown>[]) =>
    rs
      .map(
        (rec) =>
          stringify([rec], g.int(2) ? { lineWidth: 0 } : {}) +
          g.pick(["", "", "\n", "# a comment\n", "  # indented\n", "\n\n"]),
      )
      .join("");
  const kind = g.int(12);
  let text: string;
  if (kind === 0) text = g.pick(["", "\n", "# only a comment\n", "null\n", "~", "---\n", "[]\n", "{}\n"]);
  else if (kind <= 2) text = `${g.int(2) ? "---\n" : ""}${items(records(6))}`;
  else if (kind === 3) {
    // another layout: indented lists, flow style, anchors (an object given twice), tags
    const shared = g.record();
    const doc = { extras: records(3), vehicles: [...records(3), shared, shared] };
    text = g.pick([
      stringify(doc),
      stringify(doc, { collectionStyle: "flow" }),
      stringify(doc, { indentSeq: false }),
      `vehicles:\n- !!str 5\n- ${JSON.stringify(g.str())}\n`,
    ]);
  } else {
    const head = g.int(2) ? "# yaml-language-server: $schema=rentctl-account.schema.json\n" : "";
    const sections: string[] = [];
    if (g.int(2)) sections.push(`$schema: ${g.pick(["./x.json", "'x.json'", '"x\\u0041.json"', "~"])}\n`);
    if (g.int(3)) {
      const rs = records(4);
      sections.push(
        `extras:${g.pick(["", " # the extras"])}\n${rs.length ? items(rs) : g.pick(["  []\n", "", "  [] # none\n"])}`,
      );
    }
    if (g.int(5)) {
      const rs = records(8);
      sections.push(
        rs.length || g.int(2)
          ? `vehicles:\n${items(rs)}`
          : g.pick(["vehicles: []\n", "vehicles: {}\n", "vehicles: 5\n", "vehicles: # none yet\n"]),
      );
    }
    if (!g.int(4)) sections.push(`other: ${g.pick(["1", "two words", "'q'", "[]", "null"])}\n`);
    sections.sort(() => g.r() - 0.5);
    text = head + sections.join(g.pick(["", "\n", "# between\n"]));
  }
  if (g.int(4) === 0) text = text.replace(/\r?\n/g, "\r\n");
  if (g.int(6) === 0) text = `\uFEFF${text}`;
  return text;
}

/** The doc read with each chunk size gives what a whole parse gives, or both refuse it. */
async function differential(text: string, format: Format, chunkSize?: number): Promise<void> {
  const p = file(text, format);
  let expected: unknown;
  try {
    // as written (a lone surrogate is written as U+FFFD)
    expected = whole(Buffer.from(text).toString(), format);
  } catch {
    await refused(p, format, { chunkSize });
    return;
  }
  if (expected !== null && typeof expected !== "object") {
    expect(await refused(p, format, { chunkSize })).toMatch(/^expected `\{extras/);
    return;
  }
  const got = rebuild(await events(p, format, { chunkSize }));
  expect(got, `${JSON.stringify(text)} (chunks of ${chunkSize ?? "default"})`).toStrictEqual(expected ?? null);
}

describe("readDocument: the events rebuild the whole parse", () => {
  it("json documents (accounts in any order, $schema, lists, {vehicles: []}, null, escapes, CRLF, BOM)", async () => {
    for (let seed = 1; seed <= 200; seed++) await differential(jsonDoc(seed), "json");
  });

  it("yaml documents (export layout, comments, empty and null sections, plain lists, other layouts)", async () => {
    for (let seed = 1; seed <= 200; seed++) await differential(yamlDoc(seed), "yaml");
  });

  it("chunk boundaries anywhere: chunks of 1, 2, 3 and 7 bytes", async () => {
    for (const size of [1, 2, 3, 7])
      for (let seed = 1000; seed < 1016; seed++) {
        await differential(jsonDoc(seed), "json", size);
        await differential(yamlDoc(seed), "yaml", size);
      }
  });

  it("broken documents (cut short, a character changed or added, once or twice): refused as a whole parse refuses them", async () => {
    const JUNK = [
      '"',
      "[",
      "]",
      "{",
      "}",
      ",",
      ":",
      "\\",
      "x",
      "-",
      "0",
      " ",
      "\n",
      "  ",
      "- ",
      "#",
      "'",
      "\t",
      "&a ",
      "*a",
    ];
    const mutate = (t: string, g: Gen): string => {
      const at = g.int(t.length + 1);
      const k = g.int(3);
      return k === 0 ? t.slice(0, at) : t.slice(0, at) + g.pick(JUNK) + t.slice(k === 1 ? at + 1 : at);
    };
    for (let seed = 2000; seed < 2250; seed++) {
      const g = gen(seed);
      for (const format of ["json", "yaml"] as const) {
        let text = mutate(format === "json" ? jsonDoc(seed) : yamlDoc(seed), g);
        if (g.int(2)) text = mutate(text, g);
        await differential(text, format, g.int(4) ? undefined : 3);
      }
    }
  });

  it("hand-picked documents", async () => {
    const json = [
      '{"extras": [{"option": "Child seat", "period": 1}], "vehicles": [{"vehicle_reg_number": "B-SC 1"}]}',
      '{"vehicles": [{"a": 1}], "$schema": "x.json", "extras": []}',
      '{"vehicles": {"a": [1, 2]}, "extras": null, "x": [[{"y": "}]"}]]}',
      '[{"a": "\\"]}\\\\"}, {"b": "\\u005d\\u007d"}, 1, "s", null, [], {}]',
      '{"__proto__": {"a": 1}, "vehicles": [{"__proto__": 5}]}',
      '\uFEFF{\r\n  "vehicles": [\r\n    {"a": -0, "b": 1E+2, "c": 0.5e-3}\r\n  ]\r\n}\r\n',
      '{"vehicles": [{"t": "日本 😀 \\ud83d\\ude00 é"}]}',
      "[ ]",
      "{ }",
      "null",
    ];
    for (const text of json) await differential(text, "json");
    const yaml = [
      [
        "# yaml-language-server: $schema=rentctl-account.schema.json",
        "extras:",
        "- option: Child seat",
        "  price: 5",
        "  active: on",
        "# a comment between items",
        "- {option: 4, period: 2}",
        "vehicles:",
        "- vehicle_reg_number: B-SC 1001",
        "  vehicle_description: |",
        "    two lines",
        "",
        "    - not an item",
        "  extras:",
        "    - Child seat",
        "    - {option: 4, period: 2}",
        "- vehicle_reg_number: '- x'",
        "- |+",
        "  kept",
        "",
        "",
        "",
      ].join("\n"),
      "extras:\n  []\nvehicles:\n  []\n",
      "extras:\nvehicles:\n",
      "vehicles: []\nextras: {}\n$schema: ./x.json\n",
      "- a: 1\n-\n- - nested\n  - list\n-   b: 2\n",
      "---\n- a\n",
      "- |+\n  a",
      "null\n",
      "~\n",
      "",
      "- a: 1\r\n  b: 'x\r\n    y'\r\n",
      "__proto__: 1\nvehicles:\n- __proto__: {a: 1}\n",
      "$schema: ~\nvehicles: # none yet\nextras:\n# c\n  # c\n\n",
    ];
    for (const text of yaml) await differential(text, "yaml");
  });

  it("items are handed out one by one with their line; other members whole", async () => {
    const p = file(
      '{\n  "$schema": "x",\n  "vehicles": [\n    {"a": 1},\n\n    {"b": [\n2]}\n  ],\n  "extras": null\n}',
      "json",
    );
    expect(await events(p, "json")).toStrictEqual([
      { type: "shape", shape: "mapping" },
      { type: "member", key: "$schema", value: "x" },
      { type: "open", key: "vehicles" },
      { type: "item", key: "vehicles", index: 1, line: 4, value: { a: 1 } },
      { type: "item", key: "vehicles", index: 2, line: 6, value: { b: [2] } },
      { type: "close", key: "vehicles" },
      { type: "member", key: "extras", value: null },
    ]);
    const y = file("# c\nextras:\nvehicles:\n- a: 1\n  b: 2\n# c\n- c: 3\n", "yaml");
    expect(await events(y, "yaml")).toStrictEqual([
      { type: "shape", shape: "mapping" },
      { type: "member", key: "extras", value: null },
      { type: "open", key: "vehicles" },
      { type: "item", key: "vehicles", index: 1, line: 4, value: { a: 1, b: 2 } },
      { type: "item", key: "vehicles", index: 2, line: 7, value: { c: 3 } },
      { type: "close", key: "vehicles" },
    ]);
    // another layout (indented items): the same events, lines from the whole parse
    const z = file("vehicles:\n  - a: 1\n  - &x {c: 3}\n  - *x\n", "yaml");
    expect(await events(z, "yaml")).toStrictEqual([
      { type: "shape", shape: "mapping" },
      { type: "open", key: "vehicles" },
      { type: "item", key: "vehicles", index: 1, line: 2, value: { a: 1 } },
      { type: "item", key: "vehicles", index: 2, line: 3, value: { c: 3 } },
      { type: "item", key: "vehicles", index: 3, line: 4, value: { c: 3 } },
      { type: "close", key: "vehicles" },
    ]);
    expect(await events(file("", "yaml"), "yaml")).toStrictEqual([{ type: "shape", shape: "empty" }]);
    expect(await events(file(" null ", "json"), "json")).toStrictEqual([{ type: "shape", shape: "empty" }]);
  });

  it("yaml items are parsed one by one by the library, each from its `- ` line", async () => {
    const p = file("vehicles:\n- a: 1\n- b: 2\n  c: 3\n", "yaml");
    const evs = await events(p, "yaml");
    expect(evs.filter((e) => e.type === "item").map((e) => (e as { line: number }).line)).toStrictEqual([2, 3]);
    expect(rebuild(evs)).toStrictEqual({ vehicles: [{ a: 1 }, { b: 2, c: 3 }] });
  });
});

describe("readDocument: broken and hostile files", () => {
  it("malformed json: `not valid json: <what> at line L column C` (what the streaming parser found), never a stack trace", async () => {
    const cases: Array<[string, RegExp]> = [
      ['{"vehicles": [{"a": 1}, {"b":', /^not valid json: unexpected end of input at line 1 column 30$/],
      ['[{"a": "unterminated', /unexpected end of input at line 1 column 21$/],
      ["", /^not valid json: unexpected end of input at line 1 column 1$/],
      ['[{"a": 1}]\n x', /^not valid json: unexpected "x" at line 2 column 2$/],
      ['{"a": 1} {"b": 2}', /unexpected "\{" after the end of the document at line 1 column 10/],
      ['[{"a": tru}]', /unexpected "}" at line 1 column 11/],
      ['[{"a": 1,}]', /unexpected "}" at line 1 column 10/],
      ["[1 2]", /unexpected 2 at line 1 column 4/],
      ['{"vehicles": [01]}', /unexpected 1 at line 1 column 16/],
      ['{"vehicles" [1]}', /unexpected "\[" at line 1 column 13/],
      ['[{"a": "x\ny"}]', /unexpected U\+000A at line 1 column 10/],
      ['[{"a": "\\x"}]', /unexpected "x" at line 1 column 10/],
      ['[{"a": "\\u12G4"}]', /unexpected "G" at line 1 column 13/],
      ["[1.]", /unexpected "]" at line 1 column 4/],
      ["[-]", /unexpected "]" at line 1 column 3/],
      ["[1e]", /unexpected "]" at line 1 column 4/],
      ["[NaN]", /unexpected "N" at line 1 column 2/],
      ["{'a': 1}", /unexpected "'" at line 1 column 2/],
      ["\uFEFF\uFEFF[]", /^not valid json: unexpected U\+FEFF at line 1 column 1$/],
      ["[1,\r\n\u00a0]", /^not valid json: unexpected U\+00A0 at line 2 column 1$/],
    ];
    for (const [text, re] of cases) expect(await refused(file(text, "json"), "json"), text).toMatch(re);
  });

  it("a top-level scalar is not an account file", async () => {
    for (const text of ["5", '"vehicles"', "true"])
      expect(await refused(file(text, "json"), "json")).toBe(
        "expected `{extras: [...], vehicles: [...]}` or a list of vehicles",
      );
    expect(await refused(file("hello\n", "yaml"), "yaml")).toBe(
      "expected `{extras: [...], vehicles: [...]}` or a list of vehicles",
    );
  });

  it("a member given twice: at the top level and inside an item", async () => {
    expect(await refused(file('{"vehicles": [], "extras": [], "veh\\u0069cles": []}', "json"), "json")).toMatch(
      /^the document: member "vehicles" is given twice in one object$/,
    );
    expect(await refused(file('[{"a": 1}, {"price": 1, "price": 2}]', "json"), "json")).toMatch(
      /^row 2: member "price" is given twice in one object$/,
    );
    expect(await refused(file('{"extras": [{"o": 1, "\\u006f": 2}]}', "json"), "json")).toMatch(
      /^extras row 1: member "o" is given twice/,
    );
    expect(await refused(file('{"$schema": {"a": 1, "a": 1}}', "json"), "json")).toMatch(
      /^member "\$schema": member "a" is given twice/,
    );
    // yaml says it as yaml does (a key given twice is another layout: the whole text is parsed)
    const twice = "vehicles:\n- a: 1\nextras:\nvehicles:\n";
    expect(() => parseYaml(twice)).toThrow();
    expect(await refused(file(twice, "yaml"), "yaml")).toBe(
      `not valid yaml: ${(() => {
        try {
          parseYaml(twice);
        } catch (e) {
          return (e as Error).message;
        }
      })()}`,
    );
    expect(await refused(file("vehicles:\n- a: 1\n- b: 1\n  b: 2\n", "yaml"), "yaml")).toMatch(
      /^not valid yaml: duplicated mapping key at line 4, column 3/,
    );
  });

  it("a depth bomb: refused naming the row, no stack overflow", async () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    expect(await refused(file(`[{"vehicle_reg_number":"A"}, {"x": ${deep}}]`, "json"), "json")).toBe(
      `row 2: nesting deeper than ${MAX_DEPTH} levels; nothing was sent`,
    );
    expect(await refused(file(`{"vehicles": [], "x": ${deep}}`, "json"), "json")).toMatch(
      /^member "x": nesting deeper than/,
    );
    // as deep as the limit is fine
    const ok = `${"[".repeat(MAX_DEPTH - 1)}${"]".repeat(MAX_DEPTH - 1)}`;
    expect(rebuild(await events(file(`[${ok}]`, "json"), "json"))).toStrictEqual(JSON.parse(`[${ok}]`));
    // yaml: refused by the library, which bounds its nesting (maxDepth 100: no stack overflow)
    expect(await refused(file(`- a\n- ${"[".repeat(100_000)}\n`, "yaml"), "yaml")).toMatch(
      /^not valid yaml: nesting exceeded maxDepth \(100\) at line 2, column \d+:/,
    );
    expect(await refused(file(`vehicles:\n- a\n- b:\n    ${"- ".repeat(50_000)}x\n`, "yaml"), "yaml")).toMatch(
      /^not valid yaml: nesting exceeded maxDepth \(100\) at line 4,/,
    );
    expect(await refused(file(`vehicles: ${"[".repeat(100_000)}\n`, "yaml"), "yaml")).toMatch(
      /^not valid yaml: nesting exceeded maxDepth \(100\) at line 1,/,
    );
    const fine = `- ${"[".repeat(90)}${"]".repeat(90)}\n`;
    expect(rebuild(await events(file(fine, "yaml"), "yaml"))).toStrictEqual(parseYaml(fine));
  });

  it("invalid UTF-8 and NUL bytes: refused naming the line", async () => {
    const bad = Buffer.concat([Buffer.from('[{"a":"ok"},\n{"a":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}]\n')]);
    expect(await refused(file(bad, "json"), "json")).toMatch(/^json: line 2 is not valid UTF-8/);
    expect(
      await refused(file(Buffer.concat([Buffer.from("vehicles:\n- a: "), Buffer.from([0xfe])]), "yaml"), "yaml"),
    ).toMatch(/^yaml: line 2 is not valid UTF-8/);
    expect(await refused(file('[{"a":"x\u0000"}]', "json"), "json")).toMatch(/line 1 holds a NUL byte/);
    expect(await refused(file("- a: x\n- b: \u0000\n", "yaml"), "yaml")).toMatch(/line 2 holds a NUL byte/);
    // a character cut by a chunk boundary is still read whole
    expect(rebuild(await events(file('["é日😀"]', "json"), "json", { chunkSize: 1 }))).toStrictEqual(["é日😀"]);
  });

  it("an item over MAX_ROW_BYTES: refused before it is read whole (a 3 MiB item)", async () => {
    const big = "x".repeat(3 * 1024 * 1024);
    const reads: number[] = [];
    const open = (path: string, size: number) => {
      const s = createReadStream(path, { highWaterMark: size });
      const k = reads.push(0) - 1;
      s.on("data", (b) => {
        reads[k]! += b.length;
      });
      return s;
    };
    const jsonFile = file(`{"vehicles": [{"a": 1}, {"a": 2}, {"a": "${big}"}, {"b": 1}]}`, "json");
    expect(await refused(jsonFile, "json", { open })).toBe(
      "line 1: row 3 is larger than the limit (1 MiB per row); nothing was sent",
    );
    expect(reads[0]).toBeLessThan(MAX_ROW_BYTES + 512 * 1024);
    expect(await refused(file(`{"extras": [\n"${big}"]}`, "json"), "json")).toBe(
      "extras, line 2: row 1 is larger than the limit (1 MiB per row); nothing was sent",
    );
    expect(await refused(file(`{"other": "${big}"}`, "json"), "json")).toBe(
      'line 1: member "other" is larger than the limit (1 MiB); nothing was sent',
    );
    // yaml: on one line, on many lines, in a top-level list
    expect(await refused(file(`vehicles:\n- a: 1\n- a: ${big}\n`, "yaml"), "yaml")).toBe(
      "line 3: row 2 is larger than the limit (1 MiB per row); nothing was sent",
    );
    const lines = `  - ${"y".repeat(1000)}\n`.repeat(3 * 1024);
    expect(await refused(file(`extras:\n- a: 1\n- a:\n${lines}`, "yaml"), "yaml")).toBe(
      "extras, line 3: row 2 is larger than the limit (1 MiB per row); nothing was sent",
    );
    // just under the limit is read, across many chunks
    const under = "y".repeat(MAX_ROW_BYTES - 100);
    const evs = await events(file(`[{"a": "${under}"}, 2]`, "json"), "json");
    expect(rebuild(evs)).toStrictEqual([{ a: under }, 2]);
    expect(rebuild(await events(file(`- a: ${under}\n- 2\n`, "yaml"), "yaml"))).toStrictEqual([{ a: under }, 2]);
  });

  it("json: white space between items or members is no row over the limit; a string over it is, whatever it holds", async () => {
    const pad = " \n".repeat(MAX_ROW_BYTES);
    const text = `{"extras": [],${pad}"vehicles": [{"a": 1},${pad}{"a": 2}${pad}]${pad}}`;
    expect(rebuild(await events(file(text, "json"), "json"))).toStrictEqual({
      extras: [],
      vehicles: [{ a: 1 }, { a: 2 }],
    });
    const spaces = " ".repeat(MAX_ROW_BYTES + 10);
    expect(await refused(file(`{"vehicles": [{"a": 1}, "${spaces}"]}`, "json"), "json")).toMatch(
      /^line 1: row 2 is larger than the limit/,
    );
    expect(await refused(file(`{"other": "${spaces}", "vehicles": []}`, "json"), "json")).toMatch(
      /^line 1: member "other" is larger than the limit/,
    );
  });

  it("a long run of comments or blank lines between items is no row over the limit (and a short one is kept)", async () => {
    const comments = "# a comment\n".repeat(150_000); // 1.8 MiB
    const blanks = "\n".repeat(1_500_000);
    for (const run of [comments, blanks, `  # indented\n${comments}`]) {
      const text = `extras:\n- option: 1\n  period: 1\n${run}vehicles:\n- a: 1\n  b: x\n${run}- a: 2\n${run}`;
      const evs = await events(file(text, "yaml"), "yaml");
      expect(rebuild(evs)).toStrictEqual({
        extras: [{ option: 1, period: 1 }],
        vehicles: [{ a: 1, b: "x" }, { a: 2 }],
      });
    }
    // a short run stays part of its item, as written (a keep-chomped scalar keeps its trailing blank lines)
    await differential("vehicles:\n- a: 1\n  b: |+\n    kept\n\n\n# c\n- a: 2\n", "yaml");
    // content after such a run is part of the item: then the item is over the limit
    expect(await refused(file(`vehicles:\n- a: 1\n${comments}  b: 2\n`, "yaml"), "yaml")).toBe(
      "line 2: row 1 is larger than the limit (1 MiB per row); nothing was sent",
    );
  });

  it("a bad yaml item: the error names its line in the file", async () => {
    const items = (k: number) =>
      Array.from({ length: k }, (_, i) => `- vehicle_reg_number: A-${i}\n  price: 1\n  x: 2\n`).join("");
    // 1 + 332 * 3 + 2 = 999 lines before it: the item starts at line 1000, its third line is 1002
    const text = `vehicles:\n${items(332)}# c\n\n- vehicle_reg_number: B\n  price: 1\n  price: 2\n`;
    expect(await refused(file(text, "yaml"), "yaml")).toMatch(
      /^not valid yaml: duplicated mapping key at line 1002, column 3/,
    );
    expect(await refused(file(`vehicles:\n${items(333)}- a: b: c\n`, "yaml"), "yaml")).toMatch(
      /^not valid yaml: bad indentation of a mapping entry at line 1001, column 7/,
    );
    // the label names the file
    expect(await refused(file("vehicles:\n- a: b: c\n", "yaml"), "yaml", { label: "fleet.yaml" })).toMatch(
      /^fleet\.yaml: not valid yaml: .* at line 2, column 7/,
    );
    expect(await refused(file("[1,", "json"), "json", { label: "fleet.json" })).toBe(
      "fleet.json: not valid json: unexpected end of input at line 1 column 4",
    );
  });

  it("other yaml layouts are parsed whole: the same values, and the same errors", async () => {
    const texts = [
      "vehicles:\n- &a {x: 1}\n- *a\n",
      "vehicles: [{a: 1}, {b: 2}]\nextras: []\n",
      "extras:\n  - option: 1\n  - option: 2\nvehicles:\n  - a: 1\n",
      "vehicles:\n- !!str 5\n",
      "%YAML 1.2\n---\nvehicles:\n- a: 1\n",
      "vehicles:\n- a: 1\n...\n",
      "$schema: >\n  folded\n  text\nvehicles:\n- a: 1\n",
      "other:\n  nested: 1\nvehicles:\n- a: 1\n",
      "cars:\n- a: 1\n",
      '"vehicles":\n- a: 1\n',
      "? vehicles\n: - a\n",
      "- a\nb: 1\n",
      "vehicles:\n- a: 1\n---\n- b\n",
      "vehicles:\n- x\r- y\n",
    ];
    for (const text of texts) await differential(text, "yaml");
    expect(await refused(file("vehicles:\n- a: 1\n---\n- b\n", "yaml"), "yaml")).toMatch(
      /^not valid yaml: expected a single document in the stream, but found more/,
    );
  });

  it("the layout is decided before any event: an alias after 1,000 items gives the whole parse's values", async () => {
    const items = Array.from({ length: 1000 }, (_, i) => `- vehicle_reg_number: A-${i}\n  price: ${i}\n`).join("");
    const text = `vehicles:\n- a: &x {deep: [1, 2]}\n${items}- b: *x\n`;
    const evs = await events(file(text, "yaml"), "yaml");
    expect(rebuild(evs)).toStrictEqual(parseYaml(text));
    expect(evs.filter((e) => e.type === "item")).toHaveLength(1002);
  });

  it("a yaml file that changes between the items and its read whole (another layout): refused, not misread", async () => {
    const texts = ["vehicles:\n- a: 1\n- *b\n", "vehicles:\n  - a: 2\n  - b: 2\n"];
    let opened = 0;
    const open = () => Readable.from([Buffer.from(texts[opened++ === 0 ? 0 : 1]!)]);
    expect(await refused(file("", "yaml"), "yaml", { open })).toBe("the file changed while it was read; read it again");
    expect(opened).toBe(2);
  });

  it("a missing file is an error of the read, not a hang", async () => {
    await expect(events(join(dir, "missing.json"), "json")).rejects.toThrow(/ENOENT/);
    await expect(events(join(dir, "missing.yaml"), "yaml")).rejects.toThrow(/ENOENT/);
  });
});

describe("readDocument: memory", () => {
  /** A byte source counting what each open has read so far. */
  function counting() {
    const reads: number[] = [];
    const open = (path: string, size: number) => {
      const s = createReadStream(path, { highWaterMark: size });
      const k = reads.push(0) - 1;
      s.on("data", (b) => {
        reads[k]! += b.length;
      });
      return s;
    };
    return { reads, open };
  }

  const COUNT = 20_000;
  const vehicle = (i: number) => ({
    vehicle_reg_number: `B-SC ${i}`,
    price_per_day: 40 + (i % 17),
    vehicle_description: `car number ${i}, "quoted", [bracketed] {braced} \\ backslash`,
    extras: ["Child seat", { option: "GPS", period: 1 }],
  });

  /** Stream `text`; at each item, what the read has got ahead of the item is at most `slack` bytes. */
  async function streamed(text: string, format: Format, ends: number[], pass: number) {
    const p = file(text, format);
    const { reads, open } = counting();
    const slack = 512 * 1024;
    let items = 0;
    let firstAt = -1;
    for await (const e of readDocument(p, format, KEYS, { open })) {
      if (e.type !== "item") continue;
      const read = reads[pass] ?? 0;
      if (items === 0) firstAt = read;
      // the item's own bytes are read; the read is not far ahead of it
      if (read > ends[items]! + slack)
        throw new Error(`item ${items + 1}: ${read} bytes read, item ends at ${ends[items]}`);
      items++;
    }
    expect(items).toBe(COUNT);
    expect(reads).toHaveLength(pass + 1);
    expect(firstAt).toBeLessThan(text.length / 10);
    expect(reads[pass]).toBe(text.length);
  }

  it(`a ${COUNT}-item json file: items are handed out while it is read`, async () => {
    let text = '{\n  "$schema": "rentctl-account.schema.json",\n  "extras": [],\n  "vehicles": [';
    const ends: number[] = [];
    for (let i = 0; i < COUNT; i++) {
      text += `${i ? "," : ""}\n    ${JSON.stringify(vehicle(i))}`;
      ends.push(text.length);
    }
    text += "\n  ]\n}\n";
    await streamed(text, "json", ends, 0);
  });

  it(`a ${COUNT}-item yaml file: items handed out while it is read (one read)`, async () => {
    let text = "# yaml-language-server: $schema=rentctl-account.schema.json\nextras:\n  []\nvehicles:\n";
    const ends: number[] = [];
    for (let i = 0; i < COUNT; i++) {
      const v = vehicle(i);
      text += `- vehicle_reg_number: ${v.vehicle_reg_number}\n  price_per_day: ${v.price_per_day}\n`;
      ends.push(text.length);
    }
    // an item is handed out when the next one starts: its end is the next item's first line
    await streamed(
      text,
      "yaml",
      ends.map((e) => e + 64),
      0,
    );
  });

  it("leaving the loop early stops the read", async () => {
    const text = `[${Array.from({ length: COUNT }, (_, i) => JSON.stringify(vehicle(i))).join(",\n")}]`;
    const p = file(text, "json");
    const { reads, open } = counting();
    for await (const e of readDocument(p, "json", KEYS, { open })) if (e.type === "item") break;
    await new Promise((r) => setTimeout(r, 50));
    expect(reads[0]).toBeLessThan(text.length / 4);
  });
});
