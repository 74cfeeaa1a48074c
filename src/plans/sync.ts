import { stat } from "node:fs/promises";
import { basename, isAbsolute, resolve } from "node:path";
import type { EncodableRecord } from "../api/encode.js";
import { InputError, RentctlError } from "../base/errors.js";
import { HUMAN_FIELDS } from "../contract/human.js";
import { type Identity, IdentityIndex, identityOf } from "../contract/identity.js";
import type { JsonObject } from "../contract/records.js";
import type { ParamSpec } from "../contract/types.js";
import { coerce, type WireValue, wireAsIs } from "../contract/validate.js";
import type { CoreDeps } from "../deps.js";
import { catalogPort, checkVehicle, listVehicles } from "../files/adapters.js";
import { fieldSpec, IGNORED_KEYS, IMAGES_KEY, mapRow, ROW_FIELDS, type RowProblem } from "../files/fields.js";
import { type RawRow, readRows } from "../files/read.js";
import { createNameResolver, localRowProblems, memberChange, resolveRowNames } from "../files/resolver.js";
import type { FleetSource } from "../files/source.js";
import { withExtraHandles } from "./extra-names.js";
import {
  currentInput,
  type Plan,
  PlanBuilder,
  type PlanChange,
  type PlanCreate,
  type PlanUnchanged,
  rowLabel,
} from "./plan.js";
import { vehicleFingerprint } from "./saved-plan.js";
import { lookupField } from "./where.js";

/**
 * Fleet as code, the part `vehicle diff` and `vehicle apply` share: read a
 * fleet file (names resolved once per distinct value), list the account
 * once, and plan the file against it (src/plans/plan.ts).
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
  /** false: the plan counts unchanged rows without listing them (see PlanOptions). */
  listUnchanged?: boolean;
  /** `exact` leaves vehicle_extras alone (a fleet file's; see PlanOptions). */
  keepExtras?: boolean;
}

/** The images of a row that gives none (shared: rows are many, and their images are only read). */
const NO_IMAGES: string[] = [];
Object.freeze(NO_IMAGES);

