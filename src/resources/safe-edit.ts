import type { EncodableRecord } from "../api/encode.js";
import { AuthError } from "../api/errors.js";
import { InputError } from "../base/errors.js";
import {
  type JsonObject,
  normalizeRecord,
  READ_ONLY_MEMBERS,
  recordToInput,
  unwrapRecord,
} from "../contract/records.js";
import { isEmpty, type Problem, validateRecord, type WireRecord } from "../contract/validate.js";
import type { Deps } from "../deps.js";
import type { Resource } from "./resource.js";

export { EXTRA, type Resource, VEHICLE } from "./resource.js";

/**
 * The safe-edit machinery shared by vehicles and extras (and used per vehicle
 * by the bulk changes). The contract's edit
 * and update clear what is omitted, so a change is: read the current record,
 * apply the change, check it, read again just before sending (stop if it
 * changed in between), journal the previous record for undo, send the whole
 * record.
 */

export async function fetchRecord(
  deps: Pick<Deps, "client" | "locale">,
  res: Resource,
  id: number,
): Promise<JsonObject> {
  const client = await deps.client();
  const locale = await deps.locale();
  const params: EncodableRecord = { [res.idParam]: id, locale_id: locale };
  let r: Awaited<ReturnType<typeof client.call>>;
  try {
    r = await client.call(res.getOp, params);
  } catch (e) {
    throw await anotherOwners(e, client, locale, `${res.noun} ${id}`);
  }
  return normalizeRecord(unwrapRecord(r.decoded.body, res.kind), res.kind);
}

/**
 * The contract answers 401 both for a key that is not valid and for a record of
 * another owner (spec: "a key that cannot access the requested resource yields
 * 401"). A 401 on one record is told apart by one cheap authenticated read
 * (a page of one extra): when the key reads that, the record is another
 * owner's, and the error says so instead of "check the API key".
 */
async function anotherOwners(
  e: unknown,
  client: Awaited<ReturnType<Deps["client"]>>,
  locale: number,
  what: string,
): Promise<unknown> {
  if (!(e instanceof AuthError) || e.status !== 401) return e;
  const keyWorks = await client.call("extras.list", { locale_id: locale, limit: 1, offset: 0 }).then(
    () => true,
    () => false,
  );
  if (!keyWorks) return e;
  const err = new AuthError(
    `${what} is another owner's: the key in use reads and writes only its own owner's records`,
    {
      hint: "check the id, or act as the owner it belongs to (that owner's id and key)",
      cause: e,
    },
  );
  err.status = 401;
  err.method = e.method;
  err.path = e.path;
  err.operation = e.operation;
  return err;
}

/** The record's input fields, coerced to wire types so two reads compare equal. */
export function inputOf(res: Resource, record: JsonObject): WireRecord {
  const input = recordToInput(
    record,
    res.fields.map((f) => f.name),
  );
  return validateRecord(input, res.fields, { requireRequired: false, allowUnknown: true }).record;
}

export interface Change {
  field: string;
  before: unknown;
  after: unknown;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

export function diffRecords(before: Record<string, unknown>, after: Record<string, unknown>): Change[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return keys
    .filter((k) => !same(isEmpty(before[k]) ? null : before[k], isEmpty(after[k]) ? null : after[k]))
    .map((k) => ({ field: k, before: before[k] ?? null, after: after[k] ?? null }));
}

export function problemsError(problems: Problem[], what: string): InputError {
  return new InputError(`${what}: ${problems.length} problem${problems.length === 1 ? "" : "s"} (nothing was sent)`, {
    details: problems,
  });
}

/** Apply changes to a base record. Empty values (`""`, `[]`) clear a field. */
export function applyChanges(base: WireRecord, changes: Record<string, unknown>): Record<string, unknown> {
  const next: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(changes)) {
    if (isEmpty(v)) delete next[k];
    else next[k] = v;
  }
  return next;
}

export function show(v: unknown): string {
  if (v === null || v === undefined) return "(empty)";
  return Array.isArray(v) ? `[${v.join(", ")}]` : String(v);
}

/** The scalar members of a returned record, as the server names them (the id and server-only members left out). */
export function serverMembers(record: JsonObject): WireRecord {
  const out: WireRecord = {};
  for (const [k, v] of Object.entries(record)) {
    if (READ_ONLY_MEMBERS.has(k) || v === null || v === undefined || v === "") continue;
    if (typeof v === "number" || typeof v === "string") out[k] = v;
    else if (typeof v === "boolean") out[k] = v ? 1 : 0;
  }
  return out;
}
