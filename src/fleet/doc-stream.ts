import { createReadStream } from "node:fs";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { InputError } from "../errors.js";
import { loadYaml } from "../output/yaml.js";
import { checkJson, MAX_DEPTH, MAX_ROW_BYTES, rowTooLarge, Utf8Check } from "./input-limits.js";

/**
 * A json or yaml account / fleet document read as a stream of events: its
 * shape, its top-level members, and the items of its lists one at a time, so
 * that a 10,000-vehicle file is never held whole (neither its text nor its
 * parsed rows): memory stays bounded by the largest item (MAX_ROW_BYTES).
 *
 * json: a scanner over the text chunks checks the whole grammar (any error is
 * `not valid json: <what> at line L column C`), finds the top-level members
 * and the bounds of each item of a streamed list; each item's text is checked
 * (checkJson: members named twice, depth) and given to JSON.parse on its own,
 * so values are exactly those of a whole-document JSON.parse.
 *
 * yaml: a first pass over the lines decides whether the document is laid out
 * as rentctl writes it (top-level `key:` lines and `- ` items at the first
 * column, continuation lines indented; see YamlLayout); then each item's
 * lines are parsed on their own. Any other layout is parsed whole (the yaml
 * package) and the same events are given from the value.
 */

export type DocEvent =
  /** First event: the top-level value is a list (its items are list "" items), a mapping, or empty/null (an empty file, `null`, `~`). */
  | { type: "shape"; shape: "list" | "mapping" | "empty" }
  /** A top-level member whose value is not handed out item by item (any key other than the listed ones, or a listed key whose value is not a list, e.g. `extras:` with nothing = null). */
  | { type: "member"; key: string; value: unknown }
  /** A list-valued top-level member starts (key is "" for the items of a top-level list). */
  | { type: "open"; key: string }
  /** One item of that list, 1-based index within the list. `line` is the 1-based line where the item starts (for messages). */
  | { type: "item"; key: string; index: number; line: number; value: unknown }
  | { type: "close"; key: string };

export interface ReadDocumentOptions {
  /** Parse the text of one yaml item (it starts with `- `: a one-element list) or of one `key: value` line. Default: the yaml package's parse. */
  parseYamlItem?: (text: string) => unknown;
  /** Put before every InputError message (the file as the user named it). */
  label?: string;
  /** Bytes per read (default 64 KiB). */
  chunkSize?: number;
  /** Open the file's bytes (default: createReadStream with the chunk size); yaml opens it twice (layout pass, then items). */
  open?: (path: string, chunkSize: number) => Readable;
}

export const DEFAULT_CHUNK = 64 * 1024;

/** Stream a json or yaml document; `listKeys` are the top-level keys whose list values are handed out item by item (e.g. ["extras", "vehicles"]). */
export async function* readDocument(
  path: string,
  format: "json" | "yaml",
  listKeys: readonly string[],
  opts: ReadDocumentOptions = {},
): AsyncGenerator<DocEvent> {
  const keys = new Set(listKeys);
  const chunks = () =>
    textChunks(
      path,
      opts.label ?? format,
      opts.chunkSize ?? DEFAULT_CHUNK,
      opts.open ?? ((p, size) => createReadStream(p, { highWaterMark: size })),
    );
  try {
    if (format === "json") yield* readJson(chunks, keys);
    else yield* readYaml(chunks, keys, opts.parseYamlItem);
  } catch (e) {
    // every error of the file names the file (then the row or line)
    if (e instanceof InputError && opts.label && !e.message.startsWith(`${opts.label}:`))
      e.message = `${opts.label}: ${e.message}`;
    throw e;
  }
}

/** The file as checked UTF-8 text chunks (the decoder drops a leading BOM); leaving the loop early stops the read. */
async function* textChunks(
  path: string,
  what: string,
  size: number,
  open: (path: string, size: number) => Readable,
): AsyncGenerator<string> {
  const check = new Utf8Check(what);
  pipeline(open(path, size), check).catch(() => {
    // check is destroyed with the error: the loop below sees it
  });
  check.setEncoding("utf8");
  try {
    for await (const chunk of check) yield chunk as string;
  } finally {
    check.destroy();
  }
}

/** What a row is called in messages: `row N` for vehicles (and a top-level list), `extras row N` for another list. */
function rowName(key: string, index: number): string {
  return key === "" || key === "vehicles" ? `row ${index}` : `${key} row ${index}`;
}

function tooLarge(key: string, index: number, line: number): InputError {
  return rowTooLarge(`${key === "" || key === "vehicles" ? "" : `${key}, `}line ${line}`, index);
}

