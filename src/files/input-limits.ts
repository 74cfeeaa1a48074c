import { Transform, type TransformCallback } from "node:stream";
import { InputError } from "../base/errors.js";

/**
 * What a fleet (or account) file may hold, checked before a value is used:
 * hostile or broken files are refused with exit 2 naming the row or line,
 * never a stack overflow, a RangeError or silently "fixed" data.
 *
 * - Text is UTF-8: an invalid byte sequence is refused (it would otherwise be
 *   read as U+FFFD and sent), as is a NUL byte.
 * - A row is at most MAX_ROW_BYTES (1 MiB; a vehicle's largest fields are two
 *   5,000-character texts): an ndjson line or csv record above it is refused
 *   as soon as the limit is passed, so memory stays bounded.
 * - JSON nests at most MAX_DEPTH levels (a vehicle row needs 3), and an
 *   object never names a member twice (JSON.parse would keep the last one
 *   silently; yaml already refuses duplicate keys).
 */

export const MAX_ROW_BYTES = 1024 * 1024;
export const MAX_DEPTH = 64;

/** A fatal UTF-8 decoder over a byte stream: text chunks out, invalid bytes or a NUL refused with the line. */
export class Utf8Check extends Transform {
  readonly #decoder = new TextDecoder("utf-8", { fatal: true });
  #line = 1;
  constructor(readonly what: string) {
    super({ readableObjectMode: false, decodeStrings: true });
  }

  #check(text: string): void {
    const nul = text.indexOf("\u0000");
    if (nul >= 0) {
      const line = this.#line + countLines(text, nul);
      throw new InputError(`${this.what}: line ${line} holds a NUL byte (not text); nothing was sent`);
    }
    this.#line += countLines(text, text.length);
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    let text: string;
    try {
      text = this.#decoder.decode(chunk, { stream: true });
    } catch {
      done(invalidUtf8(this.what, this.#line + newlinesBefore(chunk, firstInvalidUtf8(chunk))));
      return;
    }
    try {
      this.#check(text);
    } catch (e) {
      done(e as Error);
      return;
    }
    done(null, text);
  }

  override _flush(done: TransformCallback): void {
    try {
      const text = this.#decoder.decode();
      this.#check(text);
      done(null, text);
    } catch (e) {
      done(e instanceof InputError ? e : invalidUtf8(this.what, this.#line));
    }
  }
}

/** The offset of the first byte that is not part of a well-formed UTF-8 sequence (the length when none). */
export function firstInvalidUtf8(b: Uint8Array): number {
  for (let i = 0; i < b.length; ) {
    const c = b[i]!;
    const need =
      c < 0x80 ? 0 : c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
    if (need < 0) return i;
    if (need > 0 && i + need >= b.length) return i; // cut off at the end
    for (let k = 1; k <= need; k++) if ((b[i + k]! & 0xc0) !== 0x80) return i;
    i += need + 1;
  }
  return b.length;
}

function newlinesBefore(b: Uint8Array, end: number): number {
  let n = 0;
  for (let i = 0; i < end; i++) if (b[i] === 0x0a) n++;
  return n;
}

function countLines(text: string, end: number): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < end; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

function invalidUtf8(what: string, line: number): InputError {
  return new InputError(`${what}: line ${line} is not valid UTF-8; nothing was sent`, {
    hint: "save the file as UTF-8 (spreadsheet programs: CSV UTF-8)",
  });
}

/** A whole file's bytes as text, refused when they are not UTF-8 or hold a NUL. */
export function decodeUtf8(bytes: Uint8Array, what: string): string {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw invalidUtf8(what, 1 + newlinesBefore(bytes, firstInvalidUtf8(bytes)));
  }
  const nul = text.indexOf("\u0000");
  if (nul >= 0)
    throw new InputError(`${what}: line ${1 + countLines(text, nul)} holds a NUL byte (not text); nothing was sent`);
  return text;
}

export function rowTooLarge(what: string, row: number): InputError {
  return new InputError(
    `${what}: row ${row} is larger than the limit (${MAX_ROW_BYTES / 1024 / 1024} MiB per row); nothing was sent`,
  );
}

/**
 * Check JSON text before JSON.parse, in one linear pass: nesting deeper than
 * MAX_DEPTH and a member named twice in one object are InputErrors naming
 * the row (`rowOf` maps the top-level element or line to the row users see).
 * Malformed JSON is left to JSON.parse (its message names the position).
 * Returns the parsed value when it parsed it (the caller need not parse again).
 */
export function checkJson(text: string, where: (topIndex: number) => string): { value: unknown } | undefined {
  // The common case, in native code and without an object per member: parse, count the members kept
  // and the depth; the colons outside strings (each separates exactly one member written) must be as
  // many. Otherwise (a member given twice, nesting too deep) the precise pass below names the problem.
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    if (e instanceof RangeError) checkJsonPrecisely(text, where); // a nesting bomb: named by depth
    return undefined; // malformed: JSON.parse says where, for the caller
  }
  const members = countMembers(parsed, 1);
  // Every colon of the text is a member written or a character of a string: when the colons are as
  // many as the members kept, no string holds one and no member was given twice (no copy of the text).
  if (members >= 0 && (colonsIn(text) === members || colonsIn(text.replace(JSON_STRING, "")) === members))
    return { value: parsed };
  checkJsonPrecisely(text, where);
  return undefined;
}

function colonsIn(text: string): number {
  let colons = 0;
  for (let i = text.indexOf(":"); i >= 0; i = text.indexOf(":", i + 1)) colons++;
  return colons;
}

/** A JSON string literal (in valid JSON, every `"` outside one starts one). */
const JSON_STRING = /"(?:[^"\\]|\\.)*"/g;

