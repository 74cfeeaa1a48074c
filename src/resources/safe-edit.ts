import type { EncodableRecord } from "../api/encode.js";
import { AuthError } from "../api/errors.js";
import { InputError } from "../base/errors.js";
import { operation } from "../contract/operations.js";
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

/**
 * A dry run with -q (cli.md: print only identifiers of affected resources): the ids it would
 * change, one a line, and nothing else on either stream (no request, plan or summary; a create,
 * which has no id yet, prints nothing). Returns whether -q was given (the dry run is then told).
 */
export async function quietDryRun(deps: Deps, ids: readonly number[]): Promise<boolean> {
  if (!deps.flags.quiet) return false;
  if (ids.length) await deps.out.ids([...ids]);
  return true;
}

export async function printDiff(
  deps: Deps,
  res: Resource,
  id: number,
  diff: Change[],
  request: JsonObject,
): Promise<void> {
  if (await quietDryRun(deps, diff.length ? [id] : [])) return;
  const format = deps.settings().output;
  if (format === "table") {
    const c = deps.outColor;
    if (diff.length === 0) deps.io.stdout.write(`${res.noun} ${id}: no change\n`);
    for (const d of diff) {
      deps.io.stdout.write(`${c.bold(d.field)}: ${c.red(show(d.before))} → ${c.green(show(d.after))}\n`);
    }
    const target = await deps.target();
    const who = target.userId !== undefined ? ` as owner ${target.userId}` : "";
    deps.msg.info(
      deps.color.dim(
        `dry run: would ${res.updateOp === "vehicles.edit" ? "edit" : "update"} ${res.noun} ${id} on ${target.env}${who}; ${operation(res.updateOp).method} ${request.url} was not sent`,
      ),
    );
    return;
  }
  await deps.out.record({ dry_run: true, id, changes: diff as unknown as JsonObject[], request } as JsonObject);
}

/** What an edit of one record answered (vehicle edit ID, extra update ID): its changes, sent or planned. */
export interface OneEdit {
  changes: Change[];
  sent: boolean;
  undoOp?: string;
  dryRun?: { request: JsonObject };
}

/**
 * The result of an edit of one record: a dry run's diff; nothing to change (said on stderr); else
 * with -o `{id, changes, undo}` (also with no changes, `changes: []`: a script reads one shape
 * either way), with -q the id. Returns whether a change was made and its success line is wanted.
 */
export async function printOneEdit(deps: Deps, res: Resource, id: number, r: OneEdit): Promise<boolean> {
  if (r.dryRun) {
    await printDiff(deps, res, id, r.changes, r.dryRun.request);
    return false;
  }
  const structured = !deps.flags.quiet && deps.settings().output !== "table";
  if (!r.sent) {
    deps.msg.info(`${res.noun} ${id}: nothing to change`);
    if (structured) await deps.out.record({ id, changes: [], undo: null });
    return false;
  }
  if (deps.flags.quiet) {
    await deps.out.ids([id]);
    return false;
  }
  if (structured) await deps.out.record({ id, changes: r.changes as never, undo: r.undoOp ?? null });
  return true;
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
