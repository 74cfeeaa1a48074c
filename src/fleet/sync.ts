import { stat } from "node:fs/promises";
import { basename, isAbsolute, resolve } from "node:path";
import type { EncodableRecord } from "../api/encode.js";
import { IdentityIndex, identityOf } from "../contract/identity.js";
import type { JsonObject } from "../contract/records.js";
import type { Deps } from "../deps.js";
import { InputError, RentctlError } from "../errors.js";
import { settleHeap } from "../memory.js";
import { catalogPort, checkVehicle, listVehicles } from "./adapters.js";
import { IGNORED_KEYS, IMAGES_KEY, mapRow, ROW_FIELDS, type RowProblem } from "./fields.js";
import { computePlan, currentInput, type IdentityFn, type Plan, type PlanChange } from "./plan.js";
import { type RawRow, readRows } from "./read.js";
import { createNameResolver, resolveRowNames } from "./resolver.js";
import type { FleetSource } from "./source.js";
import { lookupField } from "./where.js";

/**
 * Fleet as code, the part `vehicle diff` and `vehicle apply` share: read a
 * fleet file (names resolved once per distinct value), list the account
 * once, and plan the file against it (src/fleet/plan.ts).
 *
 * Images: a row's `images:` paths are uploaded and attached when the row
 * creates a vehicle, or when the matched vehicle has no images yet; a vehicle
 * that already has images keeps them (the API offers no image download, so
 * files cannot be compared with what the server holds; giving
 * `vehicle_images` ids replaces them). A row with neither leaves images alone.
 */

export interface SyncOptions {
  prune?: boolean;
  exact?: boolean;
}

export interface FleetRow {
  row: number;
  /** Wire name -> value, names resolved; `null` = the row gives the field empty (must be empty). */
  values: Record<string, unknown>;
  /** Absolute image file paths. */
  images: string[];
}

export interface SyncPlan {
  plan: Plan;
  /** Rows in the file. */
  rows: number;
  /** Vehicles in the account when it was listed. */
  accountSize: number;
  /** Image files to upload and attach, by file row (creates, and changes that attach images). */
  uploads: Map<number, string[]>;
  /** The create records checked as `vehicle create` checks them (owner and locale filled), by file row. */
  createRecords: Map<number, EncodableRecord>;
  /** The file gave catalog values by name (`--names`): plans for people show names beside the ids. */
  named?: boolean;
}

/** The rows of a fleet file, and whether any value was given by name (a catalog was read to resolve it). */
export type FleetRows = FleetRow[] & { named?: boolean };

const isEmptyValue = (v: unknown) =>
  v === null || (typeof v === "string" && v.trim() === "") || (Array.isArray(v) && v.length === 0);

async function imageProblems(files: string[]): Promise<RowProblem[]> {
  const out: RowProblem[] = [];
  for (const f of files) {
    const s = await stat(f).catch(() => undefined);
    if (!s?.isFile())
      out.push({ field: IMAGES_KEY, message: `${f} ${s ? "is not a regular file" : "does not exist"}` });
    else if (s.size === 0) out.push({ field: IMAGES_KEY, message: `${f} is empty` });
  }
  return out;
}

function problemsError(label: string, problems: Array<{ field: string; message: string }>, bad: number, total: number) {
  return new InputError(`${label}: ${bad} of ${total} row${total === 1 ? "" : "s"} invalid (nothing was sent)`, {
    details: problems,
    hint: "fix the rows and run the command again",
  });
}

const rowLabel = (row: number, values: Record<string, unknown>) => {
  const reg = values.vehicle_reg_number;
  return `row ${row}${typeof reg === "string" && reg.trim() ? ` (${reg.trim()})` : ""}`;
};

/**
 * A vehicle row's `extras:` member (an account file's references by identity)
 * resolved to the account's extra ids; problems name the member. Given by the
 * account layer (src/account/plan.ts existingExtrasRefs): `vehicle diff /
 * apply` of an account file manage the vehicles only, and their references
 * resolve against the extras the account has.
 */
export type ExtraRefsHook = (
  row: number,
  reg: string,
  given: unknown,
) => Promise<{ ids: number[]; problems: RowProblem[] }>;

/**
 * Every row of the file, mapped to wire names with catalog names resolved.
 * All problems (unknown keys, unknown names, missing image files) are listed
 * together: an InputError (exit 2), nothing sent.
 */
