import type { IncomingMessage } from "node:http";

/**
 * Reading request variables the way the contract sends them: GET query
 * strings, `application/x-www-form-urlencoded` and `multipart/form-data`
 * bodies. Array members arrive as repeated `key[]=v` (or plain repeated
 * `key=v`); both land under `key`. A member named with `[]` is always a list.
 */

export interface FilePart {
  /** Part name without a trailing `[]`. */
  field: string;
  fileName: string;
  size: number;
  contentType: string;
}

export type RawFields = Record<string, string | string[]>;

export interface ParsedInput {
  fields: RawFields;
  files: FilePart[];
}

/**
 * Largest multipart body (an image upload) accepted; 413 beyond. The contract
 * names no file size; 12 MiB holds 10 photos of about 1.2 MB or one large one.
 */
export const MAX_UPLOAD_BODY_BYTES = 12 * 1024 * 1024;
/** Largest form-urlencoded (or any other) body accepted; 413 beyond. A vehicle form is a few KiB. */
export const MAX_FORM_BODY_BYTES = 1024 * 1024;
/** After a 413, up to this many more bytes are read and dropped (so the client sees the answer); then the socket closes. */
export const MAX_DISCARD_BYTES = 16 * 1024 * 1024;

/** The body could not be read as the declared encoding (answered 400, naming `field`). */
export class MalformedRequest extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`request body over ${limit} bytes`);
  }
}

/** The cap for a body of this content type. */
export function bodyLimit(contentType: string | undefined, caps: { upload: number; form: number }): number {
  const type = (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  return type === "multipart/form-data" ? caps.upload : Math.min(caps.form, caps.upload);
}

/**
 * The whole body, up to `limit` bytes. A declared Content-Length over the
 * limit is refused before a byte is read; a body that streams past it is
 * refused at the chunk that crosses it (what was buffered is dropped).
 * `onBuffered` hears the bytes held so far, after each chunk.
 */
export function readBody(req: IncomingMessage, limit: number, onBuffered?: (bytes: number) => void): Promise<Buffer> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new BodyTooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        done();
        reject(new BodyTooLarge(limit));
        return;
      }
      chunks.push(chunk);
      onBuffered?.(size);
    };
    const onEnd = () => {
      done();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (err: Error) => {
      done();
      reject(err);
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
  });
}

/**
 * Read and drop the rest of a refused body, so a client still sending gets
 * to read the 413 (closing at once makes many clients see a reset instead);
 * past `bound` bytes the socket is closed.
 */
export function discardBody(req: IncomingMessage, bound = MAX_DISCARD_BYTES): void {
  let dropped = 0;
  req.on("data", (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > bound) req.socket.destroy();
  });
  req.on("error", () => {});
  req.resume();
}

function add(fields: RawFields, rawName: string, value: string): void {
  const isList = rawName.endsWith("[]");
  const name = isList ? rawName.slice(0, -2) : rawName;
  if (name === "") return;
  const prev = fields[name];
  if (prev === undefined) fields[name] = isList ? [value] : value;
  else if (Array.isArray(prev)) prev.push(value);
  else fields[name] = [prev, value];
}

export function parseQuery(params: URLSearchParams): ParsedInput {
  const fields: RawFields = Object.create(null);
  for (const [k, v] of params) add(fields, k, v);
  return { fields, files: [] };
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Parse a POST body by its content type. An empty body is an empty set of members. */
export async function parseBody(contentType: string | undefined, body: Buffer): Promise<ParsedInput> {
  const type = (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (body.length === 0 && type !== "multipart/form-data") return { fields: Object.create(null), files: [] };
  if (type === "application/x-www-form-urlencoded") {
    let text: string;
    try {
      text = utf8.decode(body);
    } catch {
      throw new MalformedRequest("body", "is not valid UTF-8");
    }
    return parseQuery(new URLSearchParams(text));
  }
  if (type === "multipart/form-data") return parseMultipart(contentType as string, body);
  throw new MalformedRequest(
    "body",
    `must be application/x-www-form-urlencoded or multipart/form-data, not ${type ? JSON.stringify(type) : "untyped"}`,
  );
}

async function parseMultipart(contentType: string, body: Buffer): Promise<ParsedInput> {
  if (!/;\s*boundary=/i.test(contentType)) throw new MalformedRequest("body", "multipart body without a boundary");
  let form: FormData;
  try {
    const request = new Request("http://sandbox.invalid/", {
      method: "POST",
      headers: { "content-type": contentType },
      body,
    });
    form = await request.formData();
  } catch (err) {
    throw new MalformedRequest("body", `malformed multipart body (${(err as Error).message})`);
  }
  const fields: RawFields = Object.create(null);
  const files: FilePart[] = [];
  for (const [name, value] of form) {
    if (typeof value === "string") {
      add(fields, name, value);
    } else {
      const file = value as File;
      files.push({
        field: name.endsWith("[]") ? name.slice(0, -2) : name,
        fileName: file.name || "upload",
        size: file.size,
        contentType: file.type || "application/octet-stream",
      });
    }
  }
  return { fields, files };
}
