import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { type ParsedTokenInfo, Tokenizer, TokenParser, TokenType } from "@streamparser/json";
import { InputError } from "../base/errors.js";
import { MAX_DEPTH, MAX_ROW_BYTES, rowTooLarge, Utf8Check } from "./input-limits.js";
import { parseYaml, parseYamlWithLines } from "./yaml.js";

/**
 * A json or yaml account / fleet document read as a stream of events: its
 * shape, its top-level members, and the items of its lists one at a time, so
 * that a 10,000-vehicle file is never held whole (neither its text nor its
 * parsed rows): memory stays bounded by the largest item (MAX_ROW_BYTES).
 *
 * json: @streamparser/json tokenizes the chunks and builds each item; the
 * tokens are watched for what JSON.parse does not refuse (a member named twice,
 * nesting deeper than MAX_DEPTH, an item over MAX_ROW_BYTES).
 *
 * yaml: each item of a list written at the first column (as `account export`
 * writes it) is parsed on its own by the yaml library (src/files/yaml.ts).
 * Anything else (another layout, an item that does not parse on its own, an
 * alias to another item) is read again whole by the library, the events
 * already handed out skipped: the values and errors are the library's.
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
  /** Put before every InputError message (the file as the user named it). */
  label?: string;
  /** Bytes per read (default 64 KiB). */
  chunkSize?: number;
  /** Open the file's bytes (default: createReadStream with the chunk size); a yaml file read again whole opens it twice. */
  open?: (path: string, chunkSize: number) => Readable;
}

export const DEFAULT_CHUNK = 64 * 1024;

/**
 * json and yaml files up to this size are parsed whole (one parse is the
 * fastest read); larger ones are streamed, so that memory stays bounded
 * whatever the size of the file.
 */
export const WHOLE_FILE_BYTES = 2 * 1024 * 1024;

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
    if (format === "json") yield* readJson(chunks(), keys);
    else yield* readYaml(chunks, keys);
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

// ---------------------------------------------------------------- json

/** A character in a message: quoted, or its code point when it is invisible (a BOM, a control or format character). */
const show = (c: number): string =>
  c < 0x20 ||
  (c >= 0x7f && c <= 0xa0) ||
  (c >= 0x2000 && c <= 0x200f) ||
  (c >= 0x2028 && c <= 0x202f) ||
  c === 0xfeff ||
  (c >= 0xd800 && c <= 0xdfff)
    ? `U+${c.toString(16).toUpperCase().padStart(4, "0")}`
    : JSON.stringify(String.fromCodePoint(c));

/** An open container while tokens are watched: an object with the member names seen, or an array. */
interface Open {
  names?: Set<string>;
  expectName: boolean;
}

const VALUE_START = new Set<TokenType>([
  TokenType.LEFT_BRACE,
  TokenType.LEFT_BRACKET,
  TokenType.STRING,
  TokenType.NUMBER,
  TokenType.TRUE,
  TokenType.FALSE,
  TokenType.NULL,
]);

