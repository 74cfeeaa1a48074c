/**
 * Fast parsers for the block-style YAML subset that rentctl's own exports
 * write (`stringify(records, { lineWidth: 0 })` of the yaml package): block
 * mappings and sequences indented with spaces, single-line plain, single- and
 * double-quoted scalars, one-line flow sequences and `{}`, comments.
 *
 * parseYamlBlock tries the line reader first (src/fleet/yaml-lines.ts: an
 * export's own form, a line at a time), then the descent below (the whole
 * subset, a character at a time). Both are fast paths only: for every text
 * they accept, the value deep-equals what `parse(text)` of the yaml package
 * (v2, YAML 1.2 core schema, unique keys) returns; anything outside the
 * subset, anything irregular and anything the yaml package would reject makes
 * them return undefined, and the caller then parses the text with the yaml
 * package. They never throw.
 */

import { parseYamlLines } from "./yaml-lines.js";

/** The value of a YAML text in the block subset, exactly as `yaml`'s parse(text) returns it; undefined when the text uses anything outside the subset (the caller then parses it with the yaml package). Never throws. */
export function parseYamlBlock(text: string): { value: unknown } | undefined {
  return parseYamlLines(text) ?? parseYamlDescent(text);
}

/** parseYamlBlock without the line reader: the whole subset, by recursive descent. */
export function parseYamlDescent(text: string): { value: unknown } | undefined {
  if (typeof text !== "string" || FORBIDDEN.test(text)) return undefined;
  try {
    return { value: new BlockParser(text).document() };
  } catch {
    // BAIL, and anything unforeseen (a stack overflow on absurd nesting): not in the subset.
    return undefined;
  }
}

/**
 * Characters the subset never contains: tabs, CR, BOM, other C0/C1 controls,
 * NEL and the Unicode line/paragraph separators (yaml gives several of them
 * special meaning; its own output escapes them in double quotes).
 */
const FORBIDDEN = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff]/;

/** Thrown (never created per call) to leave the subset. */
const BAIL = new Error("outside the YAML block subset");

/** Deeper nesting than this is left to yaml (rentctl's records nest 3 levels deep). */
const MAX_DEPTH = 200;

/** yaml rejects implicit keys longer than 1024 characters; stay well below. */
const MAX_KEY = 1000;

// Character codes.
const SPACE = 32;
const LF = 10;
const DASH = 45;
const COLON = 58;
const HASH = 35;
const DQUOTE = 34;
const SQUOTE = 39;
const LBRACKET = 91;
const RBRACKET = 93;
const LBRACE = 123;
const RBRACE = 125;
const COMMA = 44;
const BACKSLASH = 92;
const DOT = 46;

/** The core schema's number forms (yaml v2, schema/core), in the order yaml tries them. */
const INT_OCT = /^0o[0-7]+$/;
const INT = /^[-+]?[0-9]+$/;
const INT_HEX = /^0x[0-9a-fA-F]+$/;
const FLOAT_NAN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;
const HEX = /^[0-9a-fA-F]+$/;

/** Single-character escapes of double-quoted scalars (yaml v2, compose/resolve-flow-scalar). */
const ESCAPES: Record<string, string> = {
  "0": "\0",
  a: "\x07",
  b: "\b",
  e: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  N: "\u0085",
  _: "\u00a0",
  L: "\u2028",
  P: "\u2029",
  " ": " ",
  '"': '"',
  "/": "/",
  "\\": "\\",
};

/**
 * Whether a character may not start a plain scalar (YAML's c-indicator). `-`
 * is handled by the callers (a plain scalar may start with `-` followed by a
 * non-space); `?` and `:` could too but are left to the yaml package.
 */
function isIndicator(c: number): boolean {
  switch (c) {
    case DASH:
    case 63: // ?
    case COLON:
    case COMMA:
    case LBRACKET:
    case RBRACKET:
    case LBRACE:
    case RBRACE:
    case HASH:
    case 38: // &
    case 42: // *
    case 33: // !
    case 124: // |
    case 62: // >
    case SQUOTE:
    case DQUOTE:
    case 37: // %
    case 64: // @
    case 96: // `
      return true;
    default:
      return false;
  }
}

