/**
 * What the contract does not show about response bodies, decided in one place.
 *
 * - The fields of a vehicle or extra as returned by list and get are not shown.
 *   A record is read defensively: the identifier is `id`, else `vehicle_id` /
 *   `extra_id`; every other member is kept as received; members named like the
 *   input fields are read as those fields.
 * - Flexible bodies (get, create, edit, upload, switch, ...) are not shown. The
 *   record of a get is the body's `data` (or `vehicle` / `extra`) object when
 *   there is one, else the body itself without `meta` and `is_success`.
 * - The id of a created vehicle or extra is looked for in that record.
 * - Upload: the created image ids are looked for in `data`, `images`, `ids` or
 *   `image_ids`, each either ids or objects carrying an id.
 */

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };

export function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const ENVELOPE_MEMBERS = new Set(["meta", "is_success", "success", "message", "status"]);

export function unwrapRecord(body: unknown, kind?: "vehicle" | "extra"): JsonObject {
  if (!isObject(body)) return {};
  for (const key of ["data", kind, "result", "item"]) {
    if (key && isObject(body[key])) return body[key] as JsonObject;
  }
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(body)) if (!ENVELOPE_MEMBERS.has(k)) out[k] = v;
  return out;
}

/** The members that may carry a record's id, in order (built once: every listed record is looked at). */
const ID_KEYS = {
  vehicle: ["id", "vehicle_id", "uid"],
  extra: ["id", "extra_id", "uid"],
  image: ["id", "image_id", "image", "uid"],
} as const;

export function recordId(record: unknown, kind: "vehicle" | "extra" | "image"): number | undefined {
  if (typeof record === "number" && Number.isSafeInteger(record) && record >= 1) return record;
  if (typeof record === "string" && /^\d+$/.test(record) && Number(record) >= 1) return Number(record);
  if (!isObject(record)) return undefined;
  for (const key of ID_KEYS[kind]) {
    const v = record[key];
    if (typeof v === "number" && Number.isSafeInteger(v) && v >= 1) return v;
    if (typeof v === "string" && /^\d+$/.test(v) && Number(v) >= 1) return Number(v);
  }
  return undefined;
}

/** A record with `id` first, whatever the server called it. */
export function normalizeRecord(record: JsonObject, kind: "vehicle" | "extra"): JsonObject {
  const id = recordId(record, kind);
  if (id === undefined) return record;
  // already so (every record of a listing, as a rule): no copy
  for (const first in record) {
    if (first === "id" && record.id === id) return record;
    break;
  }
  const { id: _drop, ...rest } = record;
  return { id, ...rest };
}

export function createdId(body: unknown, kind: "vehicle" | "extra"): number | undefined {
  const rec = unwrapRecord(body, kind);
  return recordId(rec, kind) ?? (isObject(body) ? recordId(body, kind) : undefined);
}

export function uploadedImageIds(body: unknown): number[] {
  if (!isObject(body)) return [];
  const data = body.data;
  const candidates: unknown[] = [body.image_ids, body.ids, body.images, data];
  if (isObject(data)) candidates.push(data.image_ids, data.ids, data.images);
  for (const c of candidates) {
    if (Array.isArray(c)) {
      const ids = c.map((x) => recordId(x, "image")).filter((x): x is number => x !== undefined);
      if (ids.length) return ids;
    }
  }
  return [];
}

/** Members of a returned record that are the server's, never input. */
export const READ_ONLY_MEMBERS = new Set(["id", "vehicle_id", "extra_id", "created_at", "updated_at", "meta"]);

/**
 * The input fields of a returned record: the members named like the declared
 * fields, arrays of objects reduced to their ids (e.g. `vehicle_images` as
 * `[{id, url}]`). Everything else is left out.
 */
export function recordToInput(record: JsonObject, fieldNames: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const name of fieldNames) {
    const v = inputMember(record, name);
    if (v !== undefined) out[name] = v;
  }
  return out;
}

/** One input field of a returned record as recordToInput gives it (undefined: empty or absent). */
export function inputMember(record: JsonObject, name: string): Json | undefined {
  const v = record[name];
  if (v === undefined || v === null || v === "") return undefined;
  if (Array.isArray(v) && v.some(isObject))
    return v.map((x) => (isObject(x) ? (recordId(x, "image") ?? JSON.stringify(x)) : x)) as Json[];
  return v;
}