function shapeError(keys: ReadonlySet<string>): InputError {
  const doc = [...keys].map((k) => `${k}: [...]`).join(", ");
  return new InputError(`expected \`{${doc}}\` or a list of vehicles`);
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

/** Events gathered by a synchronous scanner, handed out after each chunk (and before an error found in it). */
async function* drive(
  chunks: AsyncIterable<string>,
  scanner: { feed(s: string): void; end(): void; out: DocEvent[] },
): AsyncGenerator<DocEvent> {
  let failed = false;
  let failure: unknown;
  try {
    for await (const chunk of chunks) {
      scanner.feed(chunk);
      const out = scanner.out;
      scanner.out = [];
      for (const e of out) yield e;
    }
    scanner.end();
  } catch (e) {
    failed = true;
    failure = e;
  }
  for (const e of scanner.out) yield e;
  scanner.out = [];
  if (failed) throw failure;
}

// ---------------------------------------------------------------- json

async function* readJson(chunks: () => AsyncIterable<string>, keys: ReadonlySet<string>): AsyncGenerator<DocEvent> {
  yield* drive(chunks(), new JsonScanner(keys));
}

// what is expected next
const VALUE = 0;
const ARRAY_FIRST = 1; // after `[`: a value or `]`
const OBJECT_FIRST = 2; // after `{`: a member name or `}`
const KEY = 3; // after `,` in an object
const COLON = 4;
const AFTER = 5; // after a value: `,` or the container's close
const STRING = 6;
const NUMBER = 7;
const LITERAL = 8;
const DONE = 9; // the top-level value is complete: only white space may follow

// number states: after `-`, after a leading 0, in the integer, after `.`, in the fraction, after `e`, after its sign, in the exponent
const N_SIGN = 0;
const N_ZERO = 1;
const N_INT = 2;
const N_DOT = 3;
const N_FRAC = 4;
const N_E = 5;
const N_ESIGN = 6;
const N_EXP = 7;

// the top-level value
const TOP_NONE = 0;
const TOP_LIST = 1;
const TOP_MAPPING = 2;
const TOP_NULL = 3;

// what the text being kept is
const CAP_NONE = 0;
const CAP_ITEM = 1;
const CAP_MEMBER = 2;
const CAP_KEY = 3;

/** A character in a message: quoted, or its code point when it is invisible (a BOM, a control or format character). */
const show = (c: number): string =>
  c < 0x20 ||
  (c >= 0x7f && c <= 0xa0) ||
  (c >= 0x2000 && c <= 0x200f) ||
  (c >= 0x2028 && c <= 0x202f) ||
  c === 0xfeff ||
  (c >= 0xd800 && c <= 0xdfff)
    ? `U+${c.toString(16).toUpperCase().padStart(4, "0")}`
    : JSON.stringify(String.fromCharCode(c));
const isHex = (c: number): boolean => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

/**
 * A JSON scanner fed text chunks. It checks the grammar as JSON.parse does
 * (strings, escapes, numbers, literals, nesting, one value), keeps only the
 * text of the item or member being read, and hands out events in `out`.
 */
class JsonScanner {
  out: DocEvent[] = [];
  #state = VALUE;
  /** The open containers: 0 object, 1 array. */
  #stack: number[] = [];
  #num = N_SIGN;
  #lit = "";
  #litPos = 0;
  /** In a string: 0, 1 after a backslash, 2..5 in the hex digits of \u. */
  #esc = 0;
  #strIsKey = false;
  #top = TOP_NONE;
  #seen = new Set<string>();
  /** The top-level member being read. */
  #key = "";
  /** The list whose items are handed out, and the depth of its items (-1: none). */
  #listKey = "";
  #listDepth = -1;
  #index = 0;
  #cap = CAP_NONE;
  #capDepth = 0;
  #capStart = 0;
  #capParts: string[] = [];
  #capLen = 0;
  #capLine = 0;
  #chunk = "";
  /** Offset of the chunk in the text, the current line and the offset where it starts. */
  #base = 0;
  #line = 1;
  #lineStart = 0;

  constructor(readonly keys: ReadonlySet<string>) {}

  feed(s: string): void {
    const n = s.length;
    let i = 0;
    this.#chunk = s;
    while (i < n) {
      const state = this.#state;
      if (state === STRING) i = this.#string(s, i);
      else if (state === NUMBER) i = this.#number(s, i);
      else if (state === LITERAL) i = this.#literal(s, i);
      else {
        let c = s.charCodeAt(i);
        while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
          if (c === 0x0a) {
            this.#line++;
            this.#lineStart = this.#base + i + 1;
          }
          if (++i === n) break;
          c = s.charCodeAt(i);
        }
        if (i < n) i = this.#token(i, c);
      }
    }
    if (this.#cap !== CAP_NONE) {
      this.#capParts.push(s.slice(this.#capStart));
      this.#capLen += n - this.#capStart;
      this.#capStart = 0;
      if (this.#capLen > MAX_ROW_BYTES) throw this.#tooLarge();
    }
    this.#base += n;
  }

  end(): void {
    this.#chunk = "";
    if (this.#state !== DONE) throw this.#bad("unexpected end of input", 0);
    if (this.#top === TOP_NULL) this.out.push({ type: "shape", shape: "empty" });
  }

  #bad(what: string, i: number): InputError {
    const col = this.#base + i - this.#lineStart + 1;
    return new InputError(`not valid json: ${what} at line ${this.#line} column ${col}`);
  }

  #where(): string {
    if (this.#cap === CAP_ITEM) return rowName(this.#listKey, this.#index);
    if (this.#cap === CAP_MEMBER) return `member ${JSON.stringify(this.#key)}`;
    return "the document";
  }

  #tooLarge(): InputError {
    if (this.#cap === CAP_ITEM) return tooLarge(this.#listKey, this.#index, this.#capLine);
    const what = this.#cap === CAP_MEMBER ? `member ${JSON.stringify(this.#key)}` : "a member name";
    return new InputError(
      `line ${this.#capLine}: ${what} is larger than the limit (${MAX_ROW_BYTES / 1024 / 1024} MiB); nothing was sent`,
    );
  }

  #token(i: number, c: number): number {
    const state = this.#state;
    if (state === VALUE) return this.#value(i, c);
    if (state === AFTER) {
      const inArray = this.#stack[this.#stack.length - 1] === 1;
      if (c === 0x2c) {
        this.#state = inArray ? VALUE : KEY;
        return i + 1;
      }
      if (c === (inArray ? 0x5d : 0x7d)) return this.#close(i);
      throw this.#bad(`expected "," or "${inArray ? "]" : "}"}" but found ${show(c)}`, i);
    }
    if (state === ARRAY_FIRST) return c === 0x5d ? this.#close(i) : this.#value(i, c);
    if (state === OBJECT_FIRST && c === 0x7d) return this.#close(i);
    if (state === OBJECT_FIRST || state === KEY) {
      if (c !== 0x22) throw this.#bad(`expected a member name in double quotes but found ${show(c)}`, i);
      this.#state = STRING;
      this.#strIsKey = true;
      this.#esc = 0;
      if (this.#top === TOP_MAPPING && this.#stack.length === 1) this.#begin(CAP_KEY, i);
      return i + 1;
    }
    if (state === COLON) {
      if (c !== 0x3a) throw this.#bad(`expected ":" after the member name but found ${show(c)}`, i);
      this.#state = VALUE;
      return i + 1;
    }
    throw this.#bad(`unexpected ${show(c)} after the end of the document`, i);
  }

  #value(i: number, c: number): number {
    let next: number;
    if (c === 0x7b || c === 0x5b) next = c === 0x7b ? OBJECT_FIRST : ARRAY_FIRST;
    else if (c === 0x22) next = STRING;
    else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) next = NUMBER;
    else if (c === 0x74 || c === 0x66 || c === 0x6e) next = LITERAL;
    else throw this.#bad(`unexpected ${show(c)}`, i);
    const d = this.#stack.length;
    if (d === 0) {
      if (c === 0x7b) {
        this.#top = TOP_MAPPING;
        this.out.push({ type: "shape", shape: "mapping" });
      } else if (c === 0x5b) {
        this.#top = TOP_LIST;
        this.out.push({ type: "shape", shape: "list" }, { type: "open", key: "" });
        this.#listKey = "";
        this.#listDepth = 1;
        this.#index = 0;
      } else if (c === 0x6e) this.#top = TOP_NULL;
      else throw shapeError(this.keys);
    } else if (d === this.#listDepth) {
      this.#index++;
      this.#begin(CAP_ITEM, i);
    } else if (d === 1 && this.#top === TOP_MAPPING) {
      if (c === 0x5b && this.keys.has(this.#key)) {
        this.out.push({ type: "open", key: this.#key });
        this.#listKey = this.#key;
        this.#listDepth = 2;
        this.#index = 0;
      } else this.#begin(CAP_MEMBER, i);
    }
    this.#state = next;
    if (next === OBJECT_FIRST || next === ARRAY_FIRST) {
      this.#stack.push(c === 0x7b ? 0 : 1);
      if (this.#stack.length > MAX_DEPTH)
        throw new InputError(`${this.#where()}: nesting deeper than ${MAX_DEPTH} levels; nothing was sent`);
    } else if (next === STRING) {
      this.#strIsKey = false;
      this.#esc = 0;
    } else if (next === NUMBER) this.#num = c === 0x2d ? N_SIGN : c === 0x30 ? N_ZERO : N_INT;
    else {
      this.#lit = c === 0x74 ? "true" : c === 0x66 ? "false" : "null";
      this.#litPos = 1;
    }
    return i + 1;
  }

  #close(i: number): number {
    this.#stack.pop();
    this.#valueEnd(i + 1);
    return i + 1;
  }

  /** A value ended just before `end` (an offset in the chunk). */
  #valueEnd(end: number): void {
    const d = this.#stack.length;
    if (this.#cap !== CAP_NONE && this.#capDepth === d) this.#finish(end);
    else if (d === 1 && this.#listDepth === 2) {
      // the streamed list of a member closed
      this.out.push({ type: "close", key: this.#listKey });
      this.#listDepth = -1;
    } else if (d === 0 && this.#top === TOP_LIST) this.out.push({ type: "close", key: "" });
    this.#state = d === 0 ? DONE : AFTER;
  }

  #begin(kind: number, i: number): void {
    this.#cap = kind;
    this.#capDepth = this.#stack.length;
    this.#capStart = i;
    this.#capParts = [];
    this.#capLen = 0;
    this.#capLine = this.#line;
  }

  #take(end: number): string {
    const tail = this.#chunk.slice(this.#capStart, end);
    if (this.#capLen + tail.length > MAX_ROW_BYTES) throw this.#tooLarge();
    const text = this.#capParts.length ? this.#capParts.join("") + tail : tail;
    this.#capParts = [];
    this.#capLen = 0;
    return text;
  }

  #finish(end: number): void {
    const text = this.#take(end);
    const where = this.#where();
    const kind = this.#cap;
    this.#cap = CAP_NONE;
    let value: unknown;
    try {
      // checkJson parses the text when it finds nothing wrong (no second parse)
      value = (checkJson(text, () => where) ?? { value: JSON.parse(text) }).value;
    } catch (e) {
      if (e instanceof InputError) throw e;
      // the scanner has checked the grammar: not expected
      throw new InputError(`not valid json: ${where}: ${(e as Error).message}`);
    }
    if (kind === CAP_ITEM)
      this.out.push({ type: "item", key: this.#listKey, index: this.#index, line: this.#capLine, value });
    else this.out.push({ type: "member", key: this.#key, value });
  }

  #string(s: string, i: number): number {
    const n = s.length;
    while (i < n) {
      if (this.#esc === 0) {
        let c = 0;
        for (; i < n; i++) {
          c = s.charCodeAt(i);
          if (c === 0x22 || c === 0x5c || c < 0x20) break;
        }
        if (i === n) return n;
        if (c === 0x22) {
          i++;
          if (!this.#strIsKey) this.#valueEnd(i);
          else {
            if (this.#cap === CAP_KEY) this.#keyEnd(i);
            this.#state = COLON;
          }
          return i;
        }
        if (c === 0x5c) {
          this.#esc = 1;
          i++;
          continue;
        }
        throw this.#bad(`control character ${show(c)} in a string`, i);
      }
      const c = s.charCodeAt(i);
      if (this.#esc === 1) {
        if (c === 0x75) this.#esc = 2;
        else if (
          c === 0x22 ||
          c === 0x5c ||
          c === 0x2f ||
          c === 0x62 ||
          c === 0x66 ||
          c === 0x6e ||
          c === 0x72 ||
          c === 0x74
        )
          this.#esc = 0;
        else throw this.#bad(`bad escape \\${String.fromCharCode(c)} in a string`, i);
      } else {
        if (!isHex(c)) throw this.#bad(`bad \\u escape in a string (${show(c)} is not a hex digit)`, i);
        this.#esc = this.#esc === 5 ? 0 : this.#esc + 1;
      }
      i++;
    }
    return i;
  }

  #keyEnd(end: number): void {
    const text = this.#take(end);
    this.#cap = CAP_NONE;
    const key = text.includes("\\") ? (JSON.parse(text) as string) : text.slice(1, -1);
    if (this.#seen.has(key))
      throw new InputError(`the document: member ${JSON.stringify(key)} is given twice in one object`, {
        hint: "keep one of them: JSON readers disagree on which one wins",
      });
    this.#seen.add(key);
    this.#key = key;
  }

  #number(s: string, i: number): number {
    const n = s.length;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      const digit = c >= 0x30 && c <= 0x39;
      const exp = c === 0x65 || c === 0x45;
      switch (this.#num) {
        case N_SIGN:
          if (!digit) throw this.#bad(`expected a digit after "-" but found ${show(c)}`, i);
          this.#num = c === 0x30 ? N_ZERO : N_INT;
          break;
        case N_ZERO:
        case N_INT:
          if (digit && this.#num === N_INT) break;
          if (c === 0x2e) this.#num = N_DOT;
          else if (exp) this.#num = N_E;
          else return this.#numberEnd(i);
          break;
        case N_DOT:
          if (!digit) throw this.#bad(`expected a digit after "." but found ${show(c)}`, i);
          this.#num = N_FRAC;
          break;
        case N_FRAC:
          if (digit) break;
          if (exp) this.#num = N_E;
          else return this.#numberEnd(i);
          break;
        case N_E:
          if (c === 0x2b || c === 0x2d) this.#num = N_ESIGN;
          else if (digit) this.#num = N_EXP;
          else throw this.#bad(`expected the exponent's digits but found ${show(c)}`, i);
          break;
        case N_ESIGN:
          if (!digit) throw this.#bad(`expected the exponent's digits but found ${show(c)}`, i);
          this.#num = N_EXP;
          break;
        default:
          if (!digit) return this.#numberEnd(i);
      }
    }
    return n;
  }

  #numberEnd(i: number): number {
    this.#valueEnd(i);
    return i;
  }

  #literal(s: string, i: number): number {
    const n = s.length;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c !== this.#lit.charCodeAt(this.#litPos))
        throw this.#bad(`unexpected ${show(c)} (expected ${JSON.stringify(this.#lit)})`, i);
      if (++this.#litPos === this.#lit.length) {
        this.#valueEnd(i + 1);
        return i + 1;
      }
    }
    return n;
  }
}

// ---------------------------------------------------------------- yaml

async function* readYaml(
  chunks: () => AsyncIterable<string>,
  keys: ReadonlySet<string>,
  parseItem: ((text: string) => unknown) | undefined,
): AsyncGenerator<DocEvent> {
  // first pass: the layout, decided before any event is given
  const layout = new YamlLayout(keys);
  for await (const chunk of chunks()) {
    layout.feed(chunk);
    if (layout.fallback) break;
  }
  if (!layout.fallback) layout.end();
  if (layout.fallback) {
    yield* wholeYaml(chunks(), keys);
    return;
  }
  if (layout.mode === MODE_START) {
    yield { type: "shape", shape: "empty" };
    return;
  }
  yield { type: "shape", shape: layout.mode === MODE_LIST ? "list" : "mapping" };
  let parse = parseItem;
  if (!parse) {
    const yaml = await loadYaml();
    parse = (text) => yaml.parse(text, { logLevel: "error" });
  }
  yield* drive(chunks(), new YamlLayout(keys, { parse, mode: layout.mode }));
}

const MODE_START = 0;
const MODE_LIST = 1;
const MODE_MAP = 2;

/** A top-level key line: a plain name at the first column, `:`, then nothing, a comment or a one-line value. */
const KEY_LINE = /^([A-Za-z_$][\w$.-]*):(?: +(.*))?$/;
/** Names the yaml core schema reads as null or a boolean (`null:` is the key "" in JS). */
const NOT_A_NAME = /^(?:null|Null|NULL|true|True|TRUE|false|False|FALSE)$/;
/** An anchor, an alias or a tag where a node starts (line start, after `- `, `? `, `: `, or a flow indicator). */
export const NODE_PROPERTY = /(?:^[ \t]*|[-?:][ \t]+|[[{,][ \t]*)[&*!]/m;
const LONE_CR = /\r(?!\n)/;
const QUOTED = /^(?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*')(?:[ \t]+#.*)?[ \t]*$/;
const EMPTY_FLOW = /^(\[\]|\{\})(?:[ \t]+#.*)?[ \t]*$/;
const DOC_START = /^---(?:[ \t]+#.*)?[ \t]*$/;
const HEAD = 1024;

/** How a one-line top-level value reads: "" nothing (a list may follow), "[]" / "{}", "scalar", or undefined (another layout). */
function oneLineValue(v: string): "" | "[]" | "{}" | "scalar" | undefined {
  const t = v.replace(/^ +/, "");
  if (t === "" || t.startsWith("#")) return "";
  const flow = EMPTY_FLOW.exec(t);
  if (flow) return flow[1] as "[]" | "{}";
  const c = t[0]!;
  if ("[]{}|>&*!%@`,".includes(c)) return undefined;
  if ((c === "-" || c === "?" || c === ":") && (t.length === 1 || t[1] === " " || t[1] === "\t")) return undefined;
  if (c === '"' || c === "'") return QUOTED.test(t) ? "scalar" : undefined;
  return "scalar";
}

/**
 * The lines of a yaml document at the first column. Without `emit` (the
 * first pass) it only decides whether the document has the streamed layout
 * (`fallback` says why not); with it, it gives the events, each item's lines
 * parsed on their own.
 *
 * The layout: top-level `key:` lines (a plain name) with nothing after them
 * (a list of `- ` items at the first column may follow, or one indented `[]`
 * line), or a one-line value (`$schema: ./x.json`, `vehicles: []`); or a
 * top-level list of `- ` items; an item's continuation lines are indented;
 * comments and blank lines anywhere; a `---` first line. Anything else
 * (flow collections, indented items, anchors, aliases and tags, documents,
 * directives, multi-line top-level scalars, a key given twice) is another
 * layout.
 */
class YamlLayout {
  out: DocEvent[] = [];
  fallback: string | undefined;
  mode = MODE_START;
  readonly #emit: { parse: (text: string) => unknown; mode: number } | undefined;
  #lineNo = 0;
  #parts: string[] = [];
  #len = 0;
  #long = false;
  #tail = "";
  #crAtEnd = false;
  #docStart = false;
  #seen = new Set<string>();
  /** The key of the last key line when it had no value (its list, or an indented `[]`/`{}`, may follow). */
  #pending: string | undefined;
  #pendingFlow = "";
  #listOpen: string | undefined;
  #index = 0;
  #inItem = false;
  #item: string[] = [];
  #itemLen = 0;
  /**
   * Blank and comment lines after an item's last content line: they join the
   * item if more of its content follows (or, at its end, if they fit), and
   * are dropped otherwise, so that a long run of comments between items is no
   * "row larger than the limit". (What is dropped is trivia, except the
   * trailing blank lines of a keep-chomped `|+` scalar over 1 MiB of them.)
   */
  #trivia: string[] = [];
  #triviaLen = 0;
  #triviaOver = false;
  #itemLine = 0;

  constructor(
    readonly keys: ReadonlySet<string>,
    emit?: { parse: (text: string) => unknown; mode: number },
  ) {
    this.#emit = emit;
  }

  feed(s: string): void {
    let from = 0;
    if (!this.#emit) {
      this.#scan(s);
      if (this.fallback) return;
    }
    for (let nl = s.indexOf("\n", from); nl !== -1; nl = s.indexOf("\n", from)) {
      const piece = s.slice(from, nl + 1);
      let text = piece;
      const long = this.#long;
      if (long) text = this.#parts[0]!;
      else if (this.#parts.length) {
        this.#parts.push(piece);
        text = this.#parts.join("");
      }
      this.#parts = [];
      this.#len = 0;
      this.#long = false;
      from = nl + 1;
      this.#lineNo++;
      const why = this.#line(text, long);
      if (why) this.#fail(why);
      if (this.fallback) return;
    }
    if (from < s.length) {
      const piece = s.slice(from);
      this.#len += piece.length;
      if (!this.#long) {
        this.#parts.push(piece);
        if (this.#grew(this.#len, this.#parts[0]!)) {
          this.#long = true;
          this.#parts = [this.#parts.join("").slice(0, HEAD)];
        }
      }
    }
  }

  end(): void {
    if (!this.#emit && this.#crAtEnd) this.fallback = "a carriage return alone";
    if (this.#parts.length) {
      const long = this.#long;
      const text = long ? this.#parts[0]! : this.#parts.join("");
      this.#parts = [];
      this.#lineNo++;
      const why = this.#line(text, long);
      if (why) this.#fail(why);
    }
    if (this.fallback) return;
    if (this.#emit) {
      this.#finishItem();
      this.#endSection();
      if (this.mode !== this.#emit.mode) throw changed();
    }
  }

  /** First pass, on the raw text: anchors, aliases, tags, and a carriage return not before a line feed. */
  #scan(s: string): void {
    if (this.#crAtEnd && s.length > 0 && s.charCodeAt(0) !== 0x0a) this.fallback = "a carriage return alone";
    const text = this.#tail + s;
    if (NODE_PROPERTY.test(text)) this.fallback = "an anchor, alias or tag";
    else if (LONE_CR.test(s.endsWith("\r") ? s.slice(0, -1) : s)) this.fallback = "a carriage return alone";
    if (s.length > 0) this.#crAtEnd = s.endsWith("\r");
    this.#tail = text.slice(-64);
  }

  /** An unfinished line has `len` characters: refuse an item over the limit now; true to keep only its head. */
  #grew(len: number, head: string): boolean {
    if (this.#emit) {
      const c = head.charCodeAt(0);
      if (c === 0x2d /* - */ && len > MAX_ROW_BYTES) {
        const key = this.#listOpen ?? this.#pending ?? "";
        throw tooLarge(key, this.#listOpen === undefined ? 1 : this.#index + 1, this.#lineNo + 1);
      }
      if (this.#inItem && (c === 0x20 || c === 0x09 || c === 0x0d) && this.#itemLen + len > MAX_ROW_BYTES)
        throw tooLarge(this.#listOpen ?? "", this.#index, this.#itemLine);
    }
    return len > MAX_ROW_BYTES;
  }

  #fail(why: string): void {
    if (this.#emit) throw changed();
    this.fallback = why;
  }

  /** Take one line (with its line break); what makes it another layout, if it does. */
  #line(text: string, long: boolean): string | undefined {
    const content =
      text.charCodeAt(text.length - 1) === 0x0a
        ? text.slice(0, text.charCodeAt(text.length - 2) === 0x0d ? -2 : -1)
        : text;
    const c = content.charCodeAt(0);
    if (content === "" || c === 0x20 || c === 0x09 || c === 0x23 /* # */) {
      if (this.#inItem) {
        const t = content.trimStart();
        if (t === "" || t.charCodeAt(0) === 0x23) this.#appendTrivia(text);
        else this.#append(text);
        return;
      }
      if (c === 0x23) return;
      // yaml reads a tab in the indentation of some lines outside a list as an error
      if (content.includes("\t")) return "a tab outside a list item";
      const t = content.replace(/^ +/, ""); // not trim(): yaml does not read a BOM or U+00A0 as space
      if (t === "" || t.startsWith("#")) return;
      const flow = EMPTY_FLOW.exec(t);
      if (flow && this.#pending !== undefined && this.#pendingFlow === "") {
        this.#pendingFlow = flow[1]!;
        return;
      }
      return "indented content outside a list item";
    }
    if (c === 0x2d && (content.length === 1 || content.charCodeAt(1) === 0x20)) {
      if (this.mode === MODE_START) this.mode = MODE_LIST;
      else if (
        this.mode === MODE_MAP &&
        !(this.#pending !== undefined && this.keys.has(this.#pending) && this.#pendingFlow === "")
      )
        return "a list item where no list is";
      if (this.#emit) this.#beginItem(text);
      this.#inItem = true;
      return;
    }
    if (this.#emit) this.#finishItem();
    this.#inItem = false;
    if (this.mode === MODE_START && !this.#docStart && DOC_START.test(content)) {
      this.#docStart = true;
      return;
    }
    const m = long || this.mode === MODE_LIST || content.includes("\t") ? null : KEY_LINE.exec(content);
    if (!m) return "a line of another layout";
    const key = m[1]!;
    const value = oneLineValue(m[2] ?? "");
    if (NOT_A_NAME.test(key) || this.#seen.has(key) || value === undefined) return "a top-level key of another layout";
    this.#seen.add(key);
    this.mode = MODE_MAP;
    if (this.#emit) this.#endSection();
    this.#pending = value === "" ? key : undefined;
    this.#pendingFlow = "";
    if (this.#emit && value !== "") this.#keyValue(key, text);
  }

  #appendTrivia(text: string): void {
    if (!this.#emit || this.#triviaOver) return;
    this.#triviaLen += text.length;
    if (this.#triviaLen > MAX_ROW_BYTES) {
      this.#triviaOver = true;
      this.#trivia = [];
    } else this.#trivia.push(text);
  }

  /** The trivia before a content line of the item: part of it. */
  #takeTrivia(): void {
    if (this.#triviaOver) throw tooLarge(this.#listOpen ?? "", this.#index, this.#itemLine);
    const lines = this.#trivia;
    this.#trivia = [];
    this.#triviaLen = 0;
    for (const t of lines) {
      this.#itemLen += t.length;
      if (this.#itemLen > MAX_ROW_BYTES) throw tooLarge(this.#listOpen ?? "", this.#index, this.#itemLine);
      this.#item.push(t);
    }
  }

  #append(text: string): void {
    if (!this.#emit) return;
    if (this.#trivia.length || this.#triviaOver) this.#takeTrivia();
    this.#itemLen += text.length;
    if (this.#itemLen > MAX_ROW_BYTES) throw tooLarge(this.#listOpen ?? "", this.#index, this.#itemLine);
    this.#item.push(text);
  }

  #beginItem(text: string): void {
    this.#finishItem();
    if (this.#listOpen === undefined) {
      const key = this.mode === MODE_LIST ? "" : this.#pending!;
      this.out.push({ type: "open", key });
      this.#listOpen = key;
      this.#index = 0;
    }
    this.#index++;
    this.#itemLine = this.#lineNo;
    this.#item = [];
    this.#itemLen = 0;
    this.#append(text);
  }

  #finishItem(): void {
    if (!this.#inItem || !this.#emit) return;
    this.#inItem = false;
    // trailing trivia: kept when it fits (the item's text as written), else dropped
    if (!this.#triviaOver && this.#itemLen + this.#triviaLen <= MAX_ROW_BYTES) this.#item.push(...this.#trivia);
    this.#trivia = [];
    this.#triviaLen = 0;
    this.#triviaOver = false;
    const text = this.#item.length === 1 ? this.#item[0]! : this.#item.join("");
    this.#item = [];
    const deep = yamlTooDeep(text);
    if (deep) throw tooDeep(this.#itemLine + deep - 1, rowName(this.#listOpen!, this.#index));
    const v = parseWith(this.#emit.parse, text, this.#itemLine);
    if (!Array.isArray(v) || v.length !== 1)
      throw new InputError(`not valid yaml: the item at line ${this.#itemLine} does not read as one list item`);
    this.out.push({ type: "item", key: this.#listOpen!, index: this.#index, line: this.#itemLine, value: v[0] });
  }

  /** A key line or the end: close the open list, or give the member whose key line had no value. */
  #endSection(): void {
    if (this.#listOpen !== undefined) {
      this.out.push({ type: "close", key: this.#listOpen });
      this.#listOpen = undefined;
    } else if (this.#pending !== undefined) {
      const key = this.#pending;
      if (this.#pendingFlow === "[]" && this.keys.has(key))
        this.out.push({ type: "open", key }, { type: "close", key });
      else
        this.out.push({
          type: "member",
          key,
          value: this.#pendingFlow === "[]" ? [] : this.#pendingFlow === "{}" ? {} : null, // `key:` with nothing under it is null
        });
    }
    this.#pending = undefined;
  }

  #keyValue(key: string, text: string): void {
    const doc = parseWith(this.#emit!.parse, text, this.#lineNo);
    if (!isPlainObject(doc) || !Object.hasOwn(doc, key)) throw changed();
    const value = doc[key];
    if (Array.isArray(value) && this.keys.has(key)) {
      this.out.push({ type: "open", key });
      for (const [i, v] of value.entries())
        this.out.push({ type: "item", key, index: i + 1, line: this.#lineNo, value: v });
      this.out.push({ type: "close", key });
    } else this.out.push({ type: "member", key, value });
  }
}

/**
 * The yaml package reads nesting by recursion: a few thousand levels exhaust
 * the stack, and V8 may then abort the whole process (a regular expression
 * compiled near the stack's end fails as "out of memory") instead of
 * throwing. A yaml text is refused before it is parsed when it may nest
 * deeper than this: flow brackets open at once, or a line's indentation and
 * `- ` / `? ` indicators (each block level takes at least one column).
 */
const YAML_NESTING = 256;

/** The 1-based line (in `text`) where `text` may nest deeper than YAML_NESTING levels; 0 when it cannot. */
function yamlTooDeep(text: string): number {
  let flow = 0;
  let line = 1;
  let prefix = 0;
  let inPrefix = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) {
      line++;
      prefix = 0;
      inPrefix = true;
      continue;
    }
    if (c === 0x5b || c === 0x7b) {
      if (++flow > YAML_NESTING) return line;
    } else if ((c === 0x5d || c === 0x7d) && flow > 0) flow--;
    if (inPrefix) {
      const d = text.charCodeAt(i + 1);
      if (c === 0x20 || c === 0x09 || ((c === 0x2d || c === 0x3f) && (d === 0x20 || d === 0x09))) {
        if (++prefix > YAML_NESTING) return line;
      } else inPrefix = false;
    }
  }
  return 0;
}

function tooDeep(line: number, row?: string): InputError {
  return new InputError(
    `line ${line}: ${row ? `${row} is ` : ""}nested too deeply (over ${YAML_NESTING} levels or columns of indentation); nothing was sent`,
  );
}

function changed(): InputError {
  return new InputError("the file changed while it was read; read it again");
}

/** Parse a part of the document that starts at `line`: an error names the line in the file. */
function parseWith(parse: (text: string) => unknown, text: string, line: number): unknown {
  try {
    return parse(text);
  } catch (e) {
    // a symbol is the caller's own signal (src/account/file.ts: load the yaml package, read again)
    if (typeof e === "symbol") throw e;
    throw yamlError(e, line);
  }
}

function yamlError(e: unknown, line: number): InputError {
  if (e instanceof InputError) return e;
  const msg = e instanceof Error ? e.message : String(e);
  return new InputError(
    `not valid yaml: ${msg.replace(/ at line (\d+), column (\d+)/, (_, l: string, c: string) => ` at line ${Number(l) + line - 1}, column ${c}`)}`,
  );
}

/** Another layout: the whole text parsed by the yaml package, then the same events from its value. */
async function* wholeYaml(chunks: AsyncIterable<string>, keys: ReadonlySet<string>): AsyncGenerator<DocEvent> {
  const parts: string[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  const text = parts.join("");
  parts.length = 0;
  const deep = yamlTooDeep(text);
  if (deep) throw tooDeep(deep);
  const yaml = await loadYaml();
  let doc: ReturnType<typeof yaml.parseDocument>;
  let value: unknown;
  try {
    doc = yaml.parseDocument(text, { logLevel: "error" });
    if (doc.errors.length) throw doc.errors[0];
    value = doc.toJS();
  } catch (e) {
    throw yamlError(e, 1);
  }
  if (value === null || value === undefined) {
    yield { type: "shape", shape: "empty" };
    return;
  }
  let starts: number[] | undefined;
  const lineAt = (offset: number): number => {
    if (!starts) {
      starts = [0];
      for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
    }
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  /** The list's items as nodes (for their lines and sizes), when they can be found. */
  const nodesOf = (node: unknown): Array<{ range?: unknown }> => {
    let n = node;
    if (yaml.isAlias(n)) n = n.resolve(doc);
    return yaml.isSeq(n) ? (n.items as Array<{ range?: unknown }>) : [];
  };
  function* list(key: string, items: unknown[], nodes: Array<{ range?: unknown }>, at: number): Generator<DocEvent> {
    yield { type: "open", key };
    for (let i = 0; i < items.length; i++) {
      const range = nodes[i]?.range as [number, number, number] | undefined;
      const line = range ? lineAt(range[0]) : at;
      if (range && range[2] - range[0] > MAX_ROW_BYTES) throw tooLarge(key, i + 1, line);
      yield { type: "item", key, index: i + 1, line, value: items[i] };
    }
    yield { type: "close", key };
  }
  if (Array.isArray(value)) {
    yield { type: "shape", shape: "list" };
    yield* list("", value, nodesOf(doc.contents), 1);
    return;
  }
  if (!isPlainObject(value)) throw shapeError(keys);
  yield { type: "shape", shape: "mapping" };
  const nodes = new Map<string, { value: unknown; line: number }>();
  if (yaml.isMap(doc.contents))
    for (const pair of doc.contents.items) {
      const k = yaml.isScalar(pair.key) ? pair.key.value : undefined;
      if (typeof k === "string" && keys.has(k)) {
        const range = (pair.key as { range?: [number, number, number] }).range;
        nodes.set(k, { value: pair.value, line: range ? lineAt(range[0]) : 1 });
      }
    }
  for (const [key, v] of Object.entries(value)) {
    const node = nodes.get(key);
    if (Array.isArray(v) && keys.has(key)) yield* list(key, v, nodesOf(node?.value), node?.line ?? 1);
    else yield { type: "member", key, value: v };
  }
}