/** A plain scalar's value under the YAML 1.2 core schema, as yaml v2 resolves it; bails on the rarer number forms. */
function resolvePlain(str: string): unknown {
  const c = str.charCodeAt(0);
  if (c >= 48 && c <= 57 && str.length <= 15) {
    // digits only (an id, a price: most values of a row), read without the regexes below
    let i = 1;
    for (; i < str.length; i++) {
      const d = str.charCodeAt(i);
      if (d < 48 || d > 57) break;
    }
    if (i === str.length) return Number(str);
  }
  if ((c >= 48 && c <= 57) || c === DASH || c === 43 /* + */ || c === DOT) {
    if (INT_OCT.test(str)) throw BAIL;
    if (INT.test(str)) {
      const n = Number.parseInt(str, 10);
      if (!Number.isSafeInteger(n)) throw BAIL;
      return n;
    }
    if (INT_HEX.test(str) || FLOAT_NAN.test(str) || FLOAT_EXP.test(str)) throw BAIL;
    if (FLOAT.test(str)) {
      const n = Number.parseFloat(str);
      if (!Number.isFinite(n)) throw BAIL;
      return n;
    }
    return str;
  }
  switch (str) {
    case "~":
    case "null":
    case "Null":
    case "NULL":
      return null;
    case "true":
    case "True":
    case "TRUE":
      return true;
    case "false":
    case "False":
    case "FALSE":
      return false;
    default:
      return str;
  }
}

/**
 * A line-by-line recursive descent over the text. The "current line" is the
 * next line with content (blank and comment-only lines are skipped): it starts
 * at `ls`, its content at `cs` (so its indentation is `cs - ls`), and it ends
 * at `le` (its newline or the end of the text). A node's column is the offset
 * of its first character from `ls`.
 */
class BlockParser {
  private readonly s: string;
  private readonly n: number;
  private ls = 0;
  private cs = 0;
  private le = -1;
  private eof = false;
  /** Set by keyEnd: the key it read. */
  private key = "";
  /** Set by the quoted-scalar readers: the index after the closing quote. */
  private end = 0;
  /** How many block collections enclose the current position. */
  private depth = 0;

  constructor(s: string) {
    this.s = s;
    this.n = s.length;
  }

  document(): unknown {
    this.next();
    if (this.eof) return null;
    if (this.cs !== this.ls) throw BAIL;
    const value = this.node(this.cs);
    if (!this.eof) throw BAIL;
    return value;
  }

  /** Moves to the next line with content, or sets eof. */
  private next(): void {
    const s = this.s;
    const n = this.n;
    let p = this.le + 1;
    while (p < n) {
      let q = p;
      while (q < n && s.charCodeAt(q) === SPACE) q++;
      if (q === n) break;
      const c = s.charCodeAt(q);
      if (c === LF) {
        p = q + 1;
        continue;
      }
      let e = s.indexOf("\n", q);
      if (e < 0) e = n;
      if (c === HASH) {
        p = e + 1;
        continue;
      }
      // Document markers (and anything that looks like one) are left to yaml.
      if (q === p && (s.startsWith("---", q) || s.startsWith("...", q))) throw BAIL;
      this.ls = p;
      this.cs = q;
      this.le = e;
      return;
    }
    this.eof = true;
  }

  /** Whether position i of the current line is a space or its end. */
  private sepOrEnd(i: number): boolean {
    return i >= this.le || this.s.charCodeAt(i) === SPACE;
  }

  /** The node starting at q on the current line: a block sequence, a block mapping or a one-line value. */
  private node(q: number): unknown {
    if (this.s.charCodeAt(q) === DASH && this.sepOrEnd(q + 1)) return this.seq(q);
    const k = this.keyEnd(q);
    if (k >= 0) return this.map(q, k);
    const value = this.inline(q);
    this.next();
    return value;
  }

  private enter(): void {
    if (++this.depth > MAX_DEPTH) throw BAIL;
  }

  /** A block sequence whose first `-` is at q on the current line. */
  private seq(q: number): unknown[] {
    const s = this.s;
    const col = q - this.ls;
    const arr: unknown[] = [];
    this.enter();
    for (;;) {
      let r = q + 1;
      while (r < this.le && s.charCodeAt(r) === SPACE) r++;
      if (r >= this.le || s.charCodeAt(r) === HASH) {
        // `-` alone: the item is the more indented block below, or null.
        this.next();
        arr.push(!this.eof && this.cs - this.ls > col ? this.node(this.cs) : null);
      } else {
        arr.push(this.node(r));
      }
      if (this.eof) break;
      const ind = this.cs - this.ls;
      if (ind < col) break;
      if (ind > col) throw BAIL;
      q = this.cs;
      // A line at this column that is no item ends the sequence; only a mapping
      // holding it as a value at the same column may continue (it checks).
      if (s.charCodeAt(q) !== DASH || !this.sepOrEnd(q + 1)) break;
    }
    this.depth--;
    return arr;
  }

