import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { parseYamlBlock, parseYamlDescent } from "../../src/output/yaml-block.js";
import { parseYamlLines } from "../../src/output/yaml-lines.js";
import { seeded } from "../helpers/random.js";

/** yaml's parse with its default options; logLevel "error" only keeps its warnings (tags, …) off the console. */
function yamlParse(text: string): unknown {
  return parse(text, { logLevel: "error" });
}

/**
 * A canonical form that keeps key order, tells -0 from 0 and notices foreign
 * prototypes: stricter than toStrictEqual, which also trips over a key named
 * `constructor` holding an object (it compares a.constructor === b.constructor).
 */
function canon(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return `[${v.map(canon).join(",")}]`;
  switch (typeof v) {
    case "number":
      return Object.is(v, -0) ? "-0" : String(v);
    case "string":
      return JSON.stringify(v);
    case "boolean":
      return String(v);
    case "object": {
      if (Object.getPrototypeOf(v) !== Object.prototype) return `<${Object.prototype.toString.call(v)}>`;
      const o = v as Record<string, unknown>;
      return `{${Object.keys(o)
        .map((k) => `${JSON.stringify(k)}:${canon(o[k])}`)
        .join(",")}}`;
    }
    default:
      return `<${typeof v}>`;
  }
}

type Outcome = "accepted" | "bailed" | "bailed-rejected";

/** The line reader, the descent, and parseYamlBlock (the one, else the other): each is held to the contract on its own. */
const PARSERS = { lines: parseYamlLines, descent: parseYamlDescent, block: parseYamlBlock };

/** How many texts the line reader took (the differential tests report it). */
const taken = { lines: 0 };

/**
 * The contract on one text, for each parser: accepted → the same value as
 * yaml's parse (types, key order, -0); a text yaml rejects is never accepted.
 * The outcome is parseYamlBlock's.
 */
function check(text: string): Outcome {
  let expected: unknown;
  let rejected = false;
  try {
    expected = yamlParse(text);
  } catch {
    rejected = true;
  }
  let outcome: Outcome = "bailed";
  for (const [name, parser] of Object.entries(PARSERS)) {
    const fast = parser(text);
    if (fast === undefined) {
      if (name === "block") outcome = rejected ? "bailed-rejected" : "bailed";
      continue;
    }
    if (rejected) throw new Error(`${name} accepted a text yaml rejects: ${JSON.stringify(text)}`);
    if (canon(fast.value) !== canon(expected)) {
      throw new Error(
        `${name} differs from yaml on ${JSON.stringify(text)}:\n  fast ${canon(fast.value)}\n  yaml ${canon(expected)}`,
      );
    }
    if (name === "block") outcome = "accepted";
    if (name === "lines") taken.lines++;
  }
  return outcome;
}

const TYPICAL = `- pickup_location: Berlin, Alexanderplatz 1
  vehicle_class_id: 2
  vehicle_reg_number: AS-0
  price_per_day: 45
  description: "Zweitürer: sehr \\"sparsam\\""
  vehicle_benefits_id:
    - 1
    - 3
  extras:
    - option: 1
      period: 1
    - option: Child seat
      period: 2
  active: on
`;

const EXTRA = "- option: 1\n  price: 3\n  currency: 1\n  period: 1\n  quantity: 3\n  active: on\n";

const NAMES = `- vehicle_model_id: BMW 3 Series (320d)
  vehicle_reg_number: B-XY 123
  vehicle_reg_number_country: Germany
  pickup_location: Berlin, Alexanderplatz 1
  price_per_day: 45.5
  deposit: 0
  vehicle_benefits_id:
    - Air conditioning
    - GPS
  images: []
  extras:
    - option: Child seat
      price: 3
      currency: EUR
      period: per day
      quantity: 3
      active: off
`;