async function* readJson(chunks: AsyncIterable<string>, keys: ReadonlySet<string>): AsyncGenerator<DocEvent> {
  let out: DocEvent[] = [];
  const tokenizer = new Tokenizer();
  const values = new TokenParser({ paths: ["$.*", "$.*.*"], keepStack: false });
  const open: Open[] = [];
  let root: "list" | "mapping" | "null" | undefined;
  let done = false;
  let name = "";
  /** The list whose items are handed out ("" a top-level list), its item count, and where the item being read started. */
  let list: string | undefined;
  let index = 0;
  let itemStart = -1;
  let itemLine = 0;
  let memberStart = -1;
  let memberLine = 0;
  // byte offsets (the tokenizer's) and lines: the chunk being read, and the lines counted up to `counted`
  let chunk: Buffer = Buffer.alloc(0);
  let chunkAt = 0;
  let counted = 0;
  let line = 1;
  let lineAt = 0;
  let tokenAt = 0;
  const lineOf = (offset: number): number => {
    for (
      let i = chunk.indexOf(0x0a, counted - chunkAt);
      i >= 0 && i + chunkAt < offset;
      i = chunk.indexOf(0x0a, i + 1)
    ) {
      line++;
      lineAt = chunkAt + i + 1;
    }
    counted = Math.max(counted, offset);
    return line;
  };
  const where = () =>
    list !== undefined && itemStart >= 0
      ? rowName(list, index)
      : name
        ? `member ${JSON.stringify(name)}`
        : "the document";
  const memberTooLarge = (at: number) =>
    new InputError(
      `line ${at}: member ${JSON.stringify(name)} is larger than the limit (${MAX_ROW_BYTES / 1024 / 1024} MiB); nothing was sent`,
    );
  const bad = (what: string, offset: number) => {
    const l = lineOf(offset);
    return new InputError(`not valid json: ${what} at line ${l} column ${offset - lineAt + 1}`);
  };

  tokenizer.onToken = (t: ParsedTokenInfo) => {
    tokenAt = t.offset;
    if (done) throw bad(`unexpected ${JSON.stringify(String(t.value))} after the end of the document`, t.offset);
    const top = open[open.length - 1];
    const depth = open.length;
    if (t.token === TokenType.STRING && top?.names && top.expectName) {
      const key = t.value as string;
      if (top.names.has(key))
        throw new InputError(
          `${depth === 1 ? "the document" : where()}: member ${JSON.stringify(key)} is given twice in one object`,
          {
            hint: "keep one of them: JSON readers disagree on which one wins",
          },
        );
      top.names.add(key);
      top.expectName = false;
      if (depth === 1) name = key;
    } else if (VALUE_START.has(t.token)) {
      if (depth === 0) {
        if (t.token === TokenType.LEFT_BRACE) {
          root = "mapping";
          out.push({ type: "shape", shape: "mapping" });
        } else if (t.token === TokenType.LEFT_BRACKET) {
          root = "list";
          list = "";
          out.push({ type: "shape", shape: "list" }, { type: "open", key: "" });
        } else if (t.token === TokenType.NULL) root = "null";
        else throw shapeError(keys);
      } else if (depth === 1 && root === "mapping" && t.token === TokenType.LEFT_BRACKET && keys.has(name)) {
        list = name;
        index = 0;
        out.push({ type: "open", key: name });
      } else if (depth === 1 && root === "mapping") {
        memberStart = t.offset;
        memberLine = lineOf(t.offset);
        if (t.token === TokenType.STRING && Buffer.byteLength(t.value as string) > MAX_ROW_BYTES)
          throw memberTooLarge(memberLine);
      } else if (depth === (root === "list" ? 1 : 2) && list !== undefined) {
        index++;
        itemStart = t.offset;
        itemLine = lineOf(t.offset);
        if (t.token === TokenType.STRING && Buffer.byteLength(t.value as string) > MAX_ROW_BYTES)
          throw tooLarge(list, index, itemLine);
      }
      if (t.token === TokenType.LEFT_BRACE || t.token === TokenType.LEFT_BRACKET) {
        open.push({ names: t.token === TokenType.LEFT_BRACE ? new Set() : undefined, expectName: true });
        if (open.length > MAX_DEPTH)
          throw new InputError(`${where()}: nesting deeper than ${MAX_DEPTH} levels; nothing was sent`);
      }
    } else if (t.token === TokenType.RIGHT_BRACE || t.token === TokenType.RIGHT_BRACKET) open.pop();
    else if (t.token === TokenType.COMMA && top?.names) top.expectName = true;
    const ended = open.length === 0 && root !== undefined;
    values.write(t);
    if (ended && !done) {
      done = true;
      if (root === "list") out.push({ type: "close", key: "" });
    }
  };
  values.onValue = ({ value, key, parent, stack }) => {
    if (stack.length === 1) {
      if (root === "list") {
        out.push({ type: "item", key: "", index, line: itemLine, value });
        itemStart = -1;
      } else if (list !== undefined && key === list && Array.isArray(value)) {
        out.push({ type: "close", key: list });
        list = undefined;
      } else {
        out.push({ type: "member", key: String(key), value });
        memberStart = -1;
      }
    } else if (stack.length === 2 && root === "mapping" && list !== undefined && stack[1]?.key === list) {
      out.push({ type: "item", key: list, index, line: itemLine, value });
      itemStart = -1;
      // handed out: not kept in the list the parser builds
      (parent as unknown[]).length -= 1;
    }
  };

  /** The library's message, said as rentctl says it: the character where it is, shown (U+XXXX when invisible). */
  const said = (e: Error): InputError => {
    const m = /absolute position "(\d+)"/.exec(e.message);
    const at = m ? Number(m[1]) : tokenAt;
    if (/ended in the middle of a token/.test(e.message)) return bad("unexpected end of input", chunkAt);
    const token = /^Unexpected [A-Z_]+ \((.*)\) in state \w+$/.exec(e.message);
    if (token) return bad(`unexpected ${token[1]}`, at);
    const c = chunk
      .subarray(at - chunkAt, at - chunkAt + 4)
      .toString("utf8")
      .codePointAt(0);
    return bad(m && c !== undefined ? `unexpected ${show(c)}` : e.message, at);
  };
  const feed = (bytes: Buffer) => {
    chunk = bytes;
    try {
      tokenizer.write(bytes);
    } catch (e) {
      if (e instanceof InputError) throw e;
      throw said(e as Error);
    }
    lineOf(chunkAt + bytes.length);
    chunkAt += bytes.length;
    if (itemStart >= 0 && chunkAt - itemStart > MAX_ROW_BYTES) throw tooLarge(list ?? "", index, itemLine);
    // a member that is not a streamed list is held whole: bounded as an item is
    if (list === undefined && memberStart >= 0 && chunkAt - memberStart > MAX_ROW_BYTES)
      throw memberTooLarge(memberLine);
    // a string the parser is still reading (no token for a while, and this chunk is not white space between them)
    if (
      chunkAt - tokenAt > MAX_ROW_BYTES &&
      itemStart < 0 &&
      memberStart < 0 &&
      !/^[ \t\r\n]*$/.test(bytes.toString("latin1"))
    ) {
      if (list !== undefined) throw tooLarge(list, index + 1, lineOf(tokenAt));
      if (root === "mapping" && open.length === 1) throw memberTooLarge(lineOf(tokenAt));
    }
  };
  let first = true;
  try {
    for await (const text of chunks) {
      // the decoder took one byte order mark; JSON allows no other
      if (first && text.charCodeAt(0) === 0xfeff) throw bad("unexpected U+FEFF", 0);
      first = false;
      feed(Buffer.from(text, "utf8"));
      const ready = out;
      out = [];
      yield* ready;
    }
    if (!tokenizer.isEnded) tokenizer.end();
  } catch (e) {
    const ready = out;
    out = [];
    yield* ready;
    if (e instanceof InputError) throw e;
    throw said(e as Error);
  }
  if (!done) throw bad("unexpected end of input", chunkAt);
  if (root === "null") out.push({ type: "shape", shape: "empty" });
  yield* out;
}