  /** A block mapping whose first key starts at q on the current line, with keyEnd(q) = k. */
  private map(q: number, k: number): Record<string, unknown> {
    const s = this.s;
    const col = q - this.ls;
    const obj: Record<string, unknown> = {};
    this.enter();
    for (;;) {
      const key = this.key;
      if (Object.hasOwn(obj, key)) throw BAIL;
      let r = k;
      while (r < this.le && s.charCodeAt(r) === SPACE) r++;
      let value: unknown;
      if (r >= this.le || s.charCodeAt(r) === HASH) {
        // `key:` alone: the value is the more indented block below, a sequence
        // at the key's own column, or null.
        this.next();
        if (this.eof) value = null;
        else {
          const ind = this.cs - this.ls;
          if (ind > col) value = this.node(this.cs);
          else if (ind === col && s.charCodeAt(this.cs) === DASH && this.sepOrEnd(this.cs + 1))
            value = this.seq(this.cs);
          else value = null;
        }
      } else {
        value = this.inline(r);
        this.next();
      }
      obj[key] = value;
      if (this.eof) break;
      const ind = this.cs - this.ls;
      if (ind < col) break;
      if (ind > col) throw BAIL;
      q = this.cs;
      k = this.keyEnd(q);
      if (k < 0) throw BAIL;
    }
    this.depth--;
    return obj;
  }

  /**
   * If the current line from q is `key:` followed by a space or the line's
   * end, sets this.key and returns the index after the colon; otherwise -1.
   * Bails on keys outside the subset (non-string plain keys, `<<`, `__proto__`,
   * overlong keys).
   */
  private keyEnd(q: number): number {
    const s = this.s;
    const le = this.le;
    const c = s.charCodeAt(q);
    let key: string;
    let i: number;
    if (c === DQUOTE || c === SQUOTE) {
      const quoted = this.quotedOrUndefined(q);
      if (quoted === undefined) return -1;
      i = this.end;
      while (i < le && s.charCodeAt(i) === SPACE) i++;
      if (i >= le || s.charCodeAt(i) !== COLON || !this.sepOrEnd(i + 1)) return -1;
      key = quoted;
    } else {
      if (isIndicator(c)) return -1;
      i = q + 1;
      for (;;) {
        if (i >= le) return -1;
        const ch = s.charCodeAt(i);
        if (ch === COLON && (i + 1 >= le || s.charCodeAt(i + 1) === SPACE)) break;
        if (ch === HASH && s.charCodeAt(i - 1) === SPACE) return -1;
        i++;
      }
      let e = i;
      while (s.charCodeAt(e - 1) === SPACE) e--;
      key = s.slice(q, e);
      if (typeof resolvePlain(key) !== "string") throw BAIL;
    }
    if (i - q > MAX_KEY || key === "<<" || key === "__proto__") throw BAIL;
    this.key = key;
    return i + 1;
  }

  /** A one-line value starting at r (not at the line's end nor a comment) that must take up the rest of the line. */
  private inline(r: number): unknown {
    const s = this.s;
    const c = s.charCodeAt(r);
    let value: unknown;
    let e: number;
    switch (c) {
      case DQUOTE:
        value = this.doubleQuoted(r);
        e = this.end;
        break;
      case SQUOTE:
        value = this.singleQuoted(r);
        e = this.end;
        break;
      case LBRACKET:
        value = this.flowSeq(r);
        e = this.end;
        break;
      case LBRACE:
        value = this.emptyFlowMap(r);
        e = this.end;
        break;
      default:
        if (c === DASH ? this.sepOrEnd(r + 1) : isIndicator(c)) throw BAIL;
        return this.plain(r);
    }
    // Only spaces, then optionally a comment after at least one space.
    let i = e;
    while (i < this.le && s.charCodeAt(i) === SPACE) i++;
    if (i < this.le && (s.charCodeAt(i) !== HASH || i === e)) throw BAIL;
    return value;
  }

  /** A plain scalar from r to the end of the line or a comment. */
  private plain(r: number): unknown {
    const s = this.s;
    const le = this.le;
    let e = le;
    for (let i = r + 1; i < le; i++) {
      const ch = s.charCodeAt(i);
      if (ch === COLON) {
        // `: ` or a final `:` would make a nested mapping, which yaml rejects.
        if (i + 1 >= le || s.charCodeAt(i + 1) === SPACE) throw BAIL;
      } else if (ch === HASH && s.charCodeAt(i - 1) === SPACE) {
        e = i;
        break;
      }
    }
    while (s.charCodeAt(e - 1) === SPACE) e--;
    return resolvePlain(s.slice(r, e));
  }

  private quotedOrUndefined(q: number): string | undefined {
    try {
      return this.s.charCodeAt(q) === DQUOTE ? this.doubleQuoted(q) : this.singleQuoted(q);
    } catch {
      return undefined;
    }
  }

