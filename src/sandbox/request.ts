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

/** Largest request body accepted (answered 413 beyond): room for 10 files of 10 MiB. */
export const MAX_BODY_BYTES = 128 * 1024 * 1024;

/** The body could not be read as the declared encoding (answered 400, naming `field`). */
export class MalformedRequest extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

export class BodyTooLarge extends Error {}

/**
 * The whole body. Past `limit` the rest is still read (and dropped) so the
 * 413 answer reaches a client that is still sending.
 */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else chunks.length = 0;
    });
    req.on("end", () => {
      if (size > limit) reject(new BodyTooLarge(`request body over ${limit} bytes`));
      else resolve(Buffer.concat(chunks));
    });
    req.on("error", reject);
  });
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