/** What `account export` writes for some records: stringify(records, { lineWidth: 0 }). */
function exportOf(n: number): string {
  const records = [];
  for (let i = 0; i < n; i++) {
    records.push({
      pickup_location: "Berlin, Alexanderplatz 1",
      vehicle_class_id: 2,
      vehicle_reg_number: `AS-${i}`,
      price_per_day: 45 + (i % 7),
      description: 'Zweitürer: sehr "sparsam"',
      vehicle_benefits_id: [1, 3],
      extras: [
        { option: 1, price: 3, currency: 1, period: 1, quantity: 3, active: "on" },
        { option: "Child seat", price: 2.5, currency: 1, period: 2, quantity: 1, active: "off" },
      ],
      active: "on",
    });
  }
  return stringify(records, { lineWidth: 0 });
}

const ACCEPTED: string[] = [
  TYPICAL,
  EXTRA,
  NAMES,
  exportOf(3),
  "vehicles:\n  - vehicle_reg_number: Y1\n  - vehicle_reg_number: Y2\n",
  "vehicles:\n- vehicle_reg_number: Y1\n  price_per_day: 3\n- vehicle_reg_number: Y2\n",
  // numbers as yaml v2 resolves them
  "a: 1.0\nb: -0\nc: +5\nd: 007\ne: 1_000\nf: .5\ng: 5.\nh: -.5\ni: 01.50\nj: 0.1\nk: +.5\nl: -.0\nm: 00\n",
  "a: 9007199254740991\nb: -9007199254740991\nc: 0.0000000000000000000001\nd: 1.7976931348623157\n",
  "a: 1e\nb: 0x\nc: 0o8\nd: 1.2.3\ne: +\nf: -a\ng: .\nh: 1,5\ni: 12:30\nj: 1 2\n",
  // null, booleans and the 1.1 words that are strings in 1.2
  "a: ~\nb: null\nc: Null\nd: NULL\ne:\nf: # c\ng: nULL\nh: nil\n",
  "a: true\nb: True\nc: TRUE\nd: false\ne: False\nf: FALSE\ng: tRUE\nh: on\ni: off\nj: yes\nk: no\nl: y\nm: n\n",
  // plain scalars
  "a: b #c: d\nb: b#c\na:b: c\na[b]: 1\nc: b, c\nd: b]\ne: x [y] {z}\nf: ---\ng: ...\nh: a - b\ni: a \"b\" 'c'\n",
  'a: b :c\nb: b::c\nc: \'x\'  \nd: "x"  #\ne:  b  \nkey  : v\n"q" : r\n',
  "é: ü 😀\n日本: 語\nx\u00a0y: x\u00a0y\n",
  // quoted scalars, as values and keys
  'a: "x\\ty\\u00e9\\U0001F600\\x41\\N\\_\\/\\ \\e\\0\\a\\b\\f\\n\\r\\v\\L\\P\\\\\\""\n',
  "a: 'it''s'\nb: ''''\nc: ''\n'd e': \"\"\n\"k: x\": 'v # w'\n\"\": x\n'#': \"#\"\n",
  "- \"a\": 1\n  'b': 2\n- \"x\"\n- 'y' # c\n",
  // flow sequences and {}
  "a: []\nb: [ ]\nc: [1, -2, 1.5, x y, 'q', \"r\", null, true, -a]\nd: [[1], [], {}]\ne: {}\nf: { }\ng: [ 1 ,2 ] # c\n",
  "- []\n- {}\n- - []\n- - {}\n",
  // comments everywhere
  "# head\na: 1 # t\n    # indented\nb:\n# c0\n  c: 2\n\n  d: 3 # x\n   # y\n# z\ne:\n  # between\n  - 1\n# col 0\n  - 2\n",
  "- a: 1\n# c\n  b: 2\n      # c\n  c: 3\n",
  "a: # c\n  b: 1\n",
  "- # c\n  a: 1\n",
  // nesting
  "- - 1\n  - 2\n- - - 3\n",
  "- -\n  - 1\n",
  "- -\n",
  "-\n  a: 1\n  b: 2\n-\n- x\n",
  "-\n a: 1\n",
  "a:\n- 1\n- 2\nb: 3\n",
  "- a:\n  - 1\n  b: 2\n",
  "- a:\n   b: 1\n",
  "-   a: 1\n    b: 2\n",
  "-   - 1\n    - 2\n",
  "a:\n  b:\n    c:\n      d: [1]\n      e:\n      - x\n      f: {}\n",
  'a:\n  x\nb:\n  "y"\nc:\n  [1]\n',
  "-\n  x\n",
  // roots other than collections
  "hello\n",
  "[1, 2]\n",
  '"x"\n',
  "42\n",
  "",
  "# only a comment\n\n",
  "\n\n",
  "a: 1",
  "- x\n- y # c\n",
  "a:b\n",
  "--a\n",
  // keys yaml stores as own properties
  "constructor: 1\ntoString: 2\nhasOwnProperty: 3\n",
];

