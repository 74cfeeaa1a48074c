import type { ApiClient } from "../api/client.js";
import type { EncodableRecord } from "../api/encode.js";
import { MalformedResponseError } from "../api/errors.js";
import { InputError, InterruptedError, UsageError } from "../base/errors.js";
import type { AccountApplyResult } from "../bulk/account-apply.js";
import { requireUser } from "../config/target.js";
import { EXTRA_EDITABLE_FIELDS, EXTRA_FIELDS } from "../contract/extra-fields.js";
import type { JsonObject } from "../contract/records.js";
import { normalizeRecord } from "../contract/records.js";
import { VEHICLE_EDITABLE_FIELDS, VEHICLE_FIELDS } from "../contract/vehicle-fields.js";
import type { OwnedDeps } from "../deps.js";
import { formatFor } from "../files/format.js";
import { applyAccountPlan } from "../ops/account/apply.js";
import { planAccountDocument } from "../ops/account/plan.js";
import { createExtra } from "../ops/extra/create.js";
import { deleteExtra } from "../ops/extra/delete.js";
import { setExtraActive } from "../ops/extra/enable.js";
import { switchExtra } from "../ops/extra/switch.js";
import { updateExtra } from "../ops/extra/update.js";
import { extraId, extraMembers, vehicleId, vehicleIds } from "../ops/handles.js";
import { LIBRARY_ANY_TYPE_HINT, uploadImages } from "../ops/image/upload.js";
import { loadConfig } from "../ops/lint/config.js";
import type { Finding, LintResult } from "../ops/lint/lint.js";
import { lintAccount } from "../ops/lint/lint.js";
import type { HistoryRow } from "../ops/undo/history.js";
import { undoHistory } from "../ops/undo/history.js";
import type { Recreated, UndoItem, UndoResult } from "../ops/undo/undo.js";
import { LIBRARY_UNDO_HINTS, undo } from "../ops/undo/undo.js";
import { createVehicle } from "../ops/vehicle/create.js";
import { editVehicle } from "../ops/vehicle/edit.js";
import { applyVehiclePlan, planEditMany } from "../ops/vehicle/edit-many.js";
import { removeVehicle } from "../ops/vehicle/remove.js";
import { accountPlanMarkdown } from "../plans/account-print.js";
import type { SavedPlan } from "../plans/saved-plan.js";
import * as sp from "../plans/saved-plan.js";
import { listExtras, listVehicles } from "../resources/list.js";
import type { Change } from "../resources/safe-edit.js";
import { EXTRA, fetchRecord, VEHICLE } from "../resources/safe-edit.js";
import { type LibraryOptions, libraryContext } from "./context.js";
import {
  CATALOG_OPERATION_IDS,
  type CatalogItem,
  type CatalogItems,
  type CatalogName,
  type CatalogParams,
  type Currency,
  type Extra,
  type ExtraChange,
  type ExtraInput,
  type Image,
  type Locale,
  type Segment,
  type Vehicle,
  type VehicleChange,
  type VehicleInput,
} from "./contract-types.js";

/**
 * The records as the server answers them (wire names; `id` first), typed from the record schemas
 * (src/contract/schemas.ts); members the contract does not name are kept, typed unknown.
 */
export type {
  AccountApplyResult,
  CatalogItem,
  CatalogItems,
  Change,
  Currency,
  Extra,
  ExtraChange,
  ExtraInput,
  Finding as LintFinding,
  HistoryRow,
  Image,
  LintResult,
  Locale,
  Recreated,
  SavedPlan,
  Segment,
  UndoItem,
  UndoResult,
  Vehicle,
  VehicleChange,
  VehicleInput,
};

export interface ClientOptions extends LibraryOptions {}

import type { ImageFile } from "../ops/image/upload.js";

export type { ImageFile };