export interface FleetRow {
  row: number;
  /** Wire name -> value, names resolved; `null` = the row gives the field empty (must be empty). */
  values: Record<string, unknown>;
  /** Absolute image file paths. */
  images: string[];
  /** `values` are in wire form as written (inWireForm): the plan takes them as they are. */
  wire?: boolean;
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

/**
 * A vehicle row's `extras:` member (an account file's references by identity)
 * resolved to the account's extra ids; problems name the member. Given by the
 * account layer (src/plans/account-plan.ts existingExtrasRefs): `vehicle diff /
 * apply` of an account file manage the vehicles only, and their references
 * resolve against the extras the account has.
 */
export type ExtraRefsHook = (
  row: number,
  reg: string,
  given: unknown,
) => Promise<{ ids: number[]; problems: RowProblem[] }>;

/** What mapping a file's rows found: every row's problems (named by row), how many rows were bad, how many there were. */
export interface RowTally {
  problems: Array<{ field: string; message: string }>;
  bad: number;
  total: number;
  /** Some value was given by name (a catalog was read to resolve it). */
  named: boolean;
}

export const newTally = (): RowTally => ({ problems: [], bad: 0, total: 0, named: false });

/** The InputError (exit 2, nothing sent) of the rows a tally found bad; undefined when none was. */
export function tallyError(label: string, tally: RowTally): InputError | undefined {
  return tally.bad ? problemsError(label, tally.problems, tally.bad, tally.total) : undefined;
}

/** A member that coerce keeps exactly as written, with no problem (wireAsIs; or, for the identifiers, coerce itself). */
function asWritten(spec: ParamSpec, v: unknown): boolean {
  if (wireAsIs(spec, v) !== undefined) return true;
  if (spec.type !== "string" || typeof v !== "string" || HUMAN_FIELDS.has(spec.name)) return false;
  const r = coerce(spec, v);
  return r.problems.length === 0 && r.value === v;
}

/**
 * Whether a row is already what mapping would make of it: every member a
 * field under its wire name, given (not empty), of its wire type and valid as
 * written, with nothing to resolve or convert. Such a row (an export without
 * `--names`, as a rule) is used as it is: mapRow, resolveRowNames and rowFields
 * would hand back the same members, one by one (test/fleet/stream-plan.test.ts
 * checks it).
 */
export function inWireForm(data: Record<string, unknown>, resolvable: (field: string) => boolean): boolean {
  for (const key in data) {
    const spec = fieldSpec(key);
    if (!spec || spec.name !== key) return false; // an alias, a non-field (images, ids), an unknown key
    const v = data[key];
    if (isEmptyValue(v) || !asWritten(spec, v)) return false;
    const r = resolvable(key);
    // (no closure per member: this runs for every field of every row)
    if (Array.isArray(v)) {
      for (const m of v) if (memberChange(m, spec.namesFrom, r) !== undefined) return false;
    } else if (memberChange(v, spec.namesFrom, r) !== undefined) return false;
  }
  return true;
}

/**
 * The rows of a file, one at a time, mapped to wire names with catalog names
 * resolved, `extras:` references resolved (extraRefs) and image files
 * checked. A row with problems is not handed out: its problems go to the
 * tally (all of them, every row, so that one error lists them together).
 */
export async function* mapRows(
  deps: CoreDeps,
  source: FleetSource,
  raws: AsyncIterable<RawRow> | Iterable<RawRow>,
  tally: RowTally,
  /** Resolve the rows' `extras:` references (without it, `extras` is an unknown key). */
  extraRefs?: ExtraRefsHook,
): AsyncGenerator<FleetRow> {
  // catalog values by name, and `vehicle_extras` by option name as wherever an extra is taken
  const resolver = withExtraHandles(deps, createNameResolver(await catalogPort(deps)));
  for await (const raw of raws) {
    tally.total++;
    let data = raw.data;
    let refs: unknown;
    const hasRefs = extraRefs !== undefined && !raw.textual && "extras" in data;
    if (hasRefs) {
      const { extras, ...rest } = data;
      refs = extras;
      data = rest;
    }
    // (a row giving both `extras:` and `vehicle_extras` takes the long way: it is a problem)
    if (!raw.textual && !(hasRefs && "vehicle_extras" in data) && inWireForm(data, resolver.resolvable)) {
      // already in wire form (an export): its members as they are, no copy
      const values: Record<string, unknown> = data;
      if (hasRefs) {
        const reg = typeof values.vehicle_reg_number === "string" ? values.vehicle_reg_number.trim() : "";
        const r = await extraRefs!(raw.row, reg, refs);
        if (r.problems.length) {
          tally.bad++;
          for (const p of r.problems)
            tally.problems.push({ field: `${rowLabel(raw.row, values)} ${p.field}`, message: p.message });
          continue;
        }
        values.vehicle_extras = r.ids.length ? r.ids : null;
      }
      yield { row: raw.row, values, images: NO_IMAGES, wire: true };
      continue;
    }
    const mapped = mapRow(data);
    const values = mapped.values;
    // A member given empty in json / ndjson / yaml means "must be empty" (an empty csv cell stays absent).
    if (!raw.textual) {
      for (const k in data) {
        const v = data[k];
        if (!isEmptyValue(v)) continue;
        const key = k.trim();
        if (IGNORED_KEYS.has(key) || key === IMAGES_KEY) continue;
        const spec = lookupField(key, ROW_FIELDS);
        if (spec && !(spec.name in values)) values[spec.name] = null;
      }
    }
    const found = mapped.problems;
    // the checks that need no server first (src/contract/refs.ts): a row with a local mistake reads no
    // catalog (whether it creates, and so must give every required field, is known once the account is listed)
    const local = localRowProblems(resolver, values, false);
    if (local.length) found.push(...local.filter((p) => !found.some((q) => q.field === p.field)));
    else {
      const named = await resolveRowNames(resolver, values);
      if (named.length) found.push(...named);
    }
    if (hasRefs && !local.length) {
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
    if (images.length) found.push(...(await imageProblems(images)));
    if (resolver.fetches > 0) tally.named = true;
    if (found.length) {
      tally.bad++;
      for (const p of found)
        tally.problems.push({ field: `${rowLabel(raw.row, values)} ${p.field}`, message: p.message });
      continue;
    }
    yield { row: raw.row, values, images };
  }
}

/**
 * Every row of the file, mapped (mapRows). All problems (unknown keys,
 * unknown names, missing image files) are listed together: an InputError
 * (exit 2), nothing sent.
 */
export async function readFleet(
  deps: CoreDeps,
  source: FleetSource,
  /** The rows, when the caller read the file itself (an account file's vehicles section). */
  given?: Iterable<RawRow>,
  extraRefs?: ExtraRefsHook,
): Promise<FleetRows> {
  const tally = newTally();
  const rows: FleetRow[] = [];
  for await (const row of mapRows(
    deps,
    source,
    given ?? readRows(source.path, source.format, source.label),
    tally,
    extraRefs,
  ))
    rows.push(row);
  const bad = tallyError(source.label, tally);
  if (bad) throw bad;
  return Object.assign(rows, { named: tally.named }) as FleetRows;
}

/** Every vehicle of the account (input fields and ids), listed once. */
export async function listAccount(deps: CoreDeps): Promise<JsonObject[]> {
  const out: JsonObject[] = [];
  for await (const page of listVehicles(deps, { warn: (m) => deps.msg.warn(m) })) out.push(...page);
  return out;
}

/** The key of an identity in a plan: registration number and country. */
export const keyOf = (id: Identity) => `${id.reg}|${id.country ?? ""}`;

/**
 * Thrown by AccountStream when the listing brings, after a row took the
 * vehicle of an identity, another vehicle of that identity with a lower id
 * (a server that does not list in id order, and an account with two vehicles
 * of one identity): the plan is made again with the whole account listed
 * first, so that the row matches the lowest id, as the rule says (the vehicle of its identity with the lowest id).
 */
export class ReplanWholly extends Error {}

/**
 * The account's vehicles as the listing streams in, for a plan that reads
 * the file at the same time: a vehicle is held only until a row takes it
 * (a file in the listing's order, as `export` writes it, holds a page or so),
 * so memory stays flat with the fleet. A row matches as a whole-list plan would:
 * the first listed vehicle its identity matches (IdentityIndex), and of the
 * vehicles with that key the lowest id.
 */
export class AccountStream {
  readonly #pages: AsyncIterator<JsonObject[]>;
  #next: Promise<IteratorResult<JsonObject[]>> | undefined;
  #done = false;
  /** The key of every identity listed, in listing order (first per key). */
  readonly #index = new IdentityIndex<string>();
  /** Per key: the listed vehicle of that key with the lowest id until a row takes it, then the id it took. */
  readonly #open = new Map<string, JsonObject | number>();
  /** Vehicles no row can take: no identity, or a second vehicle of one key. */
  readonly #others: JsonObject[] = [];
  /** Vehicles listed. */
  size = 0;

  /** `onRecord` sees every vehicle once, as it is listed (fingerprints of a saved plan). */
  constructor(
    pages: AsyncIterable<JsonObject[]>,
    private readonly onRecord?: (record: JsonObject) => void,
  ) {
    this.#pages = pages[Symbol.asyncIterator]();
    // the first page is asked for now: it comes while the file is opened and read
    this.#next = this.#pages.next();
    this.#next.catch(() => {});
  }

  /** An account already listed. */
  static of(records: readonly JsonObject[], onRecord?: (record: JsonObject) => void): AccountStream {
    return new AccountStream(
      (async function* () {
        yield [...records];
      })(),
      onRecord,
    );
  }

  get done(): boolean {
    return this.#done;
  }

  /** The next page into the index; false when the listing has ended. */
  async pull(): Promise<boolean> {
    if (this.#done) return false;
    const r = await (this.#next ?? this.#pages.next());
    this.#next = undefined;
    if (r.done) {
      this.#done = true;
      return false;
    }
    for (const record of r.value) this.#add(record);
    return true;
  }

  async pullAll(): Promise<void> {
    while (await this.pull());
  }

  #add(record: JsonObject): void {
    this.size++;
    this.onRecord?.(record);
    const identity = identityOf(record);
    if (!identity) {
      this.#others.push(record);
      return;
    }
    const key = keyOf(identity);
    const id = Number(record.id);
    const open = this.#open.get(key);
    if (typeof open === "number") {
      // taken: a lower id listed now would have been the one to take
      if (id < open) throw new ReplanWholly();
      this.#others.push(record);
      return;
    }
    if (!open) {
      this.#index.add(identity, key);
      this.#open.set(key, record);
    } else if (id < Number(open.id)) {
      this.#others.push(open);
      this.#open.set(key, record);
    } else this.#others.push(record);
  }

  /** The key a row's identity matches among the vehicles listed so far (undefined: none yet). */
  keyFor(identity: Identity): string | undefined {
    return this.#index.first(identity);
  }

  /** The vehicle of a key, for the one row that takes it (undefined: none, or taken). */
  take(key: string): JsonObject | undefined {
    const record = this.#open.get(key);
    if (record === undefined || typeof record === "number") return undefined;
    this.#open.set(key, Number(record.id));
    return record;
  }

  /** Every vehicle no row took (once the listing has ended). */
  untaken(): JsonObject[] {
    const out: JsonObject[] = [];
    for (const r of this.#open.values()) if (typeof r !== "number") out.push(r);
    return out.concat(this.#others);
  }
}

export interface StreamPlanOptions extends SyncOptions {
  /** The rows' tally (mapRows): its problems are thrown at the end, before any error of the plan. */
  tally?: RowTally;
  /** Every planned row, with its plan entry and the vehicle it matched (an account plan checks the extras still used). */
  onPlanned?: (entry: PlanCreate | PlanChange | PlanUnchanged, row: FleetRow, record: JsonObject | undefined) => void;
}

/**
 * Plan a file's rows against the account as both stream: each row is
 * compared with its vehicle as it is read and let go unless it changes
 * something. A row whose vehicle is not listed yet waits for one more page,
 * then is put aside until the listing ends (a create, or a file in another
 * order). Creates are checked as `vehicle create` checks them.
 */
export async function streamPlan(
  deps: CoreDeps,
  label: string,
  rows: AsyncIterable<FleetRow> | Iterable<FleetRow>,
  account: AccountStream,
  opts: StreamPlanOptions,
): Promise<SyncPlan> {
  const builder = new PlanBuilder(opts);
  const uploads = new Map<number, string[]>();
  const createRecords = new Map<number, EncodableRecord>();
  const problems: Array<{ field: string; message: string }> = [];
  let bad = 0;
  let rowCount = 0;
  let failed: unknown;
  const settle = async (row: FleetRow, desired: Record<string, WireValue | null>, key: string | undefined) => {
    const record = key === undefined ? undefined : account.take(key);
    let entry = builder.add(row.row, desired, key, record);
    if ("identity" in entry) {
      // a create
      if (row.images.length) uploads.set(row.row, row.images);
      const checked = await checkVehicle(deps, entry.record);
      if (checked.problems.length || !checked.record) {
        bad++;
        for (const p of checked.problems)
          problems.push({ field: `row ${entry.row} (${entry.reg}) ${p.field}`, message: p.message });
      } else createRecords.set(row.row, checked.record);
    } else if (record && row.images.length) {
      // image files for a vehicle with no images yet: attach them (a change of vehicle_images)
      const before = "fields" in entry ? entry.before : currentInput(record);
      if (wantsImages(row, before) && !("fields" in entry && "vehicle_images" in entry.fields)) {
        const change = "fields" in entry ? entry : builder.unchangedToChange(entry, before, record);
        uploads.set(row.row, row.images);
        change.fields.vehicle_images = { from: null, to: row.images.map((f) => `file ${basename(f)}`) };
        entry = change;
      }
    }
    opts.onPlanned?.(entry, row, record);
  };
  const deferred: Array<{ row: FleetRow; desired: Record<string, WireValue | null>; identity: Identity }> = [];
  for await (const row of rows) {
    rowCount++;
    if (failed !== undefined) continue; // the rest of the file is still read: its problems come first
    try {
      const desired = row.wire
        ? (row.values as Record<string, WireValue | null>)
        : builder.desired(row.values, row.row);
      const identity = identityOf(desired);
      let key = identity && account.keyFor(identity);
      if (identity && key === undefined && !account.done) {
        await account.pull();
        key = account.keyFor(identity);
      }
      if (identity && key === undefined && !account.done) deferred.push({ row, desired, identity });
      else await settle(row, desired, key ?? (identity && keyOf(identity)));
    } catch (e) {
      if (e instanceof ReplanWholly) throw e;
      failed = e;
    }
  }
  const rowsBad = opts.tally && tallyError(label, opts.tally);
  if (rowsBad) throw rowsBad;
  try {
    if (failed !== undefined) throw failed;
    await account.pullAll();
    for (const d of deferred) await settle(d.row, d.desired, account.keyFor(d.identity) ?? keyOf(d.identity));
  } catch (e) {
    if (e instanceof RentctlError && !(e instanceof ReplanWholly))
      e.message = `${label}: ${e.message} (nothing was sent)`;
    throw e;
  }
  if (bad) throw problemsError(label, problems, bad, rowCount);
  if (opts.prune) builder.prune(account.untaken());
  return {
    plan: builder.finish(),
    rows: opts.tally?.total ?? rowCount,
    accountSize: account.size,
    uploads,
    createRecords,
    named: opts.tally?.named === true,
  };
}

/** The account's listing as an AccountStream; `fingerprints` (when given) gets each vehicle's, as it is listed (a saved plan's). */
export function accountStream(deps: CoreDeps, fingerprints?: Record<string, string>): AccountStream {
  return new AccountStream(
    listVehicles(deps, { warn: (m) => deps.msg.warn(m) }),
    fingerprints &&
      ((r) => {
        fingerprints[String(r.id)] = vehicleFingerprint(r);
      }),
  );
}

/**
 * streamPlan of a file against the account's listing, with its one retry
 * (ReplanWholly: the whole account listed first, the file read again).
 * `rows` reads the file, its problems going to the tally it is given.
 * `listing`: one started earlier (while the caller read something else).
 */
export async function planAgainstListing(
  deps: CoreDeps,
  label: string,
  rows: (tally: RowTally) => AsyncIterable<FleetRow> | Promise<AsyncIterable<FleetRow>>,
  opts: Omit<StreamPlanOptions, "tally"> & { fingerprints?: Record<string, string>; listing?: AccountStream },
): Promise<SyncPlan> {
  let stream = opts.listing ?? accountStream(deps, opts.fingerprints);
  for (let attempt = 0; ; attempt++) {
    const tally = newTally();
    try {
      return await streamPlan(deps, label, await rows(tally), stream, { ...opts, tally });
    } catch (e) {
      if (!(e instanceof ReplanWholly) || attempt > 0) throw e;
      if (opts.fingerprints) for (const k of Object.keys(opts.fingerprints)) delete opts.fingerprints[k];
      stream = accountStream(deps, opts.fingerprints);
      await stream.pullAll();
    }
  }
}

/** Plan the rows against the account (listed); creates are checked as `vehicle create` checks them. */
export async function planFleet(
  deps: CoreDeps,
  label: string,
  rows: FleetRows,
  account: JsonObject[],
  opts: SyncOptions,
): Promise<SyncPlan> {
  const sync = await streamPlan(deps, label, rows, AccountStream.of(account), opts);
  return { ...sync, rows: rows.length, named: rows.named === true };
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