const INDENTED_ROOT = "  a: 1\n  b: 2\n";

const BAILS: string[] = [
  "a:\n\tb: 1\n", // tab indentation
  "a: b\tc\n", // a tab anywhere
  "a: 1\r\n",
  "\ufeffa: 1\n",
  "a: \x07\n",
  "a: \u2028\n",
  "a: &x 1\nb: *x\n",
  "a: *x\n",
  "a: !x 1\n",
  "a: !!str 1\n",
  "a: |\n  x\n",
  "a: >\n  x\n",
  "a: b\n  c\n", // a multi-line plain scalar
  "- a\n  b\n",
  'a: "b\n  c"\n',
  "a: 'b\n  c'\n",
  "a:\n  x\n  y\n",
  "? a\n: b\n",
  "<<: {}\n",
  "%YAML 1.2\n---\na: 1\n",
  "---\na: 1\n",
  "a: 1\n...\n",
  "a: 1\n---\nb: 2\n",
  "a: 1\na: 2\n", // duplicate keys
  'a: 1\n"a": 2\n',
  "- a: 1\n  'a': 2\n",
  "a:\n  b: 1\n   c: 2\n", // irregular indentation
  "a:\n    b: 1\n  c: 2\n",
  "a:\n  - 1\n b: 2\n",
  "a:\n  - 1\n  b: 2\n",
  "- a: 1\n   b: 2\n",
  "- a: 1\n  - b\n",
  "a: 1\n- b\n",
  "- a\nb: 1\n",
  INDENTED_ROOT,
  "a: 0x1F\n",
  "a: 0o17\n",
  "a: .inf\n",
  "a: -.Inf\n",
  "a: .nan\n",
  "a: 1e3\n",
  "a: 1.5E-3\n",
  "a: 9007199254740993\n",
  "a: 1152921504606847000\n",
  "1: a\n", // non-string keys
  "null: a\n",
  "true: a\n",
  "~: a\n",
  "1.5: a\n",
  "__proto__: 1\n",
  "a: b: c\n",
  "a: b:\n",
  "a: - b\n",
  "a: -\n",
  "a: [a, {b: 1}]\n",
  "a: {b: 1}\n",
  "a: [1, 2, ]\n",
  "a: [a: b]\n",
  "a: [a #b]\n",
  "a: [a\n  , b]\n",
  'a: "\\q"\n',
  'a: "\\U00110000"\n',
  'a: "\\x4"\n',
  'a: "x"y\n',
  'a: "x"# c\n',
  "a: 'x'# c\n",
  '"a":b\n',
  "a: @x\n",
  "a: `x\n",
  "a: %x\n",
  "a: :x\n",
  "a: ?x\n",
  "a: ,x\n",
  "-a: 1\n",
  "a: 1\nb\n",
  `${"k".repeat(1100)}: 1\n`,
];