// ---------------------------------------------------------------- yaml

/** A line of a yaml document at the first column that is a top-level key (`vehicles:`, `$schema: ...`). */
const KEY_LINE = /^([A-Za-z_$][\w$.-]*)[ \t]*:(?:[ \t]+(.*))?$/;
/** A line that is no content: blank, or a comment. */
const TRIVIA = /^[ \t]*(#.*)?$/;

/** Why the document is read again whole: another layout than items at the first column. */
class OtherLayout extends Error {}

/**
 * The yaml events, streamed item by item; another layout (or an item that
 * does not parse on its own) is read again whole, the events handed out skipped.
 */
async function* readYaml(chunks: () => AsyncIterable<string>, keys: ReadonlySet<string>): AsyncGenerator<DocEvent> {
  // what was handed out, as a digest: the whole read must give it again (else the file changed)
  const handed = createHash("sha256");
  let count = 0;
  try {
    for await (const e of yamlItems(chunks(), keys)) {
      handed.update(JSON.stringify(e));
      count++;
      yield e;
    }
  } catch (e) {
    if (!(e instanceof OtherLayout)) throw e;
    const again = createHash("sha256");
    let n = 0;
    for await (const ev of wholeYaml(chunks(), keys)) {
      if (++n <= count) {
        again.update(JSON.stringify(ev));
        if (n === count && again.digest("hex") !== handed.digest("hex"))
          throw new InputError("the file changed while it was read; read it again");
      } else yield ev;
    }
  }
}

/** A block scalar that keeps its trailing blank lines (`|+`, `>2+`, `|+2`): only then do they belong to the item. */
const KEEP_CHOMPING = /[|>](?:[1-9]?\+|\+[1-9])[ \t]*(?:#.*)?$/m;

/**
 * The yaml events of a document laid out as `account export` writes it
 * (top-level keys and list items at the first column): each item's lines,
 * and each other member's, parsed on their own by the library. Anything
 * else throws OtherLayout.
 */
async function* yamlItems(chunks: AsyncIterable<string>, keys: ReadonlySet<string>): AsyncGenerator<DocEvent> {
  let out: DocEvent[] = [];
  let lineNo = 0;
  let shape: "list" | "mapping" | undefined;
  const seen = new Set<string>();
  /** The top-level member being read (its key line and what is indented under it), and the list it opened. */
  let member: { key: string; line: number; lines: string[]; len: number; empty: boolean } | undefined;
  let list: string | undefined;
  let index = 0;
  /** The item being read: its lines, their length, its first line. */
  let item: string[] | undefined;
  let itemLen = 0;
  let itemLine = 0;
  /**
   * The blank and comment lines after the item's last content line: part of
   * it if more of its content follows. At its end, those before a comment at
   * the first column stay with it (a block scalar's lines: `|+` keeps blank
   * lines, `    # x` may be its text), unless they are all blank and no
   * block scalar keeps them (then they change no value: a long run of blank
   * lines between items is no row over the limit); from such a comment on,
   * none is the item's (a comment at the first column ends any scalar).
   */
  let trivia: string[] = [];
  let triviaLen = 0;
  let kept = -1; // trivia lines before the first comment at the first column (-1: none yet)
  let blankOnly = true; // the lines before it are all blank
  let over = false; // past the row limit: lines no longer kept

  const parse = (text: string): unknown => {
    try {
      return parseYaml(text);
    } catch {
      throw new OtherLayout(); // the library, on the whole text, says what is wrong (or reads it)
    }
  };
  const tooLong = () => tooLarge(list ?? "", index, itemLine);
  const finishItem = () => {
    if (!item) return;
    if ((trivia.length || over) && (!blankOnly || KEEP_CHOMPING.test(item.join("")))) {
      if (over && kept < 0) throw tooLong();
      const lines = kept < 0 ? trivia : trivia.slice(0, kept);
      for (const t of lines) itemLen += t.length;
      if (itemLen > MAX_ROW_BYTES) throw tooLong();
      item.push(...lines);
    }
    trivia = [];
    triviaLen = 0;
    kept = -1;
    blankOnly = true;
    over = false;
    const v = parse(item.join(""));
    if (!Array.isArray(v) || v.length !== 1) throw new OtherLayout();
    out.push({ type: "item", key: list ?? "", index, line: itemLine, value: v[0] });
    item = undefined;
  };
  const endSection = () => {
    finishItem();
    if (list !== undefined) out.push({ type: "close", key: list });
    else if (member) {
      let parsed: ReturnType<typeof parseYamlWithLines>;
      try {
        parsed = parseYamlWithLines(member.lines.join(""));
      } catch {
        throw new OtherLayout();
      }
      const doc = parsed.value;
      if (!isPlainObject(doc) || !Object.hasOwn(doc, member.key) || Object.keys(doc).length !== 1)
        throw new OtherLayout();
      const value = doc[member.key];
      // a list under its key (`extras: []`, or indented) is a list too
      if (Array.isArray(value) && keys.has(member.key)) {
        const lines = parsed.itemLines.get(value);
        out.push({ type: "open", key: member.key });
        for (const [i, v] of value.entries())
          out.push({
            type: "item",
            key: member.key,
            index: i + 1,
            line: member.line + (lines?.[i] ?? 1) - 1,
            value: v,
          });
        out.push({ type: "close", key: member.key });
      } else out.push({ type: "member", key: member.key, value });
    }
    list = member = undefined;
  };
  const take = (text: string, content: string) => {
    const c = content.charCodeAt(0);
    if (TRIVIA.test(content)) {
      if (item) {
        if (kept < 0 && c === 0x23) kept = trivia.length;
        else if (kept < 0 && content.trim() !== "") blankOnly = false;
        triviaLen += text.length;
        if (triviaLen > MAX_ROW_BYTES && !over) {
          over = true;
          trivia.length = Math.max(kept, 0);
        }
        if (!over) trivia.push(text);
      } else if (member) member.lines.push(text);
      return;
    }
    if (content.includes("\r")) throw new OtherLayout(); // a carriage return alone breaks a line
    if (c === 0x20 || c === 0x09) {
      if (item) {
        if (over) throw tooLong();
        trivia.push(text);
        for (const t of trivia) itemLen += t.length;
        item.push(...trivia);
        trivia = [];
        triviaLen = 0;
        kept = -1;
        blankOnly = true;
        if (itemLen > MAX_ROW_BYTES) throw tooLong();
      } else if (member) {
        member.lines.push(text);
        member.empty = false;
        member.len += text.length;
        if (member.len > MAX_ROW_BYTES) throw new OtherLayout();
      } else throw new OtherLayout();
      return;
    }
    if (c === 0x2d /* - */ && (content.length === 1 || content.charCodeAt(1) === 0x20)) {
      if (!shape) {
        shape = "list";
        list = "";
        out.push({ type: "shape", shape: "list" }, { type: "open", key: "" });
      } else if (list === undefined) {
        if (!member?.empty || !keys.has(member.key)) throw new OtherLayout();
        list = member.key;
        member = undefined;
        index = 0;
        out.push({ type: "open", key: list });
      }
      finishItem();
      index++;
      item = [text];
      itemLen = text.length;
      itemLine = lineNo;
      return;
    }
    if (!shape && content === "---") return;
    const m = shape === "list" ? null : KEY_LINE.exec(content);
    if (!m || seen.has(m[1]!)) throw new OtherLayout();
    if (!shape) {
      shape = "mapping";
      out.push({ type: "shape", shape: "mapping" });
    }
    endSection();
    seen.add(m[1]!);
    const rest = m[2] ?? "";
    member = { key: m[1]!, line: lineNo, lines: [text], len: text.length, empty: rest === "" || rest.startsWith("#") };
  };
  const line = (text: string) => {
    lineNo++;
    const content = text.endsWith("\n") ? text.slice(0, text.endsWith("\r\n") ? -2 : -1) : text;
    take(text, lineNo === 1 ? content.replace(/^\uFEFF/, "") : content);
  };

  let partial: string[] = [];
  let partialLen = 0;
  for await (const chunk of chunks) {
    let from = 0;
    for (let nl = chunk.indexOf("\n"); nl >= 0; nl = chunk.indexOf("\n", from)) {
      partial.push(chunk.slice(from, nl + 1));
      from = nl + 1;
      const text = partial.join("");
      partial = [];
      partialLen = 0;
      line(text);
    }
    if (from < chunk.length) {
      partial.push(chunk.slice(from));
      partialLen += chunk.length - from;
      // a line not ended yet: an item's line, or the first line of the next item
      const c = partial[0]!.charCodeAt(0);
      if (c === 0x2d && partialLen > MAX_ROW_BYTES) throw tooLarge(list ?? member?.key ?? "", index + 1, lineNo + 1);
      if (item && c !== 0x2d && itemLen + partialLen > MAX_ROW_BYTES) throw tooLong();
      if (partialLen > MAX_ROW_BYTES) throw new OtherLayout();
    }
    const ready = out;
    out = [];
    yield* ready;
  }
  if (partial.length) line(partial.join(""));
  if (!shape) out.push({ type: "shape", shape: "empty" });
  else endSection();
  yield* out;
}

/** Another layout: the whole text parsed by the yaml library, then the same events from its value. */
async function* wholeYaml(chunks: AsyncIterable<string>, keys: ReadonlySet<string>): AsyncGenerator<DocEvent> {
  const parts: string[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  let value: unknown;
  let itemLines: Map<unknown, number[]>;
  try {
    ({ value, itemLines } = parseYamlWithLines(parts.join("").replace(/^\uFEFF/, "")));
  } catch (e) {
    throw new InputError(`not valid yaml: ${(e as Error).message}`);
  }
  parts.length = 0;
  if (value === null || value === undefined) {
    yield { type: "shape", shape: "empty" };
    return;
  }
  function* listOf(key: string, items: unknown[]): Generator<DocEvent> {
    yield { type: "open", key };
    const lines = itemLines.get(items);
    for (let i = 0; i < items.length; i++)
      yield { type: "item", key, index: i + 1, line: lines?.[i] ?? 1, value: items[i] };
    yield { type: "close", key };
  }
  if (Array.isArray(value)) {
    yield { type: "shape", shape: "list" };
    yield* listOf("", value);
    return;
  }
  if (!isPlainObject(value)) throw shapeError(keys);
  yield { type: "shape", shape: "mapping" };
  for (const [key, v] of Object.entries(value)) {
    if (Array.isArray(v) && keys.has(key)) yield* listOf(key, v);
    else yield { type: "member", key, value: v };
  }
}
