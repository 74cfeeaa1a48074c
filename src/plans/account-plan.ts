import { InputError, valueProblem } from "../base/errors.js";
import type { JsonObject } from "../contract/records.js";
import type { WireValue } from "../contract/validate.js";
import type { CoreDeps, Deps } from "../deps.js";
import { catalogPort, listExtras } from "../files/adapters.js";
import { fileError, readRows } from "../files/read.js";
import type { CatalogPort } from "../files/resolver.js";
import type { FleetSource } from "../files/source.js";
import {
  catalogValue,
  type ExtraPlan,
  type ExtraState,
  emptyExtraPlan,
  extraKey,
  extraPlanIsEmpty,
  extraState,
  OPTION_CATALOG,
  planExtras,
  readExtraRows,
} from "./account-extras.js";
import { type AccountDocument, type ExtraRef, parseRefs, readAccountDocument } from "./account-file.js";
import { currentInput, type Plan, type PlanChange, type PlanCreate, type PlanUnchanged, rowLabel } from "./plan.js";
import { fingerprint, type Touched, touchedVehicles } from "./saved-plan.js";
import {
  accountStream,
  type ExtraRefsHook,
  type FleetRow,
  mapRows,
  planAgainstListing,
  type RowTally,
  type SyncPlan,
} from "./sync.js";

/**
 * The plan of `account diff` / `account apply`: the extras section planned
 * against the account's extras (./extras.ts), then the vehicles' extras
 * references resolved against the extras as they will be (the file's rows,
 * plus the account's others unless pruned), then the vehicles planned as
 * `vehicle diff` plans them (src/plans/sync.ts). A vehicle that references
 * an extra the plan creates carries a placeholder id (PLACEHOLDER_BASE + the
 * extras row) until the create is answered; apply swaps in the new id.
 */

export const PLACEHOLDER_BASE = 2_000_000_000;
export const isPlaceholder = (id: number) => id > PLACEHOLDER_BASE;

export interface AccountPlanOptions {
  prune?: boolean;
  exact?: boolean;
  /** List the unchanged vehicles in the plan too (the CLI's -v; default: the front end's --verbose, if it has one). */
  listUnchanged?: boolean;
}

export interface AccountPlan {
  label: string;
  extras: ExtraPlan;
  vehicles: SyncPlan;
  /** A person's name of every extra id (and placeholder) the plan mentions: `Child seat (period 1)`. */
  extraLabels: Map<number, string>;
  /** The account's extras as listed. */
  accountExtras: ExtraState[];
  /** With `fingerprints`: per vehicle id listed, the fingerprint of its input fields (a saved plan's). */
  vehicleFingerprints?: Record<string, string>;
}

type Problems = Array<{ field: string; message: string }>;

/** `Child seat (period 1)` from the option catalog's names (else the server's option_name, else the id). */
export async function extraLabeller(
  port: CatalogPort,
  account: readonly ExtraState[],
  cache: Map<string, Promise<JsonObject[]>>,
): Promise<(option: number, period: number) => string> {
  let items = cache.get(OPTION_CATALOG);
  if (!items) {
    items = port.items(OPTION_CATALOG, {});
    cache.set(OPTION_CATALOG, items);
  }
  const names = new Map<number, string>();
  try {
    for (const i of await items) {
      const id = port.itemId(i);
      const n = port.itemNames(i)[0];
      if (id !== undefined && n) names.set(id, n);
    }
  } catch {
    // labels only: ids will do
  }
  for (const e of account) if (e.optionName && !names.has(e.option_id)) names.set(e.option_id, e.optionName);
  return (option, period) => `${names.get(option) ?? `option ${option}`} (period ${period})`;
}

interface PoolEntry {
  option_id: number;
  period: number;
  /** The extra's id, or a placeholder for one the plan creates. */
  id: number;
  /** Deleted by --prune. */
  pruned: boolean;
}