  /** A double-quoted scalar opening at q and closing on the same line; sets this.end. */
  private doubleQuoted(q: number): string {
    const s = this.s;
    const le = this.le;
    let res = "";
    let start = q + 1;
    for (let i = start; i < le; i++) {
      const ch = s.charCodeAt(i);
      if (ch === DQUOTE) {
        this.end = i + 1;
        return res + s.slice(start, i);
      }
      if (ch !== BACKSLASH) continue;
      res += s.slice(start, i);
      i++;
      if (i >= le) throw BAIL;
      const esc = s[i]!;
      const simple = ESCAPES[esc];
      if (simple !== undefined && Object.hasOwn(ESCAPES, esc)) res += simple;
      else {
        const length = esc === "x" ? 2 : esc === "u" ? 4 : esc === "U" ? 8 : 0;
        if (length === 0 || i + length >= le) throw BAIL;
        const hex = s.slice(i + 1, i + 1 + length);
        if (!HEX.test(hex)) throw BAIL;
        const code = Number.parseInt(hex, 16);
        if (code > 0x10ffff) throw BAIL;
        res += String.fromCodePoint(code);
        i += length;
      }
      start = i + 1;
    }
    throw BAIL;
  }

  /** A single-quoted scalar opening at q and closing on the same line; sets this.end. */
  private singleQuoted(q: number): string {
    const s = this.s;
    const le = this.le;
    let res = "";
    let start = q + 1;
    for (let i = start; i < le; i++) {
      if (s.charCodeAt(i) !== SQUOTE) continue;
      if (i + 1 < le && s.charCodeAt(i + 1) === SQUOTE) {
        res += s.slice(start, i + 1);
        i++;
        start = i + 1;
        continue;
      }
      this.end = i + 1;
      return res + s.slice(start, i);
    }
    throw BAIL;
  }

  /** `{}` (spaces allowed inside) at q; sets this.end. */
  private emptyFlowMap(q: number): Record<string, unknown> {
    let i = q + 1;
    while (i < this.le && this.s.charCodeAt(i) === SPACE) i++;
    if (i >= this.le || this.s.charCodeAt(i) !== RBRACE) throw BAIL;
    this.end = i + 1;
    return {};
  }

  /** A one-line flow sequence of scalars, `{}` and such sequences at q; sets this.end. */
  private flowSeq(q: number): unknown[] {
    const s = this.s;
    const le = this.le;
    const arr: unknown[] = [];
    this.enter();
    let i = q + 1;
    while (i < le && s.charCodeAt(i) === SPACE) i++;
    if (i < le && s.charCodeAt(i) === RBRACKET) {
      this.end = i + 1;
      this.depth--;
      return arr;
    }
    for (;;) {
      if (i >= le) throw BAIL;
      const c = s.charCodeAt(i);
      if (c === DQUOTE) {
        arr.push(this.doubleQuoted(i));
        i = this.end;
      } else if (c === SQUOTE) {
        arr.push(this.singleQuoted(i));
        i = this.end;
      } else if (c === LBRACKET) {
        arr.push(this.flowSeq(i));
        i = this.end;
      } else if (c === LBRACE) {
        arr.push(this.emptyFlowMap(i));
        i = this.end;
      } else {
        if (c === DASH ? i + 1 >= le || isFlowEnd(s.charCodeAt(i + 1)) : isIndicator(c)) throw BAIL;
        const start = i;
        for (;;) {
          if (i >= le) throw BAIL;
          const ch = s.charCodeAt(i);
          if (ch === COMMA || ch === RBRACKET) break;
          // Pairs, comments, nested flow and quotes inside: left to yaml.
          if (ch === COLON || ch === HASH || ch === LBRACKET || ch === LBRACE || ch === RBRACE) throw BAIL;
          if (ch === DQUOTE || ch === SQUOTE) throw BAIL;
          i++;
        }
        let e = i;
        while (s.charCodeAt(e - 1) === SPACE) e--;
        arr.push(resolvePlain(s.slice(start, e)));
      }
      while (i < le && s.charCodeAt(i) === SPACE) i++;
      if (i >= le) throw BAIL;
      const sep = s.charCodeAt(i);
      if (sep === RBRACKET) {
        this.end = i + 1;
        this.depth--;
        return arr;
      }
      if (sep !== COMMA) throw BAIL;
      i++;
      while (i < le && s.charCodeAt(i) === SPACE) i++;
      // A trailing comma is valid YAML but rare: left to yaml.
      if (i < le && s.charCodeAt(i) === RBRACKET) throw BAIL;
    }
  }
}

/** Whether a character ends a plain scalar in a flow sequence (or is a space). */
function isFlowEnd(c: number): boolean {
  return c === SPACE || c === COMMA || c === RBRACKET || c === LBRACKET || c === LBRACE || c === RBRACE;
}
