import { mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CORE_SCHEMA, load } from "js-yaml";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { readDocument } from "../../src/files/doc-stream.js";
import { readRows } from "../../src/files/read.js";
import { parseYaml } from "../../src/files/yaml.js";
import { readAccountDocument, WHOLE_FILE_BYTES } from "../../src/plans/account-file.js";
import { seeded } from "../helpers/random.js";

/**
 * One file, one meaning (issue 41 item 3b, issue 42 item 1): every reader of
 * yaml files gives the values the yaml library (js-yaml, YAML 1.2 core schema)
 * gives for the whole text, or refuses what it refuses: the fleet reader
 * (`vehicle diff`, `vehicle import`: src/files/read.ts), the account reader
 * (`account diff` / `apply`: src/plans/account-file.ts) and the streamed reader of
 * large files (src/files/doc-stream.ts, item by item, at any chunk size).
 * The texts are written by the `yaml` package in many styles, and by hand
 * (tricky strings, mutations): a second implementation to write them.
 */

/** The library on the whole text: its value, or "rejected". */
function library(text: string): unknown {
  try {
    return load(text, { schema: CORE_SCHEMA }) ?? null;
  } catch {
    return REJECTED;
  }
}
const REJECTED = Symbol("rejected");

/**
 * A canonical form that keeps key order, tells -0 from 0 and notices foreign
 * prototypes: stricter than toStrictEqual, which also trips over a key named
 * `constructor` holding an object (it compares a.constructor === b.constructor).
 */
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

const dir = mkdtempSync(join(tmpdir(), "rentctl-yaml-readers-"));
let files = 0;
function fileOf(text: string): string {
  const f = join(dir, `t${files++}.yaml`);
  writeFileSync(f, text);
  return f;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

/** A member set as the library sets it (`__proto__` is a member like any other). */
const own = (o: unknown, key: string, value: unknown) =>
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });

/** The streamed reader's events put back together as one value (what the whole parse would be). */
async function streamed(path: string, chunkSize: number): Promise<unknown> {
  let doc: unknown = null;
  let list: unknown[] = [];
  try {
    for await (const e of readDocument(path, "yaml", ["extras", "vehicles"], { chunkSize })) {
      if (e.type === "shape") doc = e.shape === "list" ? list : e.shape === "mapping" ? {} : null;
      else if (e.type === "member") own(doc, e.key, e.value);
      else if (e.type === "open") {
        list = e.key === "" ? (doc as unknown[]) : [];
        if (e.key !== "") own(doc, e.key, list);
      } else if (e.type === "item") list.push(e.value);
    }
  } catch {
    return REJECTED;
  }
  return doc;
}

/** The rows of a fleet file as the fleet reader gives them (vehicle diff, import). */
async function fleetRows(path: string): Promise<unknown> {
  try {
    const rows = [];
    for await (const r of readRows(path, "yaml")) rows.push(r.data);
    return rows;
  } catch {
    return REJECTED;
  }
}

/** The vehicle rows as the account reader gives them (account diff, apply), each without its `extras` member. */
async function accountRows(path: string): Promise<unknown> {
  try {
    const doc = await readAccountDocument(path, "yaml");
    const rows = [];
    for await (const r of doc.vehicles) rows.push(r.data);
    return rows;
  } catch {
    return REJECTED;
  }
}

const show = (v: unknown) => (v === REJECTED ? "rejected" : canon(v));

/** The rows a fleet file of this value has: a list of objects, or `vehicles:` (with `extras:`) one; undefined: no fleet file. */
function rowsOf(v: unknown, account: boolean): unknown[] | undefined {
  const list = Array.isArray(v) ? v : isRecord(v) ? v.vehicles : undefined;
  if (isRecord(v) && Object.keys(v).some((k) => !(account ? ["extras", "vehicles"] : ["vehicles"]).includes(k)))
    return undefined;
  if (isRecord(v) && account && v.extras !== undefined && v.extras !== null && !Array.isArray(v.extras))
    return undefined;
  if (!Array.isArray(list) || !list.every(isRecord)) return undefined;
  if (account && isRecord(v) && Array.isArray(v.extras) && !v.extras.every(isRecord)) return undefined;
  return account
    ? list.map((r) => {
        const { extras: _refs, ...rest } = r;
        return rest;
      })
    : list;
}

