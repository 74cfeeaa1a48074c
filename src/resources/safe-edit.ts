import { describeRequest } from "../api/dry-run.js";
import type { EncodableRecord } from "../api/encode.js";
import { operation } from "../contract/operations.js";
import {
  type JsonObject,
  normalizeRecord,
  READ_ONLY_MEMBERS,
  recordToInput,
  unwrapRecord,
} from "../contract/records.js";
import { crossFieldProblems, isEmpty, type Problem, validateRecord, type WireRecord } from "../contract/validate.js";
import type { Deps } from "../deps.js";
import { ConflictError, InputError } from "../errors.js";
import { historyTarget } from "../history/history.js";
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

export async function fetchRecord(deps: Deps, res: Resource, id: number): Promise<JsonObject> {
  const client = await deps.client();
  const params: EncodableRecord = { [res.idParam]: id, locale_id: await deps.locale() };
  const r = await client.call(res.getOp, params);
  return normalizeRecord(unwrapRecord(r.decoded.body, res.kind), res.kind);
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

export interface UpdateOptions {
  replace?: boolean;
  /** Required fields that must stay present after the change (full-replacement APIs). */
  requireAll?: boolean;
}

export interface UpdateResult {
  changes: Change[];
  sent?: EncodableRecord;
  body?: JsonObject;
  journalOp?: string;
}

export async function safeUpdate(
  deps: Deps,
  res: Resource,
  id: number,
  change: Record<string, unknown> | ((base: WireRecord) => Record<string, unknown>),
  opts: UpdateOptions = {},
): Promise<UpdateResult> {
  const current = await fetchRecord(deps, res, id);
  if (res.mirrorServer) return mirroredUpdate(deps, res, id, current, change, opts);
  const base = inputOf(res, current);
  const changes = typeof change === "function" ? change(base) : change;
  const merged = opts.replace ? { ...changes } : applyChanges(base, changes);
  const { record, problems } = validateRecord(merged, res.fields, {
    requireRequired: Boolean(opts.requireAll),
    allowUnknown: true,
  });
  problems.push(...(res.kind === "vehicle" ? crossFieldProblems(record) : []));
  if (problems.length) throw problemsError(problems, `${res.noun} ${id}`);
  return sendChecked(deps, res, id, { current, base, record, view: (r) => inputOf(res, r) }, opts);
}

/**
 * The shared end of every safe update: the difference, the dry run, "nothing
 * to change", the re-read that stops when the record moved meanwhile, the
 * undo entry, and the one write of the full record.
 */
async function sendChecked(
  deps: Deps,
  res: Resource,
  id: number,
  s: { current: JsonObject; base: WireRecord; record: WireRecord; view: (record: JsonObject) => WireRecord },
  opts: UpdateOptions,
): Promise<UpdateResult> {
  const diff = diffRecords(s.base, s.record);
  const fixed = await res.fixed(deps);
  const payload: EncodableRecord = { [res.idParam]: id, ...fixed, ...s.record };
  const target = await deps.target();
  if (deps.flags.dryRun) {
    await printDiff(deps, res, id, diff, describeRequest(target.baseUrl, res.updateOp, payload));
    return { changes: diff };
  }
  if (diff.length === 0 && !opts.replace) {
    deps.msg.info(`${res.noun} ${id}: nothing to change`);
    return { changes: diff };
  }
  // Read again just before writing: stop if someone changed it meanwhile.
  const moved = diffRecords(s.base, s.view(await fetchRecord(deps, res, id)));
  if (moved.length) {
    throw new ConflictError(
      `${res.noun} ${id} changed while this ${res.updateOp === "vehicles.edit" ? "edit" : "update"} was prepared; nothing was sent`,
      {
        details: moved.map((c) => ({ field: c.field, message: `${show(c.before)} → ${show(c.after)}` })),
        hint: "run the command again to apply your change to the new values",
      },
    );
  }
  const { historyFor } = await import("../history/history.js");
  const entry = historyFor(deps.paths.dataDir, target)?.record(
    { action: res.updateAction, id, before: s.current, ...historyTarget(target) },
    deps.now(),
  );
  deps.msg.acting(target, `${res.updateOp === "vehicles.edit" ? "editing" : "updating"} ${res.noun} ${id}`);
  const client = await deps.client();
  const r = await client.call(res.updateOp, payload);
  return { changes: diff, sent: payload, body: r.decoded.body, journalOp: entry?.op };
}

export function show(v: unknown): string {
  if (v === null || v === undefined) return "(empty)";
  return Array.isArray(v) ? `[${v.join(", ")}]` : String(v);
}

export async function printDiff(
  deps: Deps,
  res: Resource,
  id: number,
  diff: Change[],
  request: JsonObject,
): Promise<void> {
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

/**
 * Safe update of a record whose members the contract does not show (an
 * extra): the server's current record is sent back as the server names it,
 * every scalar member but the id (which goes as the id parameter), with the
 * user's change applied by wire name or by its declared alias. Only a member
 * the contract says must be sent and that the record lacks is refused,
 * naming it and how to pass it with --set.
 */
async function mirroredUpdate(
  deps: Deps,
  res: Resource,
  id: number,
  current: JsonObject,
  change: Record<string, unknown> | ((base: WireRecord) => Record<string, unknown>),
  opts: UpdateOptions,
): Promise<UpdateResult> {
  const aliases = res.mirrorServer!.aliases;
  const base = serverMembers(current);
  delete base.locale_id;
  const changes = typeof change === "function" ? change(base) : change;
  // The name the record uses for a field (or the field's own name when the record has none of them).
  const nameIn = (rec: Record<string, unknown>, field: string) =>
    [field, ...(aliases[field] ?? [])].find((n) => rec[n] !== undefined) ?? field;
  const merged: Record<string, unknown> = opts.replace ? {} : { ...base };
  for (const [k, v] of Object.entries(changes)) {
    const name = nameIn(base, k);
    if (isEmpty(v)) delete merged[name];
    else merged[name] = v;
  }
  // Validate the known members under their field's rules, whatever the server calls them.
  const problems: Problem[] = [];
  const record: WireRecord = { ...(merged as WireRecord) };
  for (const spec of res.fields) {
    const name = nameIn(merged, spec.name);
    if (merged[name] === undefined) {
      if (spec.required === true) {
        problems.push({
          field: spec.name,
          message: `the ${res.noun}'s record has no ${[spec.name, ...(aliases[spec.name] ?? [])].join(" / ")} member, and it must be sent: pass it with --set ${spec.name}=VALUE (or --set NAME=VALUE under the server's own name)`,
        });
      }
      continue;
    }
    const checked = validateRecord({ [spec.name]: merged[name] }, [spec], {
      requireRequired: false,
      allowUnknown: false,
    });
    for (const p of checked.problems) problems.push({ field: name, message: p.message });
    const value = checked.record[spec.name];
    if (value !== undefined) record[name] = value;
  }
  if (problems.length) throw problemsError(problems, `${res.noun} ${id}`);
  const view = (r: JsonObject) => {
    const m = serverMembers(r);
    delete m.locale_id;
    return m;
  };
  return sendChecked(deps, res, id, { current, base, record, view }, opts);
}