/** A vehicle row's references, resolved to extra ids (placeholders for creates); problems name the row. */
async function resolveRefs(
  port: CatalogPort,
  cache: Map<string, Promise<JsonObject[]>>,
  at: string,
  refs: readonly ExtraRef[],
  pool: readonly PoolEntry[],
  label: (option: number, period: number) => string,
  problems: Problems,
): Promise<number[]> {
  const ids: number[] = [];
  for (const ref of refs) {
    let option: number;
    try {
      option = await catalogValue(port, OPTION_CATALOG, "option", ref.option, cache);
    } catch (e) {
      problems.push({ field: at, message: valueProblem(e) });
      continue;
    }
    const found = pool.filter((p) => p.option_id === option && (ref.period === undefined || p.period === ref.period));
    const alive = found.filter((p) => !p.pruned);
    if (alive.length === 1) {
      ids.push(alive[0]!.id);
      continue;
    }
    const what =
      ref.period === undefined ? `${label(option, 0).replace(/ \(period 0\)$/, "")}` : label(option, ref.period);
    if (alive.length > 1) {
      problems.push({
        field: at,
        message: `${what} names ${alive.length} extras (${alive.map((p) => label(p.option_id, p.period)).join(", ")}): give {option, period}`,
      });
      continue;
    }
    if (found.length) {
      problems.push({
        field: at,
        message: `uses ${what} (extra ${found.map((p) => p.id).join(", ")}), which --prune removes because the extras section does not list it: the file is inconsistent`,
      });
      continue;
    }
    problems.push({ field: at, message: `no extra ${what} in the file's extras or the account` });
  }
  return ids;
}

/**
 * `vehicle diff / apply` of an account file (vehicles only): a vehicle's
 * `extras:` references resolve against the extras the account has (listed
 * once, on the first row that has references); the file's `extras:` section
 * is not planned, so a reference to an extra only the file has is a problem
 * that says to use `account diff / apply`.
 */
export function existingExtrasRefs(deps: CoreDeps): ExtraRefsHook {
  let setup:
    | Promise<{
        port: CatalogPort;
        cache: Map<string, Promise<JsonObject[]>>;
        pool: PoolEntry[];
        label: (option: number, period: number) => string;
      }>
    | undefined;
  return async (row, reg, given) => {
    setup ??= (async () => {
      const port = await catalogPort(deps);
      const cache = new Map<string, Promise<JsonObject[]>>();
      const account: ExtraState[] = [];
      for (const r of await listExtras(deps, { warn: (m) => deps.msg.warn(m) })) {
        const s = extraState(r);
        if (s) account.push(s);
      }
      const pool = account.map((e) => ({ option_id: e.option_id, period: e.period, id: e.id, pruned: false }));
      return { port, cache, pool, label: await extraLabeller(port, account, cache) };
    })();
    const { port, cache, pool, label } = await setup;
    const found: Problems = [];
    const refs = parseRefs(row, reg, given, found);
    const ids = await resolveRefs(port, cache, "extras", refs, pool, label, found);
    return {
      ids,
      problems: found.map((p) => ({
        field: "extras",
        message: /^no extra /.test(p.message)
          ? `${p.message.replace(" in the file's extras or the account", " in the account")} (vehicle diff / apply manage vehicles only: plan the extras section with \`rentctl account diff\`)`
          : p.message,
      })),
    };
  };
}

/**
 * Plan an account (or fleet) file against the account. Every problem of the
 * file is one InputError (exit 2), nothing sent. The vehicles are planned as
 * the file and the listing stream (src/plans/sync.ts streamPlan): memory
 * stays flat with the fleet. `fingerprints`: keep a fingerprint of every
 * vehicle and extra read, for a saved plan (accountFingerprints).
 */
