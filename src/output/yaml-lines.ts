/**
 * The fastest reading of rentctl's own yaml exports: a line at a time. It reads
 * block mappings and sequences (a sequence indented under its key or at the
 * key's own column) whose values are one-line scalars: numbers, plain and
 * single- and double-quoted strings, null, true, false, `[]` and `{}`, with blank and
 * comment lines between them. That is what an export writes, and it is read
 * here about twice as fast as by parseYamlBlock's character-by-character
 * descent, with far less garbage: a line's key is found by comparing the text
 * with the key that followed the previous key last time (the rows of a file
 * repeat the same keys in the same order), so most keys are neither sliced out
 * nor looked up, and an integer is read from the text without a slice.
 *
 * Like parseYamlBlock, it is a fast path only: for every text it accepts, the
 * value deep-equals what `parse(text)` of the yaml package returns; anything
 * else (comments after a value, other scalars, other indentation, flow
 * collections, tabs, repeated keys) makes it return undefined, and the caller
 * reads the text the slower way. It never throws.
 */

/** A plain key that yaml reads as this very string (not null, a boolean or a number, nor `__proto__`). */
const KEY = /^(?!(?:null|Null|NULL|true|True|TRUE|false|False|FALSE|__proto__)$)[A-Za-z_][A-Za-z0-9_]{0,999}$/;
/** A number that reads the same in YAML 1.2 core and JavaScript (no leading zero, sign +, exponent or more than 15 integer digits). */
const NUMBER = /^-?(?:0|[1-9][0-9]{0,14})(?:\.[0-9]+)?$/;
/** The numbers of the YAML 1.2 core schema that start with a digit (yaml v2's int, octal, hex, float and exponent forms). */
const CORE_NUMBER = /^(?:0o[0-7]+|0x[0-9a-fA-F]+|[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?)$/;
/** A double-quoted scalar whose escapes mean the same in JSON (and no control, NEL, BOM or line separator). */
const DOUBLE_QUOTED = /^"(?:[^"\\\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"$/;
/** A single-quoted scalar (`''` is a quote; no control, NEL, BOM or line separator). */
const SINGLE_QUOTED = /^'(?:[^'\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff]|'')*'$/;
/**
 * A plain scalar yaml reads as this very string: it starts with a letter or
 * a digit (then it must not be a number: see CORE_NUMBER), holds no control
 * character, `: `, ` #` or final colon, ends with no space, and is none of the
 * null and boolean words.
 */
