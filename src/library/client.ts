import type { AccountPlan } from "../account/plan.js";
import { MalformedResponseError, NotFoundError } from "../api/errors.js";
import { EXTRA_FIELDS } from "../contract/extra-fields.js";
import type { JsonObject } from "../contract/records.js";
import { VEHICLE_FIELDS } from "../contract/vehicle-fields.js";
import type { OwnedDeps } from "../deps.js";
import { InputError, UsageError } from "../errors.js";
import type { SavedPlan } from "../fleet/saved-plan.js";
import type { AccountApplyResult } from "../jobs/account-apply.js";
import type { Finding, LintResult } from "../ops/lint/lint.js";
import type { Change } from "../resources/safe-edit.js";
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
  AccountApplyResult as FleetApplyResult,
  CatalogItem,
  CatalogItems,
  Change,
  Currency,
  Extra,
  ExtraChange,
  ExtraInput,
  Finding as LintFinding,
  Image,
  LintResult,
  Locale,
  SavedPlan,
  Segment,
  Vehicle,
  VehicleChange,
  VehicleInput,
};

export interface ClientOptions extends LibraryOptions {}

/** A file to upload: a path, or bytes with a file name (the name's extension gives the content type). */
export type ImageFile = string | { name: string; data: Uint8Array };

export interface ListOptions {
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

export interface EditResult {
  /** The fields that changed (empty: the record already held the change; nothing was sent). */
  changes: Change[];
  undoOp?: string;
}

/**
 * An account document as an account file holds it: `{ extras: [...], vehicles: [...] }` (rows as in
 * the files: wire names or the short names, catalog values by id or name), or a list of vehicles.
 */
export type FleetDocument = { extras?: object[]; vehicles?: object[] } | object[];

export interface PlanOptions {
  /** Also delete the extras and remove the vehicles the input does not list. */
  prune?: boolean;
  /** Fields a row leaves out must be empty (the plan clears them). */
  exact?: boolean;
  /** The input's format when it is a path without a telling extension: yaml, json, ndjson, csv. */
  format?: "yaml" | "json" | "ndjson" | "csv";
}

/** A plan of fleet.plan: what apply will do, for a person to review, and the saved plan apply runs. */
export interface FleetPlan {
  /** False when the account already matches the input. */
  changes: boolean;
  /** The review summary (as `rentctl account diff --markdown`). */
  markdown: string;
  /**
   * The plan as `account diff --out FILE` saves it (JSON-serialisable: write it to a file and
   * `rentctl account apply --plan FILE` applies it, or pass it to fleet.apply).
   */
  saved: SavedPlan;
}

export interface ApplyOptions {
  /** Stop: no new rows; the rows in flight finish and are journaled (fleet.apply then throws InterruptedError, code 130). */
  signal?: AbortSignal;
  /** Each row's outcome as it is known. */
  onProgress?(row: { key: string; status: string; id?: number; error?: string }, done: number, total: number): void;
  /** Requests in flight at once, 1-16 (default 4). */
  concurrency?: number;
  /** Let a pruning plan remove more than half of the vehicles, or more than 20. */
  allowMassDelete?: boolean;
  /** Ignore the journal of an interrupted apply of the same plan. */
  restart?: boolean;
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
    get(id: number): Promise<Vehicle>;
    /**
     * Checked with the CLI's rules (InputError listing every problem, nothing sent: unknown fields,
     * values, a registration number another vehicle has unless allowDuplicate), then created.
     */
    create(input: VehicleInput, opts?: { allowDuplicate?: boolean }): Promise<WriteResult<Vehicle>>;
    /** The guarded safe edit: read, change, check, read again and refuse (ConflictError) if it moved, send the whole record. */
    edit(id: number, change: VehicleChange, opts?: { allowDuplicate?: boolean }): Promise<EditResult>;
    remove(id: number): Promise<{ undoOp?: string }>;
  };
  readonly images: {
    /** Upload images (10 per request); returns their ids in order, for `vehicle_images`. */
    upload(files: ImageFile[]): Promise<number[]>;
  };
  readonly extras: {
    list(): Promise<Extra[]>;
    get(id: number): Promise<Extra>;
    create(input: ExtraInput): Promise<WriteResult<Extra>>;
    /** Guarded full replacement: the members not given are kept. */
    update(id: number, change: ExtraChange): Promise<EditResult>;
    /** Idempotent: reads the state and switches only when it differs. */
    enable(id: number): Promise<{ switched: boolean }>;
    disable(id: number): Promise<{ switched: boolean }>;
    /** The raw toggle. */
    switch(id: number): Promise<void>;
    /** Delete an extra; `usedBy` lists the vehicles it was attached to (its undo re-attaches it). */
    remove(id: number): Promise<{ undoOp?: string; usedBy: number[] }>;
  };
  readonly fleet: {
    /** Plan an account file (path) or document (`{ extras, vehicles }`, or a list of vehicles) against the account. */
    plan(input: string | FleetDocument, opts?: PlanOptions): Promise<FleetPlan>;
    /**
     * Run exactly the plan: refused (StalePlanError, code 8, nothing sent) when a record it read
     * changed since; locked, journaled and resumable (the same plan applied again after an abort
     * finishes the rest); one undo op when the client keeps a history.
     */
    apply(plan: FleetPlan | SavedPlan, opts?: ApplyOptions): Promise<AccountApplyResult>;
  };
  /**
   * Problems in the listings (`rentctl lint`): the live account, or an account / fleet file
   * (`file`: offline apart from catalog reads). Never writes. Findings carry rule, severity,
   * vehicle, field and message; `config` is a `.rentctl-lint.yaml` path (default: every rule).
   */
  lint(opts?: LintOptions): Promise<LintResult>;
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
 * A client of the Partner API for one owner: typed methods over the same
 * modules the CLI's commands run (src/resources, src/gateway, src/account,
 * src/jobs), so every rule, guard and journal is the CLI's. No global
 * state: each client is its own context (src/library/context.ts).
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

  const client: RentctlClient = {
    get userId() {
      return options.userId ?? (options.env === "sandbox" && !options.baseUrl ? DEMO_OWNER : undefined);
    },
    catalog,
    vehicles: {
      list: (opts = {}) => listPages(deps, opts),
      get: async (id) => (await read(deps, "vehicle", id)) as Vehicle,
      create: async (input, opts) => {
        const [{ prepareVehicle }, { createRecord }, { VEHICLE }] = await Promise.all([
          import("../resources/create.js"),
          import("../gateway/records.js"),
          import("../resources/resource.js"),
        ]);
        const values = checkedObject(input, "vehicles.create");
        onlyFields(values, VEHICLE_FIELDS, "vehicles.create");
        const record = await prepareVehicle(deps, values);
        await refuseTakenReg(deps, record.vehicle_reg_number, undefined, opts?.allowDuplicate);
        return created<Vehicle>(await createRecord(deps, VEHICLE, record));
      },
      edit: async (id, change, opts) => {
        const values = checkedObject(change, "vehicles.edit");
        onlyFields(
          values,
          VEHICLE_FIELDS.filter((f) => f.name !== "user_id" && f.name !== "locale_id"),
          "vehicles.edit",
        );
        await refuseTakenReg(deps, values.vehicle_reg_number, checkedId(id), opts?.allowDuplicate);
        return edit(deps, "vehicle", id, values);
      },
      remove: async (id) => {
        const [{ removeRecord }, { VEHICLE }] = await Promise.all([
          import("../gateway/records.js"),
          import("../resources/resource.js"),
        ]);
        return removeRecord(deps, VEHICLE, checkedId(id));
      },
    },
    images: {
      upload: async (files) => {
        const { uploadParts } = await import("../gateway/vehicles.js");
        const { contentTypeFor } = await import("../api/encode.js");
        const { basename } = await import("node:path");
        if (!Array.isArray(files) || files.length === 0) throw new InputError("images.upload needs at least one file");
        const ids: number[] = [];
        for (let i = 0; i < files.length; i += 10) {
          const parts = [];
          for (const f of files.slice(i, i + 10)) {
            const name = typeof f === "string" ? basename(f) : f.name;
            parts.push({
              field: "file",
              filename: name,
              contentType: contentTypeFor(name),
              data: typeof f === "string" ? await readImage(f) : f.data,
            });
          }
          ids.push(...(await uploadParts(deps, parts)));
        }
        return ids;
      },
    },
    extras: {
      list: async () => {
        const { listExtras } = await import("../resources/list.js");
        return (await listExtras(deps)) as Extra[];
      },
      get: async (id) => (await read(deps, "extra", id)) as Extra,
      create: async (input) => {
        const [{ prepareExtra }, { createRecord }, { EXTRA }] = await Promise.all([
          import("../resources/create.js"),
          import("../gateway/records.js"),
          import("../resources/resource.js"),
        ]);
        const values = checkedObject(input, "extras.create");
        onlyFields(values, EXTRA_FIELDS, "extras.create");
        const record = await prepareExtra(deps, values);
        return created<Extra>(await createRecord(deps, EXTRA, record));
      },
      update: (id, change) => {
        const values = checkedObject(change, "extras.update");
        onlyFields(
          values,
          EXTRA_FIELDS.filter((f) => f.name !== "locale_id"),
          "extras.update",
        );
        return edit(deps, "extra", id, values);
      },
      enable: (id) => setActive(deps, id, true),
      disable: (id) => setActive(deps, id, false),
      switch: async (id) => {
        const { switchExtra } = await import("../gateway/records.js");
        await switchExtra(deps, checkedId(id));
      },
      remove: async (id) => {
        const [{ removeRecord }, { EXTRA }, { vehiclesUsingExtra }] = await Promise.all([
          import("../gateway/records.js"),
          import("../resources/resource.js"),
          import("../resources/list.js"),
        ]);
        const usedBy = (await vehiclesUsingExtra(deps, checkedId(id))).map((v) => v.id);
        const r = await removeRecord(deps, EXTRA, id, { usedBy });
        return { ...r, usedBy };
      },
    },
    fleet: {
      plan: (input, opts = {}) => plan(deps, input, opts),
      apply: (p, opts = {}) => apply(deps, p, opts),
    },
    lint: async (opts = {}) => {
      const [{ lintAccount }, { loadConfig }, { formatFor }] = await Promise.all([
        import("../ops/lint/lint.js"),
        import("../ops/lint/config.js"),
        import("../fleet/format.js"),
      ]);
      const config = await loadConfig({ file: opts.config });
      const file = opts.file ? { path: opts.file, format: formatFor(opts.file, opts.format) } : undefined;
      return lintAccount(deps, { file, config });
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
    fleet: guard(client.fleet),
    lint: (opts) => {
      if (closed) throw new UsageError("this client is closed: create a new one");
      return client.lint(opts);
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

/** A registration number another vehicle of the account has is refused (nothing sent), unless allowed. */
async function refuseTakenReg(deps: OwnedDeps, reg: unknown, self: number | undefined, allow?: boolean): Promise<void> {
  if (allow || reg === undefined || reg === "") return;
  const { findByIdentity } = await import("../resources/list.js");
  const others = (await findByIdentity(deps, { vehicle_reg_number: reg })).filter((id) => id !== self);
  if (others.length)
    throw new InputError(
      `vehicle_reg_number ${JSON.stringify(reg)} is vehicle ${others.join(", ")}'s already (nothing was sent)`,
      { hint: "pass { allowDuplicate: true } to have two vehicles with one registration number" },
    );
}

async function readImage(path: string): Promise<Buffer> {
  const [{ readFile }, { fsReason }] = await Promise.all([import("node:fs/promises"), import("../errors.js")]);
  try {
    return await readFile(path);
  } catch (e) {
    throw new InputError(`cannot upload ${path}: ${fsReason(e)} (nothing was sent)`);
  }
}

function checkedId(id: unknown): number {
  if (typeof id !== "number" || !Number.isSafeInteger(id) || id < 1)
    throw new UsageError(`an id is a whole number from 1, not ${JSON.stringify(id)}`);
  return id;
}

function checkedObject(v: unknown, what: string): Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v))
    throw new InputError(`${what} takes an object of fields (wire names)`);
  return v as Record<string, unknown>;
}