/** What any read takes besides its arguments. */
export interface CallOptions {
  /**
   * Stop: the request in flight is aborted and no further one is sent (a listing stops between
   * pages); the call then rejects with InterruptedError (code 130).
   */
  signal?: AbortSignal;
  /** Bound on each attempt of this call's requests, in milliseconds (overrides createClient's `timeout`). */
  timeout?: number;
}

export interface UndoOptions {
  /** An apply's undo: also undo vehicles changed since the apply (their later changes are lost). */
  force?: boolean;
  /** Check everything, send nothing: the result says what would be done. */
  dryRun?: boolean;
  /** Stop between rows (a many-vehicle op, an apply): what is in flight finishes; then InterruptedError. */
  signal?: AbortSignal;
}

export interface ListOptions extends CallOptions {
  /** Every page (an async iterator that asks for the next page only when the caller wants it). Default: one page. */
  all?: boolean;
  /** Page size of one page (default 15); `all` walks pages of 100. */
  limit?: number;
  /** Records to skip (one page only). */
  offset?: number;
}

export interface WriteResult<R> {
  id: number;
  record: R;
  /** The undo history's op (`rentctl undo OP`), when the client keeps a history (dataDir given). */
  undoOp?: string;
}

/** Which vehicles `vehicles.editMany` changes: ids, a `where` selection (`"segment=cars"`, `"price_per_day<40"`), or all. */
export interface VehicleSelectionInput {
  ids?: VehicleHandle[];
  where?: string[];
  all?: boolean;
}

/** The change of `vehicles.editMany`: a vehicle's fields, numbers also relative as strings (`"+10%"`, `"-5"`, `"*1.1"`). */
export type VehicleManyChange = { [K in keyof VehicleChange]?: VehicleChange[K] | string };

export interface EditManyOptions {
  /** A relative result that is not a whole number is rounded half up, one outside its field's range set to the bound (else refused, nothing sent). */
  clamp?: boolean;
  /** Let the change give a registration number another vehicle has. */
  allowDuplicate?: boolean;
  /** Plan only: the changes are returned, nothing is sent. */
  dryRun?: boolean;
  /** Requests in flight at once, 1 to 16 (default 4). */
  concurrency?: number;
  /** Ignore the row log of an interrupted run of the same change (default: continue its plan). */
  restart?: boolean;
  /** Stop: no new requests; what is in flight finishes; then InterruptedError. */
  signal?: AbortSignal;
  /** Each vehicle's outcome as it is known. */
  onProgress?: (p: { id: number; status: string; done: number; total: number }) => void;
}

export interface EditManyResult {
  /** Each vehicle that changes (or would, on a dry run): its fields, old and new. */
  vehicles: Array<{ id: number; reg: string; fields: Record<string, { from: unknown; to: unknown }> }>;
  /** Selected vehicles that already held the change. */
  unchanged: number;
  /** Vehicles by outcome (`changed`, `failed`, ...); empty on a dry run. */
  counts: Record<string, number>;
  /** The undo op that restores every vehicle. */
  undoOp?: string;
}

export interface EditResult {
  /** The fields that changed (empty: the record already held the change; nothing was sent). */
  changes: Change[];
  undoOp?: string;
}

/** @deprecated Use `AccountApplyResult` (the library's `fleet` is now `account`). */
export type FleetApplyResult = AccountApplyResult;

/**
 * An account document as an account file holds it: `{ extras: [...], vehicles: [...] }` (rows as in
 * the files: wire names or the short names, catalog values by id or name), or a list of vehicles.
 */
export type AccountDocument = { extras?: object[]; vehicles?: object[] } | object[];

/** @deprecated Use `AccountDocument` (the library's `fleet` is now `account`). */
export type FleetDocument = AccountDocument;

export interface PlanOptions {
  /** Also delete the extras and remove the vehicles the input does not list. */
  prune?: boolean;
  /** Fields a row leaves out must be empty (the plan clears them). */
  exact?: boolean;
  /** The input's format when it is a path without a telling extension: yaml, json, ndjson, csv. */
  format?: "yaml" | "json" | "ndjson" | "csv";
}