describe("parseYamlBlock", () => {
  it("accepts the block subset with exactly yaml's values", () => {
    for (const text of ACCEPTED) expect(check(text), JSON.stringify(text)).toBe("accepted");
  });

  it("accepts what account export writes (the fast path is really taken)", () => {
    for (const text of [TYPICAL, EXTRA, NAMES, exportOf(50)]) expect(parseYamlBlock(text)).toBeDefined();
    expect(parseYamlBlock(TYPICAL)!.value).toEqual([
      {
        pickup_location: "Berlin, Alexanderplatz 1",
        vehicle_class_id: 2,
        vehicle_reg_number: "AS-0",
        price_per_day: 45,
        description: 'Zweitürer: sehr "sparsam"',
        vehicle_benefits_id: [1, 3],
        extras: [
          { option: 1, period: 1 },
          { option: "Child seat", period: 2 },
        ],
        active: "on",
      },
    ]);
  });

  it("bails on everything outside the subset", () => {
    for (const text of BAILS) {
      expect(parseYamlDescent(text), JSON.stringify(text)).toBeUndefined();
      // the line reader takes an indented root (yaml reads it the same way); it bails on the rest
      if (text !== INDENTED_ROOT) expect(parseYamlBlock(text), JSON.stringify(text)).toBeUndefined();
      check(text);
    }
    expect(parseYamlLines(INDENTED_ROOT)?.value).toEqual({ a: 1, b: 2 });
  });

  it("reads an export with the line reader, and leaves the rest of the subset to the descent", () => {
    const whole = `# yaml-language-server: $schema=rentctl-account.schema.json\nextras:\n${EXTRA}vehicles:\n${TYPICAL}${exportOf(20)}`;
    for (const text of [TYPICAL, EXTRA, NAMES, exportOf(50), whole]) {
      expect(parseYamlLines(text), text.slice(0, 80)).toBeDefined();
      expect(check(text)).toBe("accepted");
    }
    // the subset the descent reads beyond the line reader: still read, with yaml's values
    const descentOnly = [
      "a: 1 # a comment after a value\n",
      "a: 'single' # c\n",
      "a: [1, 2]\n",
      "a: ~\nb: Null\nc: TRUE\n",
      "a: +5\nb: 007\nc: .5\nd: 5.\n",
      "- - 1\n  - 2\n",
      "-\n  a: 1\n",
      '"q": 1\n',
      "key  : v\n",
      "-   a: 1\n    b: 2\n",
      "a: b  \n",
      "constructor: 1\n",
      "a:\n  x\n",
    ];
    for (const text of descentOnly) {
      expect(parseYamlLines(text), JSON.stringify(text)).toBeUndefined();
      expect(check(text), JSON.stringify(text)).toBe("accepted");
    }
    // and what the line reader takes beyond the export: plain scalars with quotes or a backslash,
    // a digit followed by words, compact and indented sequences, blank and comment lines
    const more = [
      "a: say \"hi\"\\n\nb: 12 Main Street\nc: it's\nd: 'it''s \"x\"'\n",
      "a:\n- 1\n- x\nb:\n    - c: 1\n      d: 2\n\n# note\ne: {}\nf: []\n",
      'a: "x\\u00e9\\n\\"y\\""\nb: -0\nc: -1.25\nd: 0\ne: null\nf: true\ng: false\n',
    ];
    for (const text of more) {
      expect(parseYamlLines(text), JSON.stringify(text)).toBeDefined();
      expect(check(text)).toBe("accepted");
    }
    // nesting: 50 levels are read, 150 are left to the descent
    const nested = (depth: number) => Array.from({ length: depth }, (_, i) => `${" ".repeat(2 * i)}a:\n`).join("");
    expect(parseYamlLines(nested(50))).toBeDefined();
    expect(parseYamlLines(nested(150))).toBeUndefined();
    expect(check(nested(150))).toBe("accepted");
  });

  it("never throws, whatever it is given", () => {
    for (const text of ["-", ":", "[", "]", "{", '"', "'", "\\", "- [", "a: [", 'a: "\\', "#", " ", "-\n-\n -"]) {
      expect(() => parseYamlBlock(text)).not.toThrow();
      check(text);
    }
    // nesting deeper than any record: left to yaml
    expect(parseYamlBlock(`${"- ".repeat(100_000)}x\n`)).toBeUndefined();
    expect(parseYamlBlock(`a: ${"[".repeat(100_000)}\n`)).toBeUndefined();
    expect(parseYamlBlock(`${"- ".repeat(150)}x\n`)).toBeDefined();
    check(`${"- ".repeat(150)}x\n`);
    expect(parseYamlBlock(123 as unknown as string)).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------
// Differential test: random values, stringified by yaml, read back by both.

const TRICKY = [
  "on",
  "off",
  "yes",
  "no",
  "null",
  "Null",
  "~",
  "true",
  "False",
  "1e3",
  "0x1F",
  "0o17",
  ".inf",
  ".nan",
  "-",
  "- a",
  "-a",
  "--a",
  "a: b",
  "a:b",
  "a:",
  ":a",
  "a #b",
  "a#b",
  "#x",
  "'q'",
  '"q"',
  "[a]",
  "{a}",
  "a[b]",
  "a{b}",
  "a, b",
  "a]b",
  "@x",
  "`x",
  "%x",
  "!x",
  "&x",
  "*x",
  "|",
  ">",
  "? x",
  "?x",
  " lead",
  "trail ",
  "a  b",
  "",
  " ",
  "é",
  "日本語",
  "😀",
  "x\u00a0y",
  "a\nb",
  "a\n\nb\n",
  "a\tb",
  "a\\b",
  'a"b',
  "a'b",
  "45",
  "-0",
  "1.50",
  "007",
  "+5",
  ".5",
  "5.",
  "1_000",
  "---",
  "...",
  "--- x",
  "<<",
  "x\u0085y",
  "\u2028",
  "a\u0007b",
  "x\ry",
  "\ufeffx",
];

const REAL_STRINGS = [
  "Berlin, Alexanderplatz 1",
  "BMW 3 Series (320d)",
  "Germany",
  "AS-0",
  'Zweitürer: sehr "sparsam"',
  "Child seat",
  "per day",
  "EUR",
  "Hamburg Hbf / Gleis 5",
  "Ölwechsel fällig",
  "https://example.com/a.jpg",
  "2024-05-01",
  "12:30",
  "VW Golf 1.6 TDI",
  "O'Neil's car",
];

const REAL_KEYS = [
  "pickup_location",
  "vehicle_class_id",
  "vehicle_reg_number",
  "vehicle_reg_number_country",
  "vehicle_model_id",
  "price_per_day",
  "description",
  "vehicle_benefits_id",
  "extras",
  "option",
  "period",
  "price",
  "currency",
  "quantity",
  "active",
  "images",
];

const ODD_KEYS = [
  ...TRICKY,
  "a b",
  "1",
  "-1",
  "1.5",
  "constructor",
  "toString",
  "__proto__",
  "x#y",
  "k: v",
  "Key With Spaces",
];

const NUMBERS = [
  0,
  1,
  -1,
  2,
  3,
  45,
  99.9,
  3.5,
  -2.25,
  0.1,
  0.30000000000000004,
  -0,
  1e21,
  1e-7,
  2 ** 53 - 1,
  2 ** 53 + 2,
];

const FRAGMENTS = [
  "a",
  "b c",
  ":",
  " ",
  "#",
  "-",
  "'",
  '"',
  "\\",
  "[",
  "]",
  "{",
  "}",
  ",",
  "é",
  "😀",
  "\n",
  "\t",
  "x1",
  "0",
];

function generator(seed: number) {
  const rnd = seeded(seed);
  const int = (n: number) => Math.floor(rnd() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;

  function str(exotic: boolean): string {
    const r = rnd();
    if (!exotic || r < 0.35) return pick(REAL_STRINGS);
    if (r < 0.75) return pick(TRICKY);
    let s = "";
    for (let i = 1 + int(3); i > 0; i--) s += pick(FRAGMENTS);
    return s;
  }
  function num(exotic: boolean): number {
    const r = rnd();
    if (exotic && r < 0.5) return pick(NUMBERS);
    if (r < 0.8) return int(2000) - (exotic ? 1000 : 0);
    return Math.round(rnd() * 100000) / 100;
  }
  function scalar(exotic: boolean): unknown {
    const r = rnd();
    if (r < 0.5) return str(exotic);
    if (r < 0.8) return num(exotic);
    if (r < 0.9) return rnd() < 0.5;
    return null;
  }
  function key(exotic: boolean): string {
    return exotic && rnd() < 0.3 ? pick(ODD_KEYS) : pick(REAL_KEYS);
  }
  function value(depth: number, exotic: boolean): unknown {
    const r = rnd();
    if (depth >= 4 || r < 0.5) return scalar(exotic);
    if (r < 0.7) {
      const arr = [];
      for (let i = int(5); i > 0; i--) arr.push(value(depth + 1, exotic));
      return arr;
    }
    return record(depth, exotic);
  }
  function record(depth: number, exotic: boolean): Record<string, unknown> {
    const obj: Record<string, unknown> = {};
    for (let i = int(7); i > 0; i--) {
      Object.defineProperty(obj, key(exotic), {
        value: value(depth + 1, exotic),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return obj;
  }
  return { rnd, int, pick, value, record };
}

const BLOCK_OPTIONS = [
  {},
  { lineWidth: 0 },
  { indentSeq: false },
  { defaultStringType: "QUOTE_DOUBLE" as const },
  { defaultStringType: "QUOTE_SINGLE" as const },
  { defaultKeyType: "PLAIN" as const },
  { lineWidth: 0, indent: 4 },
];
const FLOW_OPTIONS = { collectionStyle: "flow" as const };

function texts(v: unknown): string[] {
  const out = BLOCK_OPTIONS.map((o) => stringify(v, o));
  out.push(stringify(v, FLOW_OPTIONS), stringify([v]), stringify([v], { lineWidth: 0, indentSeq: false }));
  return out;
}

const MUTATION_INSERTS = [
  "\t",
  "&a ",
  "*a",
  "!t ",
  "# c",
  " # c",
  ":",
  ": ",
  "- ",
  "-",
  "'",
  '"',
  "[",
  "]",
  "{",
  "}",
  "\\",
  ",",
  "?",
  "|",
  ">",
  "%",
  "@",
  "\n",
  "\n  ",
  " ",
];

/** One small edit of a text, by the random source of g. */
function mutate(text: string, g: ReturnType<typeof generator>): string {
  const lines = text.split("\n");
  const i = g.int(Math.max(1, lines.length - 1));
  const line = lines[i]!;
  const indent = line.length - line.trimStart().length;
  switch (g.int(9)) {
    case 0: // a tab in the indentation
      lines[i] = `${line.slice(0, g.int(indent + 1))}\t${line.slice(g.int(indent + 1))}`;
      break;
    case 1: // a duplicated line (a duplicate key, or one more item)
      lines.splice(i, 0, line);
      break;
    case 2: // an anchor, alias or tag before a value
      lines[i] = line.replace(/(: |- )/, `$1${g.pick(["&a ", "*a ", "!t ", "!!str ", "&a"])}`);
      break;
    case 3: // one line indented differently
      lines[i] = g.rnd() < 0.5 ? `${" ".repeat(1 + g.int(3))}${line}` : line.slice(1 + g.int(2));
      break;
    case 4: // a trailing comment, with or without the space
      lines[i] = `${line}${g.pick([" # c", "# c", "  #", " #: x"])}`;
      break;
    case 5: // a continuation line
      lines.splice(
        i + 1,
        0,
        `${" ".repeat(indent + g.int(4))}${g.pick(["cont", "more text", "- x", "k: v", "# c", '"q"'])}`,
      );
      break;
    case 6: {
      // a character or snippet inserted anywhere
      const at = g.int(text.length + 1);
      return text.slice(0, at) + g.pick(MUTATION_INSERTS) + text.slice(at);
    }
    case 7: {
      // a character deleted anywhere
      const at = g.int(text.length);
      return text.slice(0, at) + text.slice(at + 1);
    }
    default: // a line swapped with the next
      if (i + 1 < lines.length) [lines[i], lines[i + 1]] = [lines[i + 1]!, lines[i]!];
  }
  return lines.join("\n");
}

describe("parseYamlBlock against yaml", () => {
  it("on random values stringified by yaml: equal when accepted, accepted when ordinary", () => {
    const g = generator(0x5eed);
    const tally = { texts: 0, accepted: 0, bailed: 0, ordinary: 0, ordinaryAccepted: 0, ordinaryByLines: 0 };
    const linesBefore = taken.lines;
    for (let n = 0; n < 1200; n++) {
      const exotic = n % 5 !== 0;
      const v = g.rnd() < 0.8 ? g.record(0, exotic) : g.value(0, exotic);
      const all = texts(v);
      for (let t = 0; t < all.length; t++) {
        const byLines = taken.lines;
        const outcome = check(all[t]!);
        tally.texts++;
        if (outcome === "accepted") tally.accepted++;
        else tally.bailed++;
        // ordinary: realistic values in the block styles rentctl writes
        if (!exotic && (t === 0 || t === 1 || t === 2 || t === BLOCK_OPTIONS.length + 1)) {
          tally.ordinary++;
          if (outcome === "accepted") tally.ordinaryAccepted++;
          if (taken.lines > byLines) tally.ordinaryByLines++;
        }
      }
    }
    console.log(
      `differential: ${tally.texts} texts, ${tally.accepted} accepted (${((100 * tally.accepted) / tally.texts).toFixed(1)}%), ${taken.lines - linesBefore} of them by the line reader; ordinary ${tally.ordinaryAccepted}/${tally.ordinary} accepted, ${tally.ordinaryByLines} by the line reader`,
    );
    expect(tally.accepted / tally.texts).toBeGreaterThan(0.4);
    expect(tally.ordinaryAccepted / tally.ordinary).toBeGreaterThan(0.97);
    // the line reader takes most of them too (not a sequence written inline in another, `- - x`, nor a root scalar)
    expect(tally.ordinaryByLines / tally.ordinary).toBeGreaterThan(0.5);
  }, 120_000);

  it("on small edits of accepted texts: equal when accepted, never accepting what yaml rejects", () => {
    const g = generator(0xb10c);
    const tally = { mutants: 0, accepted: 0, bailed: 0, rejectedByYaml: 0 };
    const linesBefore = taken.lines;
    let sources = 0;
    for (let n = 0; sources < 1000 && n < 10000; n++) {
      const v = g.record(0, n % 3 === 0);
      const text = stringify(g.rnd() < 0.5 ? [v] : v, g.pick(BLOCK_OPTIONS));
      if (check(text) !== "accepted") continue;
      sources++;
      for (let m = 0; m < 4; m++) {
        const mutant = g.rnd() < 0.2 ? mutate(mutate(text, g), g) : mutate(text, g);
        const outcome = check(mutant);
        tally.mutants++;
        if (outcome === "accepted") tally.accepted++;
        else tally.bailed++;
        if (outcome === "bailed-rejected") tally.rejectedByYaml++;
      }
    }
    console.log(
      `mutations: ${tally.mutants} mutants of ${sources} texts, ${tally.accepted} accepted (${taken.lines - linesBefore} by the line reader), ${tally.bailed} bailed (${tally.rejectedByYaml} of them rejected by yaml)`,
    );
    expect(sources).toBe(1000);
    expect(tally.accepted).toBeGreaterThan(300);
    expect(tally.rejectedByYaml).toBeGreaterThan(300);
  }, 120_000);
});