export async function planAccount(
  deps: CoreDeps & Partial<Pick<Deps, "flags">>,
  source: FleetSource,
  opts: AccountPlanOptions & { fingerprints?: boolean },
): Promise<AccountPlan> {
  const extrasListing = listExtras(deps, { warn: (m) => deps.msg.warn(m) });
  extrasListing.catch(() => {});
  const vehicleFingerprints: Record<string, string> | undefined = opts.fingerprints ? {} : undefined;
  // The listing starts now, while the file is read (a file error still wins: it is awaited first).
  const listing = accountStream(deps, vehicleFingerprints);

  const problems: Problems = [];
  let doc = await readAccountDocument(source.path, source.format, problems, source.label);
  const port = await catalogPort(deps);
  const cache = new Map<string, Promise<JsonObject[]>>();
  const extraRows = await readExtraRows(port, doc.extras ?? [], cache);
  problems.push(...extraRows.problems);
  const fail = () =>
    new InputError(
      `${source.label}: ${problems.length} problem${problems.length === 1 ? "" : "s"} (nothing was sent)`,
      {
        details: problems,
        hint: "fix the file and run the command again",
      },
    );

  const accountExtras: ExtraState[] = [];
  for (const r of await extrasListing) {
    const s = extraState(r);
    if (s) accountExtras.push(s);
    else deps.msg.warn(`extra ${String(r.id ?? "?")}: no option or period in the server's record; left alone`);
  }
  accountExtras.sort((a, b) => a.id - b.id);
  const label = await extraLabeller(port, accountExtras, cache);
  const extraLabels = new Map<number, string>();
  for (const e of accountExtras) extraLabels.set(e.id, label(e.option_id, e.period));

  let extras: ExtraPlan = emptyExtraPlan(false);
  if (doc.extras && !problems.length) {
    const planned = planExtras(extraRows.rows, accountExtras, { prune: opts.prune, label });
    problems.push(...planned.problems);
    extras = planned.plan;
  }

  // The extras as they will be: the file's rows (created ones as placeholders) and the account's others.
  const pool: PoolEntry[] = [];
  const deleted = new Set(extras.delete.map((d) => d.id));
  for (const r of extraRows.rows) {
    if (!extras.managed) break;
    const id = extras.matched.get(r.row) ?? PLACEHOLDER_BASE + r.row;
    if (isPlaceholder(id)) extraLabels.set(id, label(r.option_id, r.period).replace(/\)$/, ", new)"));
    pool.push({ option_id: r.option_id, period: r.period, id, pruned: false });
  }
  const inFile = new Set(pool.map((p) => p.id));
  for (const e of accountExtras)
    if (!inFile.has(e.id)) pool.push({ option_id: e.option_id, period: e.period, id: e.id, pruned: deleted.has(e.id) });
  // the extras section has problems: the vehicles are still read for theirs, but not planned
  const extrasOk = !problems.length;

  // A reference that resolved, by its option (a name or an id) and period (0: none given): the same id for
  // every row that gives it (most rows of a fleet name the same few extras).
  const resolved = new Map<string | number, Map<number, number>>();
  const resolvedId = (r: ExtraRef) => resolved.get(r.option)?.get(r.period ?? 0);
  /** The vehicle rows as they are read: mapped, their references resolved; rows with problems are listed, not handed out. */
  async function* vehicleRows(d: AccountDocument, tally: RowTally): AsyncGenerator<FleetRow> {
    const raws = d.streamed ? readRows(source.path, source.format, source.label) : d.vehicles;
    try {
      for await (const row of mapRows(deps, source, raws, tally)) {
        const refs = d.refs.get(row.row);
        d.refs.delete(row.row);
        if (refs && extrasOk) {
          let ids: number[] | undefined = [];
          for (const r of refs) {
            const id = resolvedId(r);
            if (id === undefined) {
              ids = undefined;
              break;
            }
            ids.push(id);
          }
          if (!ids) {
            const before = problems.length;
            const at = `${rowLabel(row.row, row.values)} extras`;
            ids = await resolveRefs(port, cache, at, refs, pool, label, problems);
            if (problems.length > before) continue;
            for (const [i, r] of refs.entries()) {
              let byPeriod = resolved.get(r.option);
              if (!byPeriod) {
                byPeriod = new Map();
                resolved.set(r.option, byPeriod);
              }
              byPeriod.set(r.period ?? 0, ids[i]!);
            }
          }
          row.values.vehicle_extras = ids.length ? ids : null;
        }
        if (extrasOk) yield row;
      }
    } catch (e) {
      // an error of the file met as its rows are read (a yaml item) names the file
      throw fileError(e, source.label);
    }
  }

  // A vehicle of the file left using an extra that --prune deletes: the file is inconsistent.
  const checkDeleted = (row: number | undefined, reg: string, extrasOf: unknown) => {
    const used = Array.isArray(extrasOf) ? extrasOf.map(Number).filter((id) => deleted.has(id)) : [];
    if (used.length)
      problems.push({
        field: `row ${row ?? "?"} (${reg}) extras`,
        message: `keeps ${used.map((id) => `${extraLabels.get(id) ?? "extra"} (extra ${id})`).join(", ")}, which --prune removes: the file is inconsistent`,
      });
  };
  const onPlanned = deleted.size
    ? (entry: PlanCreate | PlanChange | PlanUnchanged, _row: FleetRow, record: JsonObject | undefined) => {
        if ("after" in entry) checkDeleted(entry.row, entry.reg, entry.after.vehicle_extras);
        else if ("vehicle_id" in entry && record)
          checkDeleted(entry.row, entry.reg, currentInput(record).vehicle_extras);
      }
    : undefined;

  let vehicles: SyncPlan;
  let reads = 0;
  // the extras section's problems (a second read of the file finds the rows' again)
  const sectionProblems = problems.filter((p) => !p.field.startsWith("row "));
  try {
    vehicles = await planAgainstListing(
      deps,
      source.label,
      async (tally) => {
        // a second read (the whole account listed first, see ReplanWholly) reads the file again
        if (reads++ > 0) {
          problems.length = 0;
          doc = await readAccountDocument(source.path, source.format, problems, source.label);
          problems.push(...sectionProblems);
        }
        return vehicleRows(doc, tally);
      },
      // the unchanged are listed only for -v (memory stays flat)
      {
        ...opts,
        listing,
        fingerprints: vehicleFingerprints,
        onPlanned,
        listUnchanged: opts.listUnchanged ?? Boolean(deps.flags?.verbose),
      },
    );
  } catch (e) {
    // the rows' own problems (mapping, names, image files, creates) join the file's others in one error
    if (e instanceof InputError && e.details.length) problems.push(...e.details);
    if (problems.length) throw fail();
    throw e;
  }
  if (problems.length) throw fail();
  return {
    label: source.label,
    extras,
    vehicles,
    extraLabels,
    accountExtras,
    ...(vehicleFingerprints ? { vehicleFingerprints } : {}),
  };
}