async function read(deps: OwnedDeps, kind: "vehicle" | "extra", id: number): Promise<JsonObject> {
  const { fetchRecord, VEHICLE, EXTRA } = await import("../resources/safe-edit.js");
  return fetchRecord(deps, kind === "vehicle" ? VEHICLE : EXTRA, checkedId(id));
}

function created<R>(r: { id?: number; record: JsonObject } | undefined): WriteResult<R> {
  if (r?.id === undefined)
    throw new MalformedResponseError("the server created the record but its answer carried no id");
  return { id: r.id, record: { ...r.record, id: r.id } as R };
}

async function edit(
  deps: OwnedDeps,
  kind: "vehicle" | "extra",
  id: number,
  change: Record<string, unknown>,
): Promise<EditResult> {
  const [{ guardedReplace }, { VEHICLE, EXTRA }] = await Promise.all([
    import("../gateway/records.js"),
    import("../resources/resource.js"),
  ]);
  const r = await guardedReplace(deps, kind === "vehicle" ? VEHICLE : EXTRA, checkedId(id), {
    ...checkedObject(change, `${kind}s.edit`),
  });
  return { changes: r.changes, ...(r.undoOp ? { undoOp: r.undoOp } : {}) };
}

async function setActive(deps: OwnedDeps, id: number, on: boolean): Promise<{ switched: boolean }> {
  const { setExtraActive, OWN_ENTRY } = await import("../gateway/index.js");
  const r = await setExtraActive(deps, checkedId(id), on, { undo: OWN_ENTRY });
  if (r.status === "gone") throw new NotFoundError(`extra ${id} not found`);
  return { switched: r.status === "switched" };
}