/** A plan of account.plan: what apply will do, for a person to review, and the saved plan apply runs. */
export interface AccountPlan {
  /** False when the account already matches the input. */
  changes: boolean;
  /** The review summary (as `rentctl account diff --markdown`). */
  markdown: string;
  /**
   * The plan as `account diff --out FILE` saves it (JSON-serialisable: write it to a file and
   * `rentctl account apply --plan FILE` applies it, or pass it to account.apply).
   */
  saved: SavedPlan;
}

/** @deprecated Use `AccountPlan` (the library's `fleet` is now `account`). */
export type FleetPlan = AccountPlan;

export interface ApplyOptions {
  /** Stop: no new rows; the rows in flight finish and are recorded in the row log (account.apply then throws InterruptedError, code 130). */
  signal?: AbortSignal;
  /** Each row's outcome as it is known. */
  onProgress?(row: { key: string; status: string; id?: number; error?: string }, done: number, total: number): void;
  /** Requests in flight at once, 1-16 (default 4). */
  concurrency?: number;
  /** Let a pruning plan remove more than half of the vehicles, or more than 20. */
  allowMassDelete?: boolean;
  /** Ignore the row log of an interrupted apply of the same plan. */
  restart?: boolean;
}

export interface AccountMethods {
  /** Plan an account file (path) or document (`{ extras, vehicles }`, or a list of vehicles) against the account. */
  plan(input: string | AccountDocument, opts?: PlanOptions): Promise<AccountPlan>;
  /**
   * Run exactly the plan: refused (StalePlanError, code 8, nothing sent) when a record it read
   * changed since; locked, recorded in a row log and resumable (the same plan applied again after
   * an abort finishes the rest); one undo op when the client keeps a history.
   */
  apply(plan: AccountPlan | SavedPlan, opts?: ApplyOptions): Promise<AccountApplyResult>;
}

type CatalogMethods = { [K in CatalogName]: (params?: CatalogParams[K]) => Promise<CatalogItems[K][]> };