export async function readFleet(
  deps: Deps,
  source: FleetSource,
  /** The rows, when the caller read the file itself (an account file's vehicles section). */
  given?: Iterable<RawRow>,
  /** Resolve the rows' `extras:` references (without it, `extras` is an unknown key). */
  extraRefs?: ExtraRefsHook,
): Promise<FleetRows> {
  const resolver = createNameResolver(await catalogPort(deps));
  const rows: FleetRow[] = [];
  const problems: Array<{ field: string; message: string }> = [];
  let bad = 0;
  for await (const raw of given ?? readRows(source.path, source.format, source.label)) {
    settleHeap();
    let data = raw.data;
    let refs: unknown;
    const hasRefs = extraRefs !== undefined && !raw.textual && "extras" in data;
    if (hasRefs) {
      const { extras, ...rest } = data;
      refs = extras;
      data = rest;
    }
    const mapped = mapRow(data, raw.textual);
    const values = mapped.values;
    // A member given empty in json / ndjson / yaml means "must be empty" (an empty csv cell stays absent).
    if (!raw.textual) {
      for (const [k, v] of Object.entries(data)) {
        const key = k.trim();
        if (IGNORED_KEYS.has(key) || key === IMAGES_KEY || !isEmptyValue(v)) continue;
        const spec = lookupField(key, ROW_FIELDS);
        if (spec && !(spec.name in values)) values[spec.name] = null;
      }
    }
    const found = [...mapped.problems, ...(await resolveRowNames(resolver, values))];
    if (hasRefs) {
      if (values.vehicle_extras !== undefined && values.vehicle_extras !== null)
        found.push({
          field: "extras",
          message: "give extras by identity (extras:) or by id (vehicle_extras:), not both",
        });
      else {
        const reg = typeof values.vehicle_reg_number === "string" ? values.vehicle_reg_number.trim() : "";
        const r = await extraRefs!(raw.row, reg, refs);
        found.push(...r.problems);
        values.vehicle_extras = r.ids.length ? r.ids : null;
      }
    }
    const images = mapped.images.map((p) => (isAbsolute(p) ? p : resolve(source.baseDir, p)));
    found.push(...(await imageProblems(images)));
    if (found.length) {
      bad++;
      for (const p of found) problems.push({ field: `${rowLabel(raw.row, values)} ${p.field}`, message: p.message });
    }
    rows.push({ row: raw.row, values, images });
  }
  if (bad) throw problemsError(source.label, problems, bad, rows.length);
  return Object.assign(rows, { named: resolver.fetches > 0 }) as FleetRows;
}

/** Every vehicle of the account (input fields and ids), listed once. */
export async function listAccount(deps: Deps): Promise<JsonObject[]> {
  const out: JsonObject[] = [];
  for await (const page of listVehicles(deps, { warn: (m) => deps.msg.warn(m) })) out.push(...page);
  return out;
}

/**
 * The identity key function of a plan: a record's key is its registration
 * number and country; a row without a country takes the key of the account
 * vehicle it matches (as import matches identities).
 */
export function identityKeys(records: readonly JsonObject[]): IdentityFn {
  const keyOf = (id: { reg: string; country?: number }) => `${id.reg}|${id.country ?? ""}`;
  const index = new IdentityIndex<string>();
  for (const r of records) {
    const id = identityOf(r);
    if (id) index.add(id, keyOf(id));
  }
  return (r) => {
    const id = identityOf(r);
    if (!id) return undefined;
    if ("id" in r) return keyOf(id);
    return index.find(id)[0] ?? keyOf(id);
  };
}

/** Plan the rows against the account; creates are checked as `vehicle create` checks them. */
export async function planFleet(
  deps: Deps,
  label: string,
  rows: FleetRows,
  account: JsonObject[],
  opts: SyncOptions,
): Promise<SyncPlan> {
  let plan: Plan;
  try {
    plan = computePlan(
      rows.map((r) => r.values),
      account,
      { identity: identityKeys(account), exact: opts.exact, prune: opts.prune },
    );
  } catch (e) {
    if (e instanceof RentctlError) e.message = `${label}: ${e.message} (nothing was sent)`;
    throw e;
  }
  const byRow = new Map(rows.map((r, i) => [i + 1, r]));
  const uploads = new Map<number, string[]>();
  const createRecords = new Map<number, EncodableRecord>();
  const problems: Array<{ field: string; message: string }> = [];
  let bad = 0;
  for (const c of plan.create) {
    const r = byRow.get(c.row);
    if (r?.images.length) uploads.set(c.row, r.images);
    const checked = await checkVehicle(deps, c.record);
    if (checked.problems.length || !checked.record) {
      bad++;
      for (const p of checked.problems)
        problems.push({ field: `row ${c.row} (${c.reg}) ${p.field}`, message: p.message });
    } else createRecords.set(c.row, checked.record);
  }
  if (bad) throw problemsError(label, problems, bad, rows.length);

  // Rows with image files whose vehicle has no images yet: attach them (a change of vehicle_images).
  const changeByRow = new Map(plan.change.map((c) => [c.row, c]));
  const byId = new Map(account.map((r) => [Number(r.id), r]));
  const unchanged = [];
  for (const u of plan.unchangedList) {
    const r = u.row === undefined ? undefined : byRow.get(u.row);
    const record = byId.get(u.vehicle_id);
    // (a row without image files attaches none: its record's input is not needed)
    if (!r || !record || r.images.length === 0 || !wantsImages(r, currentInput(record))) {
      unchanged.push(u);
      continue;
    }
    const before = currentInput(record);
    const change: PlanChange = {
      vehicle_id: u.vehicle_id,
      reg: u.reg,
      row: u.row,
      fields: {},
      before,
      after: { ...before },
      record,
    };
    plan.change.push(change);
    changeByRow.set(u.row, change);
  }
  plan.unchangedList = unchanged;
  plan.unchanged = unchanged.length;
  plan.change.sort((a, b) => (a.row ?? 0) - (b.row ?? 0));
  for (const [row, change] of changeByRow) {
    const r = row === undefined ? undefined : byRow.get(row);
    if (!r || row === undefined || !wantsImages(r, change.before) || "vehicle_images" in change.fields) continue;
    uploads.set(row, r.images);
    change.fields.vehicle_images = { from: null, to: r.images.map((f) => `file ${basename(f)}`) };
  }
  return { plan, rows: rows.length, accountSize: account.length, uploads, createRecords, named: rows.named === true };
}

/** A row attaches its image files when it gives some, gives no ids, and the vehicle has none. */
function wantsImages(r: FleetRow, before: Record<string, unknown>): boolean {
  const current = before.vehicle_images;
  return (
    r.images.length > 0 &&
    (r.values.vehicle_images === undefined || r.values.vehicle_images === null) &&
    (current === undefined || (Array.isArray(current) && current.length === 0))
  );
}