/** Members of every object in a parsed JSON value; -1 when it nests deeper than MAX_DEPTH. */
function countMembers(v: unknown, depth: number): number {
  if (typeof v !== "object" || v === null) return 0;
  if (depth > MAX_DEPTH) return -1;
  let n = 0;
  if (Array.isArray(v))
    for (const m of v) {
      const c = countMembers(m, depth + 1);
      if (c < 0) return -1;
      n += c;
    }
  else
    for (const k in v) {
      const c = countMembers((v as Record<string, unknown>)[k], depth + 1);
      if (c < 0) return -1;
      n += 1 + c;
    }
  return n;
}

function checkJsonPrecisely(text: string, where: (topIndex: number) => string): void {
  // per open container: its kind, and for objects the keys seen
  const stack: Array<Set<string> | null> = [];
  let top = 0; // index of the current element of a top-level array
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      let j = i + 1;
      let escaped = false;
      for (; j < text.length; j++) {
        const d = text.charCodeAt(j);
        if (d === 92 /* \ */) {
          escaped = true;
          j++;
        } else if (d === 34) break;
      }
      const keys = stack[stack.length - 1];
      if (expectKey && keys) {
        const raw = text.slice(i + 1, j);
        let key = raw;
        if (escaped) {
          try {
            key = JSON.parse(`"${raw}"`) as string;
          } catch {
            return; // malformed: JSON.parse says where
          }
        }
        if (keys.has(key))
          throw new InputError(`${where(top)}: member ${JSON.stringify(key)} is given twice in one object`, {
            hint: "keep one of them: JSON readers disagree on which one wins",
          });
        keys.add(key);
        expectKey = false;
      }
      i = j;
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      stack.push(c === 123 ? new Set() : null);
      expectKey = c === 123;
      if (stack.length > MAX_DEPTH)
        throw new InputError(`${where(top)}: nesting deeper than ${MAX_DEPTH} levels; nothing was sent`);
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      stack.pop();
      expectKey = false;
    } else if (c === 44 /* , */) {
      if (stack.length === 1 && stack[0] === null) top++;
      expectKey = stack[stack.length - 1] instanceof Set;
    }
  }
}