export interface RentctlClient {
  /** The owner every vehicle call is made for. */
  readonly userId: number | undefined;
  /** The reference catalogs (cached per client; the locale of the client). */
  readonly catalog: CatalogMethods;
  readonly vehicles: {
    /** Pages of vehicles, each an array; `for await (const page of client.vehicles.list({ all: true }))`. */
    list(opts?: ListOptions): AsyncIterable<Vehicle[]>;
    /** A vehicle by id or registration number (`"B-SC 1001"`), as everywhere an id is taken. */
    get(id: VehicleHandle, opts?: CallOptions): Promise<Vehicle>;
    /**
     * Checked with the CLI's rules (InputError listing every problem, nothing sent: unknown fields,
     * values, a registration number another vehicle has unless allowDuplicate), then created.
     */
    create(input: VehicleInput, opts?: { allowDuplicate?: boolean }): Promise<WriteResult<Vehicle>>;
    /** The guarded safe edit: read, change, check, read again and refuse (ConflictError) if it moved, send the whole record. */
    edit(id: VehicleHandle, change: VehicleChange, opts?: { allowDuplicate?: boolean }): Promise<EditResult>;
    remove(id: VehicleHandle): Promise<{ undoOp?: string }>;
    /**
     * A change of many vehicles (the CLI's `vehicle edit --where`): values by wire name, numbers
     * absolute or relative as strings (`"+10%"`, `"-5"`, `"*1.1"`), planned over every selected
     * vehicle first (a refusal sends nothing), then sent on the bulk job: each vehicle re-read
     * before its write, one undo op, a rerun after an interruption continues the same plan.
     */
    editMany(
      selection: VehicleSelectionInput,
      change: VehicleManyChange,
      opts?: EditManyOptions,
    ): Promise<EditManyResult>;
  };
  readonly images: {
    /**
     * Upload images (10 per request); returns their ids in order, for `vehicle_images`. A file whose
     * content is no JPEG, PNG, GIF, WebP, HEIC or AVIF is refused (nothing sent) unless `anyType`.
     */
    upload(files: ImageFile[], opts?: { anyType?: boolean }): Promise<number[]>;
  };
  readonly extras: {
    list(opts?: CallOptions): Promise<Extra[]>;
    /** An extra by id or option name (`"GPS navigator"`, `"Child seat (period 2)"`), as everywhere an id is taken. */
    get(id: ExtraHandle, opts?: CallOptions): Promise<Extra>;
    create(input: ExtraInput): Promise<WriteResult<Extra>>;
    /** Guarded full replacement: the members not given are kept. */
    update(id: ExtraHandle, change: ExtraChange): Promise<EditResult>;
    /** Idempotent: reads the state and switches only when it differs. */
    enable(id: ExtraHandle): Promise<{ switched: boolean }>;
    disable(id: ExtraHandle): Promise<{ switched: boolean }>;
    /** The raw toggle. */
    switch(id: ExtraHandle): Promise<void>;
    /** Delete an extra; `usedBy` lists the vehicles it was attached to (its undo re-attaches it). */
    remove(id: ExtraHandle): Promise<{ undoOp?: string; usedBy: number[] }>;
  };
  /** The account as a whole (its extras and vehicles, as an account file holds them): plan a document, apply the plan. */
  readonly account: AccountMethods;
  /** @deprecated Use `account` (the same methods: they work on account documents). Kept for one release. */
  readonly fleet: AccountMethods;
  /**
   * Problems in the listings (`rentctl lint`): the live account, or an account / fleet file
   * (`file`: offline apart from catalog reads). Never writes. Findings carry rule, severity,
   * vehicle, field and message; `config` is a `.rentctl-lint.yaml` path (default: every rule).
   */
  lint(opts?: LintOptions): Promise<LintResult>;
  /**
   * Undo one op of the undo history (an `undoOp` a write returned, or one of `history()`): an edit's
   * record restored, a removed vehicle or deleted extra created again (new ids, in `recreated`:
   * old -> new; an extra comes back on or off as it was and on the vehicles that used it), a
   * create removed, an apply undone as a whole. Needs a client with `dataDir` (the history is kept
   * there). Refusals are UsageError (unknown op, already undone, another target); a vehicle of a
   * many-vehicle op that could not be restored: PartialFailureError (code 7).
   */
  undo(op: string, opts?: UndoOptions): Promise<UndoResult>;
  /**
   * The recent ops that can be undone, newest first (`limit`, default 20): those of this client's
   * target and owner, or every one's with `allOwners: true` (`user_id` says whose). Empty without `dataDir`.
   */
  history(opts?: { limit?: number; allOwners?: boolean }): Promise<HistoryRow[]>;
  /** Close the connections (and an in-process sandbox the client started). */
  close(): Promise<void>;
}

export interface LintOptions {
  /** An account or fleet file instead of the live account. */
  file?: string;
  /** The file's format when its extension does not tell: yaml, json, ndjson, csv. */
  format?: "yaml" | "json" | "ndjson" | "csv";
  /** A `.rentctl-lint.yaml` (rules off, severities, thresholds); unknown rule ids are a UsageError. */
  config?: string;
}

/**
 * A client of the Partner API for one owner: typed methods over the
 * operations the CLI's commands and the MCP tools call (src/ops), so every
 * rule, guard and undo entry is theirs. No global state: each client is its
 * own context (src/library/context.ts).
 */