export function accountPlanIsEmpty(p: AccountPlan): boolean {
  const v = p.vehicles.plan;
  return extraPlanIsEmpty(p.extras) && !v.create.length && !v.change.length && !v.remove.length;
}

/** The vehicles' plan for people: extra ids in vehicle_extras shown as their labels (a copy; the plan sent is untouched). */
export function displayVehicles(plan: Plan, labels: ReadonlyMap<number, string>): Plan {
  const show = (v: WireValue | null): WireValue | null =>
    Array.isArray(v) ? v.map((x) => (typeof x === "number" ? (labels.get(x) ?? x) : x)) : v;
  return {
    ...plan,
    create: plan.create.map((c) =>
      c.record.vehicle_extras === undefined
        ? c
        : { ...c, record: { ...c.record, vehicle_extras: show(c.record.vehicle_extras) as WireValue } },
    ),
    change: plan.change.map((c) => {
      const f = c.fields.vehicle_extras;
      return f ? { ...c, fields: { ...c.fields, vehicle_extras: { from: show(f.from), to: show(f.to) } } } : c;
    }),
  };
}

export { extraKey };

/** Fingerprints of every record an account plan read (vehicles: the input fields; extras: the members compared). */
export function accountFingerprints(plan: AccountPlan): Record<string, Record<string, string>> {
  const vehicle: Record<string, string> = {};
  if (!plan.vehicleFingerprints) throw new Error("accountFingerprints: the plan was made without fingerprints");
  Object.assign(vehicle, plan.vehicleFingerprints);
  const extra: Record<string, string> = {};
  for (const e of plan.accountExtras) {
    const { record: _r, optionName: _n, ...members } = e;
    extra[String(e.id)] = fingerprint(members);
  }
  return { vehicle, extra };
}

/** The records an account plan (accountPlanJson) writes: vehicles changed or removed, extras updated, switched or deleted. */
export function touchedRecords(plan: JsonObject): Touched[] {
  const out = touchedVehicles((plan.vehicles ?? {}) as JsonObject);
  const extras = (plan.extras ?? {}) as JsonObject;
  for (const key of ["update", "switch", "delete"]) {
    const list = extras[key];
    if (!Array.isArray(list)) continue;
    for (const e of list)
      if (typeof e === "object" && e !== null && !Array.isArray(e))
        out.push({ kind: "extra", id: Number(e.extra_id), name: `extra ${String(e.extra_id)} (${String(e.key)})` });
  }
  return out;
}