const PLAIN =
  /^(?!(?:null|Null|NULL|true|True|TRUE|false|False|FALSE)$)[A-Za-z0-9\u00a0-\u2027\u202a-\ufefe\uff00-\ufffd](?:[^:# \x00-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]| (?=[^ #])|:(?=[^ ]))*$/;
/** A comment line: no control character but tab (yaml would end it at a carriage return and read on), NEL, BOM or line separator. */
const COMMENT = /^#[^\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\ufeff]*$/;
/** Deeper nesting is left to the caller (rentctl's records nest 3 levels deep). */
const MAX_DEPTH = 100;
/** The key that followed each key last time (keys are compared with the text, not sliced out of it). */
const nextAfter = new Map<string, string>();
const MAX_KEYS_KEPT = 10_000;
/** V8 keeps this many members fast when they are added by keyed stores (Map::TooManyFastProperties). */
const FAST_MEMBERS = 12;
/** Not a scalar of the subset. */
const NONE = Symbol("none");

/** The value of the one-line scalar from b to e, or NONE. */
function scalarValue(s: string, b: number, e: number): unknown {
  const c = s.charCodeAt(b);
  if (c >= 48 && c <= 57 && e - b <= 15) {
    let n = c - 48;
    let i = b + 1;
    for (; i < e; i++) {
      const d = s.charCodeAt(i);
      if (d < 48 || d > 57) break;
      n = n * 10 + d - 48;
    }
    if (i === e) return c !== 48 || e - b === 1 ? n : NONE;
  }
  const v = s.slice(b, e);
  if ((c >= 48 && c <= 57) || c === 45) {
    if (NUMBER.test(v)) return Number(v);
    // another number form (007, 1e3, 0x1F, -.5): left to the caller; a date or 12:30 is a string
    if (c === 45 || CORE_NUMBER.test(v)) return NONE;
  } else if (c === 34) {
    if (!DOUBLE_QUOTED.test(v)) return NONE;
    return v.indexOf("\\") < 0 ? v.slice(1, -1) : JSON.parse(v);
  } else if (c === 39) {
    if (!SINGLE_QUOTED.test(v)) return NONE;
    return v.slice(1, -1).replaceAll("''", "'");
  }
  switch (v) {
    case "null":
      return null;
    case "true":
      return true;
    case "false":
      return false;
    case "[]":
      return [];
    case "{}":
      return {};
  }
  return PLAIN.test(v) ? v : NONE;
}

/** The value of a text in the line subset, exactly as yaml's parse(text) returns it; undefined otherwise. Never throws. */
export function parseYamlLines(s: string): { value: unknown } | undefined {
  if (typeof s !== "string") return undefined;
  // a hostile file's many keys are not kept
  if (nextAfter.size > MAX_KEYS_KEPT) nextAfter.clear();
  const n = s.length;
  let root: unknown = NONE;
  /** The open collections (arrays and objects), their columns, and which are sequences at their key's own column. */
  const box: unknown[] = [];
  const col: number[] = [];
  const isMap: boolean[] = [];
  const sameCol: boolean[] = [];
  /** Where each open collection is held (its parent and its key or index; none for the root), and its size. */
  const holder: Array<Record<string, unknown> | unknown[] | undefined> = [];
  const slot: Array<string | number> = [];
  const size: number[] = [];
  /**
   * A mapping is built by keyed stores, which V8 turns to a slow dictionary
   * past 12 members (about 4 times the memory of a literal's, and slower to
   * read and collect): a larger one is copied once it is closed, the copy
   * with fast members like JSON.parse's objects.
   */
  const close = (at: number) => {
    if (!isMap[at] || size[at]! <= FAST_MEMBERS) return;
    const copy = { ...(box[at] as Record<string, unknown>) };
    const h = holder[at];
    if (h === undefined) root = copy;
    else (h as Record<string | number, unknown>)[slot[at]!] = copy;
  };
  let top = -1;
  /** A `key:` whose value is on the lines below: its column (or -1), its object and its name. */
  let pending = -1;
  let pObj: Record<string, unknown> | undefined;
  let pKey = "";
  let prevKey = "";
  let p = 0;
  while (p < n) {
    let e = s.indexOf("\n", p);
    if (e < 0) e = n;
    let q = p;
    while (q < e && s.charCodeAt(q) === 32) q++;
    if (q === e) {
      p = e + 1;
      continue;
    }
    if (s.charCodeAt(q) === 35) {
      if (!COMMENT.test(s.slice(q, e))) return undefined;
      p = e + 1;
      continue;
    }
    const indent = q - p;
    let dash = false;
    if (s.charCodeAt(q) === 45 && (q + 1 === e || s.charCodeAt(q + 1) === 32)) {
      if (q + 1 === e) return undefined;
      dash = true;
      q += 2;
    }
    // `key:` ends a key when a space or the line's end follows; the key is most often the one
    // that followed the previous key last time, compared in place
    let key = nextAfter.get(prevKey);
    let c: number;
    if (key !== undefined && s.startsWith(key, q) && s.charCodeAt(q + key.length) === 58) c = q + key.length;
    else {
      key = undefined;
      const first = s.charCodeAt(q);
      // a quoted scalar is no key here (quoted keys are left to the caller)
      c = first === 34 || first === 39 ? -1 : s.indexOf(":", q);
      if (c >= e) c = -1;
    }
    if (c >= 0 && c + 1 < e && s.charCodeAt(c + 1) !== 32) {
      // no key: a scalar such as 12:30 (which the scalar's own check takes or refuses)
      key = undefined;
      c = -1;
    } else if (c >= 0 && key === undefined) {
      key = s.slice(q, c);
      if (!KEY.test(key)) return undefined;
      nextAfter.set(prevKey, key);
    }
    if (key !== undefined) prevKey = key;
    if (pending >= 0 && (indent < pending || (indent === pending && !dash))) pending = -1; // its value stays null
    while (top >= 0 && (col[top]! > indent || (col[top] === indent && sameCol[top] && !dash))) close(top--);
    let at = indent;
    let target: Record<string, unknown>;
    if (dash) {
      let arr: unknown[];
      if (pending < 0 && top >= 0 && col[top] === indent && !isMap[top]) arr = box[top] as unknown[];
      else if (pending >= 0 || root === NONE) {
        if (top >= MAX_DEPTH) return undefined;
        arr = [];
        if (pending >= 0) pObj![pKey] = arr;
        else root = arr;
        col[++top] = indent;
        box[top] = arr;
        isMap[top] = false;
        sameCol[top] = pending === indent;
        holder[top] = pending >= 0 ? pObj : undefined;
        slot[top] = pKey;
        pending = -1;
      } else return undefined;
      at += 2;
      if (key === undefined) {
        const v = scalarValue(s, q, e);
        if (v === NONE) return undefined;
        arr.push(v);
        p = e + 1;
        continue;
      }
      if (top >= MAX_DEPTH) return undefined;
      target = {};
      arr.push(target);
      col[++top] = at;
      box[top] = target;
      isMap[top] = true;
      sameCol[top] = false;
      holder[top] = arr;
      slot[top] = arr.length - 1;
      size[top] = 0;
    } else if (key === undefined) return undefined;
    else if (pending < 0 && top >= 0 && col[top] === indent && isMap[top]) target = box[top] as Record<string, unknown>;
    else if (pending >= 0 || root === NONE) {
      if (top >= MAX_DEPTH) return undefined;
      target = {};
      if (pending >= 0) pObj![pKey] = target;
      else root = target;
      col[++top] = indent;
      box[top] = target;
      isMap[top] = true;
      sameCol[top] = false;
      holder[top] = pending >= 0 ? pObj : undefined;
      slot[top] = pKey;
      size[top] = 0;
      pending = -1;
    } else return undefined;
    if (target[key] !== undefined) return undefined; // a repeated key (or one of Object's own names): yaml refuses the first
    size[top]!++;
    if (c + 1 >= e) {
      target[key] = null;
      pending = at;
      pObj = target;
      pKey = key;
    } else {
      const v = scalarValue(s, c + 2, e);
      if (v === NONE) return undefined;
      target[key] = v;
    }
    p = e + 1;
  }
  while (top >= 0) close(top--);
  return root === NONE ? undefined : { value: root };
}