export function createClient(options: ClientOptions): RentctlClient {
  const ctx = libraryContext(options);
  const deps = ctx.deps;
  const catalog = Object.fromEntries(
    (Object.keys(CATALOG_OPERATION_IDS) as CatalogName[]).map((name) => [
      name,
      async (params: Record<string, number> = {}) =>
        (await deps.catalogs().items(CATALOG_OPERATION_IDS[name], params)) as CatalogItem[],
    ]),
  ) as CatalogMethods;

  const account: AccountMethods = {
    plan: (input, opts = {}) => plan(deps, input, opts),
    apply: (p, opts = {}) => apply(deps, p, opts),
  };
  const client: RentctlClient = {
    get userId() {
      return options.userId ?? (options.env === "sandbox" && !options.baseUrl ? DEMO_OWNER : undefined);
    },
    catalog,
    vehicles: {
      list: (opts = {}) => listPages(deps, opts),
      get: async (id, opts = {}) => (await read(deps, "vehicle", id, opts)) as Vehicle,
      create: async (input, opts) => {
        const values = checkedObject(input, "vehicles.create");
        onlyFields(values, VEHICLE_FIELDS, "vehicles.create");
        const r = await createVehicle(deps, {
          values: await namedExtras(deps, values),
          allowDuplicate: opts?.allowDuplicate,
        });
        return created<Vehicle>(r.dryRun ? undefined : r);
      },
      edit: async (id, change, opts) => {
        const values = checkedObject(change, "vehicles.edit");
        onlyFields(values, VEHICLE_EDITABLE_FIELDS, "vehicles.edit");
        const r = await editVehicle(deps, {
          id: await vehicleHandle(deps, id),
          changes: await namedExtras(deps, values),
          allowDuplicate: opts?.allowDuplicate,
        });
        return { changes: r.changes, ...(r.undoOp ? { undoOp: r.undoOp } : {}) };
      },
      editMany: (selection, change, opts = {}) => editMany(deps, selection, change, opts),
      remove: async (id) => {
        const r = await removeVehicle(deps, { id: await vehicleHandle(deps, id) });
        return r.undoOp ? { undoOp: r.undoOp } : {};
      },
    },
    images: {
      upload: async (files, opts) => {
        return (await uploadImages(deps, { files, anyType: opts?.anyType, anyTypeHint: LIBRARY_ANY_TYPE_HINT })).ids;
      },
    },
    extras: {
      list: async (opts = {}) => {
        return (await calling(deps, opts, "extras.list", (d) => listExtras(d))) as Extra[];
      },
      get: async (id, opts = {}) => (await read(deps, "extra", id, opts)) as Extra,
      create: async (input) => {
        const values = checkedObject(input, "extras.create");
        onlyFields(values, EXTRA_FIELDS, "extras.create");
        const r = await createExtra(deps, { values });
        return created<Extra>(r.dryRun ? undefined : r);
      },
      update: async (id, change) => {
        const values = checkedObject(change, "extras.update");
        onlyFields(values, EXTRA_EDITABLE_FIELDS, "extras.update");
        const r = await updateExtra(deps, { id: await extraHandle(deps, id), changes: values });
        return { changes: r.changes, ...(r.undoOp ? { undoOp: r.undoOp } : {}) };
      },
      enable: (id) => setActive(deps, id, true),
      disable: (id) => setActive(deps, id, false),
      switch: async (id) => {
        await switchExtra(deps, { id: await extraHandle(deps, id) });
      },
      remove: async (id) => {
        const r = await deleteExtra(deps, { id: await extraHandle(deps, id) });
        return { ...(r.undoOp ? { undoOp: r.undoOp } : {}), usedBy: r.usedBy.map((u) => u.id) };
      },
    },
    account,
    fleet: account,
    lint: async (opts = {}) => {
      const config = await loadConfig({ file: opts.config });
      const file = opts.file ? { path: opts.file, format: formatFor(opts.file, opts.format) } : undefined;
      return lintAccount(deps, { file, config });
    },
    undo: async (op, opts = {}) => {
      if (typeof op !== "string" || op === "")
        throw new UsageError(`undo takes an op of the undo history (a string), not ${JSON.stringify(op)}`);
      if (deps.history === false)
        throw new UsageError("this client keeps no undo history: create it with dataDir to undo its writes");
      return undo(
        deps,
        { op, force: opts.force, dryRun: opts.dryRun },
        { signal: opts.signal, hints: LIBRARY_UNDO_HINTS },
      );
    },
    history: async (opts = {}) => {
      if (opts.limit !== undefined && !(Number.isInteger(opts.limit) && opts.limit >= 1))
        throw new UsageError(`history's limit is a whole number from 1, not ${JSON.stringify(opts.limit)}`);
      if (deps.history === false) return [];
      return undoHistory(deps, { limit: opts.limit, allOwners: opts.allOwners === true });
    },
    close: async () => {
      closed = true;
      await ctx.close();
    },
  };
  // a call after close() is a usage error, not a network failure after retries
  let closed = false;
  const guard = <T extends object>(o: T): T =>
    new Proxy(o, {
      get(target, key, receiver) {
        const v = Reflect.get(target, key, receiver);
        if (typeof v !== "function" || key === "close") return v;
        return (...args: unknown[]) => {
          if (closed) throw new UsageError("this client is closed: create a new one");
          return (v as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  return {
    get userId() {
      return client.userId;
    },
    catalog: guard(client.catalog),
    vehicles: guard(client.vehicles),
    images: guard(client.images),
    extras: guard(client.extras),
    account: guard(client.account),
    fleet: guard(client.account),
    lint: (opts) => {
      if (closed) throw new UsageError("this client is closed: create a new one");
      return client.lint(opts);
    },
    undo: (op, opts) => {
      if (closed) throw new UsageError("this client is closed: create a new one");
      return client.undo(op, opts);
    },
    history: (opts) => {
      if (closed) throw new UsageError("this client is closed: create a new one");
      return client.history(opts);
    },
    close: client.close,
  };
}

/** The sandbox's first demo owner: whom an in-process sandbox client acts for when no userId is given. */
const DEMO_OWNER = 1001;

/** Members that are no fields of the contract are refused (nothing sent), as the CLI refuses them. */
function onlyFields(values: Record<string, unknown>, fields: readonly { name: string }[], what: string): void {
  const known = new Set(fields.map((f) => f.name));
  const unknown = Object.keys(values).filter((k) => !known.has(k));
  if (unknown.length)
    throw new InputError(`${what}: not a field of the contract (nothing was sent)`, {
      details: unknown.map((k) => ({ field: k, message: "unknown field" })),
    });
}

/** A vehicle by id or registration number (src/ops/handles.ts, the rule of every front end). */
export type VehicleHandle = number | string;
/** An extra by id or option name, with `(period N)` when two extras share the option. */
export type ExtraHandle = number | string;

async function vehicleHandle(deps: OwnedDeps, id: unknown): Promise<number> {
  return vehicleId(deps, checkedHandle(id));
}

async function extraHandle(deps: OwnedDeps, id: unknown): Promise<number> {
  return extraId(deps, checkedHandle(id));
}

function checkedHandle(id: unknown): VehicleHandle {
  if (typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id) && id >= 1)) return id;
  throw new UsageError(`an id is a whole number from 1 (or a name), not ${JSON.stringify(id)}`);
}

/** `vehicle_extras` by option name as well as by id, as the CLI's flags and files take them. */
async function namedExtras(deps: OwnedDeps, values: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (values.vehicle_extras === undefined || values.vehicle_extras === null) return values;
  return { ...values, vehicle_extras: await extraMembers(deps, values.vehicle_extras) };
}

function checkedObject(v: unknown, what: string): Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v))
    throw new InputError(`${what} takes an object of fields (wire names)`);
  return v as Record<string, unknown>;
}

