import { UsageError } from "../base/errors.js";
/**
 * Wire encoding of the v302 contract: GET parameters in the query string,
 * POST bodies form-urlencoded, arrays as the key with `[]` repeated once per
 * item (`vehicle_images[]=1&vehicle_images[]=2`). Absent values (undefined,
 * null, empty string) are not sent. An empty array is not sent either: how a
 * client clears an array is decided in `CLEAR_ARRAY_SENTINEL` below.
 */

export type EncodableValue = string | number | boolean | null | undefined | ReadonlyArray<string | number | boolean>;
export type EncodableRecord = Record<string, EncodableValue>;

/**
 * Spec gap: clearing an array field on edit is not shown. Since edit clears
 * whatever is omitted, an empty array is encoded as omitting the key, which is
 * what clears it on a replace-style edit. Decision recorded here and tested
 * against the sandbox.
 */
export const CLEAR_ARRAY_BY_OMISSION = true;

function scalar(v: string | number | boolean): string {
  if (typeof v === "boolean") return v ? "1" : "0";
  return String(v);
}

/** Flatten a record to ordered [key, value] pairs, arrays as `key[]`. */
export function toPairs(record: EncodableRecord): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const [key, value] of Object.entries(record)) {
    if (value === undefined || value === null || value === "") continue;
    if (Array.isArray(value)) {
      const k = key.endsWith("[]") ? key : `${key}[]`;
      for (const item of value as ReadonlyArray<string | number | boolean>) pairs.push([k, scalar(item)]);
    } else {
      pairs.push([key, scalar(value as string | number | boolean)]);
    }
  }
  return pairs;
}

/**
 * application/x-www-form-urlencoded (and query strings): RFC 3986, brackets
 * kept readable, spaces as `%20`, never `+`: a form decoder reads `%20` as a
 * space as it reads `+`, but a query-string reader (an OpenAPI validator
 * checking bracketed array values) takes `+` literally; `%20` is right under
 * both readings.
 */
export function encodeForm(record: EncodableRecord): string {
  // The same pairs as toPairs, written straight into one string (a bulk run encodes thousands of records).
  let out = "";
  for (const key in record) {
    const value = record[key];
    if (value === undefined || value === null || value === "") continue;
    if (Array.isArray(value)) {
      const k = encodeComponent(key.endsWith("[]") ? key : `${key}[]`);
      for (const item of value as ReadonlyArray<string | number | boolean>)
        out += `${out ? "&" : ""}${k}=${encodeComponent(scalar(item))}`;
    } else
      out += `${out ? "&" : ""}${encodeComponent(key)}=${encodeComponent(scalar(value as string | number | boolean))}`;
  }
  return out;
}

/** Characters every encoding leaves as they are: most keys and values are only these. */
const UNRESERVED = /^[A-Za-z0-9_.~-]*$/;

function uriEncode(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    // an unpaired UTF-16 surrogate has no UTF-8 form; checked values never get here (the contract check refuses them); raw input (`rentctl api -f`) may
    throw new UsageError(
      `${JSON.stringify(s.slice(0, 40))}: not valid text (an unpaired UTF-16 surrogate); nothing was sent`,
    );
  }
}

function encodeComponent(s: string): string {
  if (UNRESERVED.test(s)) return s;
  return uriEncode(s)
    .replace(/%5B/g, "[")
    .replace(/%5D/g, "]")
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function encodeQuery(record: EncodableRecord): string {
  const s = encodeForm(record);
  return s ? `?${s}` : "";
}

export interface FilePart {
  /** Form field name, e.g. `file`. */
  field: string;
  filename: string;
  contentType: string;
  data: Uint8Array | Blob;
}

/**
 * multipart/form-data with Node's global FormData (undici's class, the one
 * fetch uses). Read from the global only here: touching it loads Node's
 * internal undici (~15 ms), which no other command needs.
 */
export async function buildMultipart(record: EncodableRecord, files: FilePart[] = []): Promise<FormData> {
  const form = new FormData();
  for (const [k, v] of toPairs(record)) form.append(k, v);
  for (const f of files) {
    // A Blob keeps its own type only when it matches; otherwise (e.g. fs.openAsBlob, type "") the declared one is used.
    const blob =
      f.data instanceof Blob && f.data.type === f.contentType ? f.data : new Blob([f.data], { type: f.contentType });
    form.append(f.field, blob, f.filename);
  }
  return form;
}

/**
 * The multipart body as bytes and its content type (with the boundary),
 * serialised by Node's own fetch Response. The client sends plain bytes, so
 * the request path never depends on how undici's body extraction was bundled.
 */
export async function encodeMultipart(form: FormData): Promise<{ body: Uint8Array; contentType: string }> {
  const r = new Response(form);
  const contentType = r.headers.get("content-type") ?? "multipart/form-data";
  return { body: new Uint8Array(await r.arrayBuffer()), contentType };
}

const TYPES: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
  heic: "image/heic",
  avif: "image/avif",
  bmp: "image/bmp",
  txt: "text/plain",
  json: "application/json",
  pdf: "application/pdf",
};

export function contentTypeFor(filename: string): string {
  const ext = filename.toLowerCase().split(".").pop() ?? "";
  return TYPES[ext] ?? "application/octet-stream";
}
