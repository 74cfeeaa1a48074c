import type { FieldDetail } from "../base/errors.js";
import { isObject, type Json, type JsonObject } from "../contract/records.js";
import type { Envelope } from "../contract/types.js";
import {
  type ApiError,
  type ApiHints,
  ApiValidationError,
  AuthError,
  CLI_HINTS,
  MalformedResponseError,
  NotFoundError,
  ServerError,
} from "./errors.js";

/** A decoded page of a Paginated envelope. */
export interface Page {
  items: JsonObject[];
  total?: number;
  perPage?: number;
  currentPage?: number;
  limit?: number;
  lastPage?: number;
}

export type Decoded =
  | { kind: "list"; items: JsonObject[]; body: JsonObject }
  | { kind: "paginated"; page: Page; body: JsonObject }
  | { kind: "flexible"; body: JsonObject };

/** Parse a response body as JSON; undefined for an empty body; throws for anything else. */
export function parseJson(text: string): Json | undefined {
  if (text.trim() === "") return undefined;
  return JSON.parse(text) as Json;
}

function withoutMeta(body: JsonObject): JsonObject {
  const { meta: _meta, ...rest } = body;
  return rest;
}

function num(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isSafeInteger(v) && v >= 0) return v;
  if (typeof v === "string" && /^\d+$/.test(v)) return Number(v);
  return undefined;
}

function objects(v: unknown): JsonObject[] | undefined {
  if (!Array.isArray(v)) return undefined;
  return v.map((x) => (isObject(x) ? x : ({ value: x } as JsonObject)));
}

/**
 * Decode a successful body by its envelope kind. `meta` is dropped (callers
 * that print `--raw` use the original body). A body that does not have the
 * envelope's required member is a malformed response.
 */
export function decodeEnvelope(envelope: Envelope, body: unknown, raw = false): Decoded {
  if (!isObject(body)) throw new MalformedResponseError(`expected a JSON object, got ${describe(body)}`);
  const clean = raw ? body : withoutMeta(body);
  if (envelope === "list") {
    const items = objects(body.list) ?? objects(body.data);
    if (!items) throw new MalformedResponseError("expected a `list` array in the response");
    return { kind: "list", items, body: clean };
  }
  if (envelope === "paginated") {
    const items = objects(body.data) ?? objects(body.list);
    if (!items) throw new MalformedResponseError("expected a `data` array in the paginated response");
    const page: Page = { items };
    const fields: Array<[keyof Page, string]> = [
      ["total", "total"],
      ["perPage", "per_page"],
      ["currentPage", "current_page"],
      ["limit", "limit"],
      ["lastPage", "last_page"],
    ];
    for (const [k, wire] of fields) {
      const n = num(body[wire]);
      if (n !== undefined) (page as unknown as Record<string, number>)[k] = n;
    }
    return { kind: "paginated", page, body: clean };
  }
  return { kind: "flexible", body: clean };
}

function describe(v: unknown): string {
  if (v === undefined) return "an empty body";
  if (Array.isArray(v)) return "an array";
  return typeof v === "object" ? "null" : `a ${typeof v}`;
}

/**
 * The error body in all its forms: `errors` as an object (`message`, `code`
 * and anything else as per-field details), as an array (of strings or
 * objects), or as a string; also a bare `message`. Returns the headline and
 * the details.
 */
export function decodeErrorBody(body: unknown): { message?: string; code?: number; details: FieldDetail[] } {
  const details: FieldDetail[] = [];
  if (typeof body === "string") return { message: body.trim() || undefined, details };
  if (!isObject(body)) return { details };
  const errors = body.errors ?? body.error;
  let message: string | undefined;
  let code: number | undefined;
  if (typeof errors === "string") message = errors;
  else if (Array.isArray(errors)) collectArray(errors, "", details);
  else if (isObject(errors)) {
    if (typeof errors.message === "string") message = errors.message;
    code = num(errors.code);
    for (const [k, v] of Object.entries(errors)) {
      if (k === "message" || k === "code") continue;
      collect(k, v, details);
    }
  }
  if (!message && typeof body.message === "string") message = body.message;
  if (!message && details.length === 1 && details[0]?.field === "") {
    message = details[0].message;
    details.length = 0;
  }
  return { message, code, details };
}

/** Per-field details: `fields: {name: [..]}` and plain `{name: ".."}` members both become field lines. */
function collect(key: string, v: Json, out: FieldDetail[]): void {
  if (typeof v === "string") out.push({ field: key === "fields" || key === "details" ? "" : key, message: v });
  else if (typeof v === "number" || typeof v === "boolean") out.push({ field: key, message: String(v) });
  else if (Array.isArray(v)) collectArray(v, key === "fields" || key === "details" || key === "errors" ? "" : key, out);
  else if (isObject(v)) {
    for (const [k2, v2] of Object.entries(v)) {
      const field = key === "fields" || key === "details" || key === "errors" ? k2 : `${key}.${k2}`;
      collect(field, v2, out);
    }
  }
}

function collectArray(arr: Json[], field: string, out: FieldDetail[]): void {
  for (const item of arr) {
    if (typeof item === "string") out.push({ field, message: item });
    else if (isObject(item)) {
      const f = typeof item.field === "string" ? item.field : typeof item.name === "string" ? item.name : field;
      const m = typeof item.message === "string" ? item.message : JSON.stringify(item);
      out.push({ field: f, message: m });
    } else if (item !== null) out.push({ field, message: String(item) });
  }
}

/** Map a status and a (possibly undecodable) body to the right error class (hints in the caller's words). */
export function errorFor(
  status: number,
  body: unknown,
  bodyText: string,
  hints: Pick<ApiHints, "unauthorized" | "notFound"> = CLI_HINTS,
): ApiError {
  const { message, details } = decodeErrorBody(body);
  const snippet = bodyText.replace(/\s+/g, " ").trim().slice(0, 120);
  let err: ApiError;
  if (status === 401 || status === 403) {
    err = new AuthError(message ? `not authorized (${status}): ${message}` : `not authorized (${status})`, {
      details,
      hint: hints.unauthorized,
    });
    err.suggests = "unauthorized";
  } else if (status === 404) {
    err = new NotFoundError(message ? `not found (404): ${message}` : "not found (404)", {
      details,
      hint: hints.notFound,
    });
    err.suggests = "notFound";
  } else if (status >= 500 || status === 408 || status === 429) {
    const what =
      body === undefined && snippet
        ? `: ${snippet.startsWith("<") ? "non-JSON (HTML) body" : snippet}`
        : message
          ? `: ${message}`
          : "";
    err = new ServerError(`server error (${status})${what}`, { details });
  } else if (status >= 400) {
    err = new ApiValidationError(`request rejected (${status})${message ? `: ${message}` : ""}`, { details });
  } else {
    // 2xx with is_success: false
    err = new ApiValidationError(`request rejected (${status}, is_success false)${message ? `: ${message}` : ""}`, {
      details,
    });
  }
  err.status = status;
  err.body = body;
  return err;
}