async function* listPages(deps: OwnedDeps, opts: ListOptions): AsyncGenerator<Vehicle[]> {
  if (opts.all) {
    const { listVehicles } = await import("../resources/list.js");
    for await (const page of listVehicles(deps)) yield page as Vehicle[];
    return;
  }
  const [{ requireUser }, { normalizeRecord }] = await Promise.all([
    import("../deps.js"),
    import("../contract/records.js"),
  ]);
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

async function plan(deps: OwnedDeps, input: string | FleetDocument, opts: PlanOptions): Promise<FleetPlan> {
  const [sp, { planAccount, accountFingerprints, accountPlanIsEmpty }, print] = await Promise.all([
    import("../fleet/saved-plan.js"),
    import("../account/plan.js"),
    import("../account/print.js"),
  ]);
  let source: Awaited<ReturnType<typeof sp.textSource>>;
  if (typeof input === "string") {
    const [{ formatFor }, { openSource }] = await Promise.all([
      import("../fleet/format.js"),
      import("../fleet/source.js"),
    ]);
    source = await openSource(deps, input, formatFor(input, opts.format));
  } else if (typeof input === "object" && input !== null) {
    source = await sp.textSource(deps, {
      label: "account.json",
      format: "json",
      baseDir: process.cwd(),
      text: JSON.stringify(input),
    });
  } else throw new InputError("fleet.plan takes a file path or an account document");
  try {
    const text = await sp.inputText(source);
    const made: AccountPlan = await planAccount(deps, source, { ...opts, fingerprints: true });
    const saved = await sp.makeSavedPlan(deps, {
      kind: "account",
      source,
      prune: opts.prune,
      exact: opts.exact,
      text,
      fingerprints: accountFingerprints(made),
      plan: print.accountPlanJson(made),
    });
    return { changes: !accountPlanIsEmpty(made), markdown: print.accountPlanMarkdown(made), saved };
  } finally {
    await source.cleanup();
  }
}

/** A progress callback that throws must not end an apply midway (its rows are the caller's data): it is ignored. */
function progressSafely<A extends unknown[]>(fn: (...a: A) => void, ...args: A): void {
  try {
    fn(...args);
  } catch {
    // the apply goes on; the callback's own error is the caller's to handle
  }
}

async function apply(deps: OwnedDeps, p: FleetPlan | SavedPlan, opts: ApplyOptions): Promise<AccountApplyResult> {
  const [sp, { applySavedAccountPlan }] = await Promise.all([
    import("../fleet/saved-plan.js"),
    import("../jobs/account-apply.js"),
  ]);
  const saved = sp.checkSavedPlan("saved" in p ? p.saved : p, "account", "fleet.apply");
  const concurrency = opts.concurrency ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 16)
    throw new UsageError(`concurrency must be a whole number from 1 to 16, not ${concurrency}`);
  return applySavedAccountPlan(deps, saved, {
    concurrency,
    started: Date.now(),
    allowMassDelete: opts.allowMassDelete,
    restart: opts.restart,
    signal: opts.signal,
    onProgress: opts.onProgress
      ? (r, done, total) =>
          progressSafely(
            opts.onProgress!,
            {
              key: r.key,
              status: r.status,
              ...(r.id !== undefined ? { id: r.id } : {}),
              ...(r.error ? { error: r.error } : {}),
            },
            done,
            total,
          )
      : undefined,
  });
}