async function read(deps: OwnedDeps, kind: "vehicle" | "extra", id: unknown, opts: CallOptions): Promise<JsonObject> {
  return calling(deps, opts, `${kind === "vehicle" ? "vehicles" : "extras"}.get`, async (d) => {
    const at = kind === "vehicle" ? await vehicleHandle(d, id) : await extraHandle(d, id);
    return fetchRecord(d, kind === "vehicle" ? VEHICLE : EXTRA, at);
  });
}

/** A timeout is a positive number of milliseconds; a signal is an AbortSignal. */
function checkCallOptions(opts: CallOptions): void {
  if (opts.timeout !== undefined && !(Number.isFinite(opts.timeout) && opts.timeout > 0))
    throw new UsageError(`timeout must be a positive number of milliseconds, not ${opts.timeout}`);
  if (opts.signal !== undefined && !(opts.signal instanceof AbortSignal))
    throw new UsageError("signal must be an AbortSignal");
}

/**
 * The context of one call with its own signal and timeout: the same client, whose requests carry
 * them (each request refused before it is sent once the signal aborted; the one in flight aborted).
 */
function callDeps(deps: OwnedDeps, opts: CallOptions): OwnedDeps {
  checkCallOptions(opts);
  const { signal, timeout } = opts;
  if (!signal && timeout === undefined) return deps;
  const stopped = () => signal?.aborted === true;
  const bound = (async () => {
    const client = await deps.client();
    return new Proxy(client, {
      get(target, key) {
        if (key === "call")
          return (opId: string, params: EncodableRecord, extra: Parameters<ApiClient["call"]>[2] = {}) => {
            if (stopped()) throw new InterruptedError(`${opId} not sent: the call's signal aborted`);
            return target.call(opId, params, {
              ...extra,
              signal: extra.signal ?? signal,
              ...(timeout !== undefined ? { timeoutMs: timeout } : {}),
            });
          };
        const v = Reflect.get(target, key, target);
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
  })();
  bound.catch(() => {}); // its error is thrown where a request is made
  return { ...deps, client: () => bound };
}

/** Run one read with its call options; an abort of its signal is InterruptedError (code 130), naming the method. */
async function calling<T>(
  deps: OwnedDeps,
  opts: CallOptions,
  what: string,
  fn: (d: OwnedDeps) => Promise<T>,
): Promise<T> {
  const d = callDeps(deps, opts);
  try {
    return await fn(d);
  } catch (e) {
    throw stoppedError(e, opts.signal, what);
  }
}

/** The error of a read: InterruptedError when the caller's signal stopped it, else as it was. */
function stoppedError(e: unknown, signal: AbortSignal | undefined, what: string): unknown {
  if (!signal?.aborted || e instanceof InterruptedError) return e;
  return new InterruptedError(`client.${what} stopped: the call's signal aborted`, { cause: e });
}

function created<R>(r: { id?: number; record: JsonObject } | undefined): WriteResult<R> {
  if (r?.id === undefined)
    throw new MalformedResponseError("the server created the record but its answer carried no id");
  return { id: r.id, record: { ...r.record, id: r.id } as R };
}

async function setActive(deps: OwnedDeps, id: unknown, on: boolean): Promise<{ switched: boolean }> {
  return { switched: (await setExtraActive(deps, { id: await extraHandle(deps, id), on })).switched };
}

async function* listPages(library: OwnedDeps, opts: ListOptions): AsyncGenerator<Vehicle[]> {
  const deps = callDeps(library, opts);
  try {
    yield* listPagesOf(deps, opts);
  } catch (e) {
    throw stoppedError(e, opts.signal, "vehicles.list");
  }
}

async function* listPagesOf(deps: OwnedDeps, opts: ListOptions): AsyncGenerator<Vehicle[]> {
  if (opts.all) {
    // a listing that can be stopped asks for a page only when the caller wants it (none read ahead)
    for await (const page of listVehicles(deps, opts.signal ? { readAhead: 0 } : {})) {
      yield page as Vehicle[];
      // stopped while the caller held this page: no further page is asked for
      if (opts.signal?.aborted) throw new InterruptedError("client.vehicles.list stopped: the call's signal aborted");
    }
    return;
  }
  const client = await deps.client();
  const r = await client.call("vehicles.list", {
    user_id: await requireUser(deps),
    locale_id: await deps.locale(),
    limit: opts.limit ?? 15,
    offset: opts.offset ?? 0,
  });
  if (r.decoded.kind !== "paginated") throw new MalformedResponseError("vehicles.list did not answer with a page");
  yield r.decoded.page.items.map((i) => normalizeRecord(i, "vehicle")) as Vehicle[];
}

async function plan(deps: OwnedDeps, input: string | AccountDocument, opts: PlanOptions): Promise<AccountPlan> {
  if (typeof input !== "string" && (typeof input !== "object" || input === null))
    throw new InputError("account.plan takes a file path or an account document");
  const r = await planAccountDocument(
    deps,
    {
      source: typeof input === "string" ? { path: input, format: opts.format } : { document: input },
      prune: opts.prune,
      exact: opts.exact,
    },
    { save: true, listUnchanged: false },
  );
  return { changes: r.changes, markdown: accountPlanMarkdown(r.plan), saved: r.saved! };
}

/** A progress callback that throws must not end an apply midway (its rows are the caller's data): it is ignored. */
function progressSafely<A extends unknown[]>(fn: (...a: A) => void, ...args: A): void {
  try {
    fn(...args);
  } catch {
    // the apply goes on; the callback's own error is the caller's to handle
  }
}

async function editMany(
  deps: OwnedDeps,
  selection: VehicleSelectionInput,
  change: VehicleManyChange,
  opts: EditManyOptions,
): Promise<EditManyResult> {
  const values = checkedObject(change, "vehicles.editMany");
  onlyFields(values, VEHICLE_EDITABLE_FIELDS, "vehicles.editMany");
  const sel = checkedObject(selection, "vehicles.editMany selection") as VehicleSelectionInput;
  // vehicles by id or registration number, as everywhere a vehicle is taken (src/ops/handles.ts)
  const ids = sel.ids?.length ? await vehicleIds(deps, sel.ids.map(checkedHandle)) : [];
  const { plan, intent } = await planEditMany(deps, {
    selection: { ids, where: sel.where ?? [], all: Boolean(sel.all) },
    values,
    relativeFields: "all",
    clamp: opts.clamp,
    allowDuplicate: opts.allowDuplicate,
  });
  const vehicles = plan.change.map((c) => ({ id: c.vehicle_id, reg: c.reg, fields: c.fields }));
  if (opts.dryRun || plan.change.length === 0) return { vehicles, unchanged: plan.unchanged, counts: {} };
  const onProgress = opts.onProgress;
  const r = await applyVehiclePlan(
    deps,
    plan,
    {
      verb: "edit",
      intent: { ids, where: sel.where ?? [], all: Boolean(sel.all), ...intent },
      concurrency: opts.concurrency,
      restart: opts.restart,
    },
    { signal: opts.signal, onProgress: onProgress ? (p) => progressSafely(onProgress, p) : undefined },
  );
  return { vehicles, unchanged: plan.unchanged, counts: r.counts, ...(r.undoOp ? { undoOp: r.undoOp } : {}) };
}

async function apply(deps: OwnedDeps, p: AccountPlan | SavedPlan, opts: ApplyOptions): Promise<AccountApplyResult> {
  const saved = sp.checkSavedPlan("saved" in p ? p.saved : p, "account", "account.apply");
  const onProgress = opts.onProgress;
  return applyAccountPlan(
    deps,
    { saved, concurrency: opts.concurrency, allowMassDelete: opts.allowMassDelete, restart: opts.restart },
    {
      signal: opts.signal,
      onProgress: onProgress ? ({ done, total, ...row }) => progressSafely(onProgress, row, done, total) : undefined,
    },
  );
}