const tally = { texts: 0, rejected: 0, streamedItems: 0 };

/** Every reader against the library on one text: the same values, or all refuse. */
async function check(text: string, chunkSize = 64 * 1024): Promise<void> {
  const path = fileOf(text);
  const expected = library(text);
  tally.texts++;
  if (expected === REJECTED) tally.rejected++;
  // a document that is no list and no mapping (a scalar) is no account or fleet file: refused
  const shaped = expected === null || Array.isArray(expected) || isRecord(expected) ? expected : REJECTED;
  expect(show(await streamed(path, chunkSize)), `streamed, chunks of ${chunkSize}: ${JSON.stringify(text)}`).toBe(
    show(shaped),
  );
  if (expected === REJECTED) {
    expect(await fleetRows(path), `fleet reader: ${JSON.stringify(text)}`).toBe(REJECTED);
    expect(await accountRows(path), `account reader: ${JSON.stringify(text)}`).toBe(REJECTED);
    return;
  }
  const fleet = rowsOf(expected, false);
  if (fleet) expect(show(await fleetRows(path)), `fleet reader: ${JSON.stringify(text)}`).toBe(canon(fleet));
  const account = rowsOf(expected, true);
  if (account) expect(show(await accountRows(path)), `account reader: ${JSON.stringify(text)}`).toBe(canon(account));
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

/** A fleet file of items at the first column, as `account export` writes it, or in another style. */
function documents(v: unknown, g: ReturnType<typeof generator>): string[] {
  const items = Array.isArray(v) ? v : [v];
  const out = BLOCK_OPTIONS.map((o) => `vehicles:\n${stringify(items, o)}`);
  out.push(
    `vehicles: ${stringify(items, FLOW_OPTIONS)}`,
    stringify(items),
    `extras: []\nvehicles:\n${stringify(items)}`,
  );
  if (g.rnd() < 0.3) out.push(`# a comment\n---\nvehicles:\n\n${stringify(items, { lineWidth: 0 })}\n# the end\n`);
  return out;
}

describe("the yaml readers against the yaml library (js-yaml)", () => {
  it("a `|+` block scalar at the end of an item reads as the library reads it, in every reader and at every size", async () => {
    const item = (reg: string) =>
      `- vehicle_reg_number: ${reg}\n  price_per_day: 45\n  description: |+\n    Hybrid.\n\n`;
    for (const text of [
      `vehicles:\n${item("A-1")}${item("A-2")}`,
      `vehicles:\n${item("A-1")}\n# between\n${item("A-2")}\n`,
      `extras:\n- option: 1\n  note: |+\n    x\n\nvehicles:\n${item("A-1")}`,
    ]) {
      const expected = library(text) as { vehicles: Array<{ description: string }> };
      expect(expected.vehicles[0]!.description).toMatch(/^Hybrid\.\n\n/);
      for (const size of [1, 7, 64 * 1024]) await check(text, size);
    }
    // over WHOLE_FILE_BYTES: the account reader streams the file (padded with what yaml ignores)
    const text = `vehicles:\n${item("A-1")}${"# pad\n".repeat(Math.ceil(WHOLE_FILE_BYTES / 6) + 10)}${item("A-2")}`;
    const big = fileOf(text);
    const rows = (await accountRows(big)) as Array<{ description: string }>;
    expect(rows.map((r) => r.description)).toEqual(
      (library(text) as { vehicles: Array<{ description: string }> }).vehicles.map((r) => r.description),
    );
    expect(rows[0]!.description).toBe("Hybrid.\n\n");
    expect(show(await fleetRows(big))).toBe(canon((library(text) as { vehicles: unknown[] }).vehicles));
  });

  it("the fleet reader streams a file over WHOLE_FILE_BYTES (json and yaml): the rows of a whole parse", async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => ({
      vehicle_reg_number: `B-${i}`,
      price_per_day: 40 + (i % 9),
      vehicle_description: `car ${i}: "quoted"\n${"x".repeat(700)}`,
    }));
    const json = join(dir, "big.json");
    writeFileSync(json, JSON.stringify({ vehicles: rows }, null, 1));
    const yaml = fileOf(`vehicles:\n${stringify(rows, { lineWidth: 0 })}`);
    for (const [path, format] of [
      [json, "json"],
      [yaml, "yaml"],
    ] as const) {
      const got = [];
      for await (const r of readRows(path, format)) got.push(r.data);
      expect(canon(got)).toBe(canon(rows));
    }
    expect(statSync(json).size).toBeGreaterThan(WHOLE_FILE_BYTES);
    expect(statSync(yaml).size).toBeGreaterThan(WHOLE_FILE_BYTES);
  });

  it("hand-written documents: what account export writes, tricky strings, other layouts", async () => {
    for (const t of [TYPICAL, EXTRA, NAMES, exportOf(3)]) {
      await check(`vehicles:\n${t}`);
      await check(`extras:\n${EXTRA}vehicles:\n${t}`, 7);
      await check(t);
    }
    for (const t of [...ACCEPTED, ...BAILS, INDENTED_ROOT]) {
      await check(t);
      await check(`vehicles:\n${t}`, 3);
      if (t.startsWith("- ")) await check(`extras: []\nvehicles:\n${t}`);
    }
    for (const s of TRICKY) await check(`vehicles:\n${stringify([{ description: s, vehicle_reg_number: "X" }])}`);
  });

  it("random values written in many styles: the same values in every reader", async () => {
    const g = generator(0x5eed);
    const before = tally.texts;
    for (let n = 0; n < 60; n++) {
      const v = g.rnd() < 0.8 ? [g.record(0, n % 5 !== 0), g.record(0, false)] : g.value(0, true);
      for (const text of documents(v, g)) await check(text, g.pick([5, 64, 64 * 1024]));
    }
    console.log(`differential: ${tally.texts - before} texts, ${tally.rejected} rejected by the library`);
    expect(tally.texts - before).toBeGreaterThan(600);
  }, 120_000);

  it("small edits of those texts: the same values, or refused by every reader as by the library", async () => {
    const g = generator(0xb10c);
    const rejectedBefore = tally.rejected;
    let mutants = 0;
    for (let n = 0; n < 120; n++) {
      const text = `vehicles:\n${stringify([g.record(0, n % 3 === 0), g.record(0, false)], g.pick(BLOCK_OPTIONS))}`;
      for (let m = 0; m < 4; m++) {
        await check(g.rnd() < 0.2 ? mutate(mutate(text, g), g) : mutate(text, g), g.pick([5, 64 * 1024]));
        mutants++;
      }
    }
    console.log(`mutations: ${mutants} mutants, ${tally.rejected - rejectedBefore} rejected by the library`);
    expect(tally.rejected - rejectedBefore).toBeGreaterThan(50);
  }, 120_000);

  it("parseYaml: YAML 1.2 core schema; an error names the line and column, with a caret", () => {
    expect(parseYaml("a: on\nb: yes\nc: 2024-01-01\nd: 0o17\ne: ~\nf: True\n")).toEqual({
      a: "on",
      b: "yes",
      c: "2024-01-01",
      d: 15,
      e: null,
      f: true,
    });
    expect(parseYaml("")).toBeNull();
    expect(() => parseYaml("a: 1\nb: 2\na: 3\n")).toThrow(
      /^duplicated mapping key at line 3, column 1:\n\n(.|\n)*\n-+\^/,
    );
    expect(() => parseYaml("[".repeat(5000))).toThrow(/nesting exceeded/);
  });
});
