import { activeOf, EXTRA_FIELDS, memberOf, parseActive } from "../contract/extra-fields.js";

export { activeOf, memberOf, parseActive };

import { InputError, valueProblem } from "../base/errors.js";
import { type JsonObject, recordId } from "../contract/records.js";
import { coerce, isEmpty } from "../contract/validate.js";
import type { RowProblem } from "../files/fields.js";
import type { CatalogPort } from "../files/resolver.js";
import type { FieldChange } from "./plan.js";

/**
 * The extras section of an account file and its plan against the account's
 * extras.
 *
 * A row: `option` (a name or id of the extra option catalog), `price`,
 * `currency` (a code, name or id of the currency catalog), `period` (the
 * number the server uses: the contract names no period values, so neither
 * does the file), `quantity`, `active` (on / off; applied with the switch
 * operation, only when the state differs), and optionally `extra_id` to pin
 * one of two extras of the same identity.
 *
 * The identity of an extra is its option and period. A row without
 * `extra_id` matches the account's one extra of that identity (two are an
 * error naming both ids), or plans a create. A row leaves the members it does
 * not give as they are (a create needs them all).
 */

export const OPTION_CATALOG = "catalog.extra_options";
export const CURRENCY_CATALOG = "catalog.currencies";

/** Members of an extra row (besides the wire names option_id / currency_id, also accepted). */
export const EXTRA_ROW_KEYS = ["option", "price", "currency", "period", "quantity", "active", "extra_id"] as const;

const SPEC = new Map(EXTRA_FIELDS.map((f) => [f.name, f]));

/** The members compared and sent (besides the identity). */
export const EXTRA_VALUE_FIELDS = ["price", "currency_id", "quantity"] as const;

/** What an extra says, in the account and in the file alike: its identity (option and period) and its values. */
interface ExtraFacts {
  option_id: number;
  period: number;
  price?: number;
  currency_id?: number;
  quantity?: number;
}

/** An extra of the account as the server lists it, under the contract's names. */
export interface ExtraState extends ExtraFacts {
  id: number;
  /** undefined when the server's record shows no state. */
  active?: boolean;
  /** The option's name as the server gives it (`option_name`), if any. */
  optionName?: string;
  record: JsonObject;
}

/** An extra row of the file, catalog names resolved. */
export interface ExtraRow extends ExtraFacts {
  row: number;
  extra_id?: number;
  active?: boolean;
}

export const extraKey = (option: number, period: number) => `${option}/${period}`;

const num = (v: unknown): number | undefined => {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(v)) return Number(v);
  return undefined;
};

/** An extra as listed, under the contract's names; undefined when it lacks an id, option or period. */
export function extraState(record: JsonObject): ExtraState | undefined {
  const id = recordId(record, "extra");
  const option = num(memberOf(record, "option_id"));
  const period = num(memberOf(record, "period"));
  if (id === undefined || option === undefined || period === undefined) return undefined;
  const name = record.option_name;
  return {
    id,
    option_id: option,
    period,
    price: num(memberOf(record, "price")),
    currency_id: num(memberOf(record, "currency_id")),
    quantity: num(memberOf(record, "quantity")),
    active: activeOf(record),
    optionName: typeof name === "string" && name.trim() ? name.trim() : undefined,
    record,
  };
}

/** A catalog value given by name or id: its id (a number, a numeric string, or a name matched in the catalog). */
export async function catalogValue(
  port: CatalogPort,
  opId: string,
  field: string,
  value: unknown,
  cache: Map<string, Promise<JsonObject[]>>,
): Promise<number> {
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 1) return value;
  if (typeof value === "string" && /^\s*\d+\s*$/.test(value)) return Number(value);
  if (typeof value !== "string" || !value.trim())
    throw new InputError(`must be a name or an id, got ${JSON.stringify(value)}`);
  let items = cache.get(opId);
  if (!items) {
    items = port.items(opId, {});
    cache.set(opId, items);
  }
  return port.match(await items, value, field);
}

/** The name of a catalog id that reads back as the same id (export --names), else undefined. */
export async function catalogName(
  port: CatalogPort,
  opId: string,
  field: string,
  id: number,
  cache: Map<string, Promise<JsonObject[]>>,
  prefer?: string,
): Promise<string | undefined> {
  let items = cache.get(opId);
  if (!items) {
    items = port.items(opId, {});
    cache.set(opId, items);
  }
  const list = await items;
  const item = list.find((i) => port.itemId(i) === id);
  if (!item) return undefined;
  const names = port.itemNames(item);
  const preferred = prefer && typeof item[prefer] === "string" ? [String(item[prefer]), ...names] : names;
  for (const name of preferred) {
    if (/^\s*\d+\s*$/.test(name)) continue;
    try {
      if (port.match(list, name, field) === id) return name;
    } catch {
      // ambiguous: try the next name
    }
  }
  return undefined;
}

export interface ExtraRowsResult {
  rows: ExtraRow[];
  problems: RowProblem[];
}

const rowLabel = (n: number, data: Record<string, unknown>) =>
  `extras row ${n}${typeof data.option === "string" ? ` (${data.option})` : ""}`;

/** Map the raw rows of the extras section (names resolved); every problem listed, each naming its row. */
export async function readExtraRows(
  port: CatalogPort,
  raw: readonly Record<string, unknown>[],
  cache: Map<string, Promise<JsonObject[]>>,
): Promise<ExtraRowsResult> {
  const rows: ExtraRow[] = [];
  const problems: RowProblem[] = [];
  for (let i = 0; i < raw.length; i++) {
    const n = i + 1;
    const data = raw[i]!;
    const at = rowLabel(n, data);
    const bad = (field: string, message: string) => problems.push({ field: `${at} ${field}`, message });
    const given: Record<string, unknown> = {};
    for (const [k0, v] of Object.entries(data)) {
      const k = k0.trim();
      const key = k === "option_id" ? "option" : k === "currency_id" ? "currency" : k;
      if (!(EXTRA_ROW_KEYS as readonly string[]).includes(key)) {
        bad(k, `unknown key (an extra has ${EXTRA_ROW_KEYS.join(", ")})`);
        continue;
      }
      if (key in given) {
        bad(k, "given twice");
        continue;
      }
      if (!isEmpty(v)) given[key] = v;
    }
    const row: Partial<ExtraRow> & { row: number } = { row: n };
    if (given.option === undefined) bad("option", "required (a name or id of `rentctl extra options`)");
    else {
      try {
        row.option_id = await catalogValue(port, OPTION_CATALOG, "option", given.option, cache);
      } catch (e) {
        bad("option", valueProblem(e, /^option: /));
      }
    }
    if (given.currency !== undefined) {
      try {
        row.currency_id = await catalogValue(port, CURRENCY_CATALOG, "currency", given.currency, cache);
      } catch (e) {
        bad("currency", valueProblem(e, /^currency: /));
      }
    }
    for (const f of ["price", "period", "quantity"] as const) {
      if (given[f] === undefined) continue;
      const r = coerce(SPEC.get(f)!, given[f]);
      if (r.problems.length || typeof r.value !== "number") for (const m of r.problems) bad(f, m);
      else row[f] = r.value;
    }
    if (row.period === undefined && given.period === undefined)
      bad("period", "required (the charging period number the server uses, e.g. 1)");
    if (given.active !== undefined) {
      const a = parseActive(given.active);
      if (a === undefined) bad("active", `must be on or off, got ${JSON.stringify(given.active)}`);
      else row.active = a;
    }
    if (given.extra_id !== undefined) {
      const id = num(given.extra_id);
      if (id === undefined || !Number.isSafeInteger(id) || id < 1)
        bad("extra_id", `must be an extra id, got ${JSON.stringify(given.extra_id)}`);
      else row.extra_id = id;
    }
    if (row.option_id !== undefined && row.period !== undefined) rows.push(row as ExtraRow);
  }
  return { rows, problems };
}

export interface ExtraCreate {
  row: number;
  key: string;
  record: { option_id: number; period: number; price: number; currency_id: number; quantity: number };
  /** The state the file asks for, when it is not the server's default (on). */
  active?: boolean;
}

export interface ExtraUpdate {
  row: number;
  id: number;
  key: string;
  fields: Record<string, FieldChange>;
  /** The members the plan was made from (the guard compares them before sending). */
  before: Record<string, number>;
  /** The full replacement to send (option, price, currency, period, quantity). */
  after: Record<string, number>;
  record: JsonObject;
}

export interface ExtraSwitch {
  row: number;
  id: number;
  key: string;
  from: boolean | null;
  to: boolean;
}

export interface ExtraDelete {
  id: number;
  key: string;
  record: JsonObject;
}

export interface ExtraPlan {
  /** false: the file has no extras section (extras are not managed: nothing planned, nothing pruned). */
  managed: boolean;
  create: ExtraCreate[];
  update: ExtraUpdate[];
  switch: ExtraSwitch[];
  delete: ExtraDelete[];
  unchanged: number;
  /** Every row's extra id when it exists (undefined: created by the plan). */
  matched: Map<number, number | undefined>;
}

export function emptyExtraPlan(managed: boolean): ExtraPlan {
  return { managed, create: [], update: [], switch: [], delete: [], unchanged: 0, matched: new Map() };
}

export function extraPlanIsEmpty(p: ExtraPlan): boolean {
  return !p.create.length && !p.update.length && !p.switch.length && !p.delete.length;
}

/** The members an update sends (the full replacement), from the current state with the row's values over it. */
function replacement(s: ExtraState, row?: ExtraRow): Record<string, number> {
  const out: Record<string, number> = { option_id: row?.option_id ?? s.option_id, period: row?.period ?? s.period };
  for (const f of EXTRA_VALUE_FIELDS) {
    const v = row?.[f] ?? s[f];
    if (v !== undefined) out[f] = v;
  }
  return out;
}

/**
 * Plan the extras rows against the account's extras. `label(option, period)`
 * names an identity in messages. Inconsistent rows (two of the same identity,
 * an identity two extras of the account share, a create missing a member, a
 * pinned id not in the account) are an error naming the rows and ids.
 */
export function planExtras(
  rows: readonly ExtraRow[],
  account: readonly ExtraState[],
  opts: { prune?: boolean; label: (option: number, period: number) => string },
): { plan: ExtraPlan; problems: RowProblem[] } {
  const plan = emptyExtraPlan(true);
  const problems: RowProblem[] = [];
  const byId = new Map(account.map((e) => [e.id, e]));
  const byKey = new Map<string, ExtraState[]>();
  for (const e of [...account].sort((a, b) => a.id - b.id)) {
    const k = extraKey(e.option_id, e.period);
    byKey.set(k, [...(byKey.get(k) ?? []), e]);
  }
  const claimed = new Set<number>();
  // Pinned rows first: they take their extra before the others look for theirs.
  for (const r of rows) {
    if (r.extra_id === undefined) continue;
    if (!byId.has(r.extra_id))
      problems.push({
        field: `extras row ${r.row} extra_id`,
        message: `extra ${r.extra_id} is not in the account (extra_id is account-bound: drop it to match by option and period)`,
      });
    else if (claimed.has(r.extra_id))
      problems.push({ field: `extras row ${r.row} extra_id`, message: `extra ${r.extra_id} is pinned by two rows` });
    else claimed.add(r.extra_id);
  }
  const seen = new Map<string, number>();
  for (const r of rows) {
    const key = extraKey(r.option_id, r.period);
    const label = opts.label(r.option_id, r.period);
    let state: ExtraState | undefined;
    if (r.extra_id !== undefined) state = byId.get(r.extra_id);
    else {
      const first = seen.get(key);
      if (first !== undefined) {
        problems.push({
          field: `extras row ${r.row}`,
          message: `the same extra as extras row ${first} (${label}): give each extra once, or pin each with extra_id`,
        });
        continue;
      }
      seen.set(key, r.row);
      const candidates = (byKey.get(key) ?? []).filter((e) => !claimed.has(e.id));
      if (candidates.length > 1) {
        problems.push({
          field: `extras row ${r.row}`,
          message: `the account has ${candidates.length} extras ${label} (ids ${candidates.map((e) => e.id).join(", ")}): pin one with extra_id`,
        });
        continue;
      }
      state = candidates[0];
      if (state) claimed.add(state.id);
    }
    if (!state) {
      const missing = EXTRA_VALUE_FIELDS.filter((f) => r[f] === undefined);
      if (missing.length) {
        problems.push({
          field: `extras row ${r.row}`,
          message: `${label} is not in the account, and creating it needs ${missing.map((f) => f.replace(/_id$/, "")).join(", ")}`,
        });
        continue;
      }
      plan.matched.set(r.row, undefined);
      plan.create.push({
        row: r.row,
        key: label,
        record: {
          option_id: r.option_id,
          period: r.period,
          price: r.price!,
          currency_id: r.currency_id!,
          quantity: r.quantity!,
        },
        ...(r.active === false ? { active: false } : {}),
      });
      continue;
    }
    plan.matched.set(r.row, state.id);
    const before = replacement(state);
    const after = replacement(state, r);
    const fields: Record<string, FieldChange> = {};
    for (const f of ["option_id", "period", ...EXTRA_VALUE_FIELDS]) {
      if (before[f] !== after[f]) fields[f] = { from: before[f] ?? null, to: after[f] ?? null };
    }
    let same = true;
    if (Object.keys(fields).length) {
      same = false;
      plan.update.push({ row: r.row, id: state.id, key: label, fields, before, after, record: state.record });
    }
    if (r.active !== undefined && r.active !== state.active) {
      same = false;
      plan.switch.push({ row: r.row, id: state.id, key: label, from: state.active ?? null, to: r.active });
    }
    if (same) plan.unchanged++;
  }
  if (opts.prune) {
    for (const e of [...account].sort((a, b) => a.id - b.id))
      if (!claimed.has(e.id)) plan.delete.push({ id: e.id, key: opts.label(e.option_id, e.period), record: e.record });
  }
  return { plan, problems };
}

/** An extra a job created whose option and period the account holds with a lower id: the copy, and the one kept. */
export interface ExtraTwin {
  id: number;
  kept: number;
  option_id: number;
  period: number;
}

/**
 * Extras converge as vehicles do (src/bulk/identity-check.ts): one per
 * option and period, the lowest id kept. Of `mine` (ids a job created), those
 * whose option and period the account also holds under a lower id are
 * copies; `presumed` (identities of creates whose answer was lost) names the
 * newest extra of the identity as the job's own when the account holds it
 * more than once, unless that id is known to be someone else's (`others`).
 */
export function extraTwins(
  account: readonly ExtraState[],
  mine: ReadonlySet<number>,
  presumed: ReadonlySet<string> = new Set(),
  others: ReadonlySet<number> = new Set(),
): ExtraTwin[] {
  const byKey = new Map<string, ExtraState[]>();
  for (const e of account) {
    const k = extraKey(e.option_id, e.period);
    byKey.set(k, [...(byKey.get(k) ?? []), e]);
  }
  const out: ExtraTwin[] = [];
  for (const [k, list] of byKey) {
    if (list.length < 2) continue;
    const ids = list.map((e) => e.id).sort((a, b) => a - b);
    const kept = ids[0]!;
    const copies = new Set(ids.filter((id) => id !== kept && mine.has(id)));
    const newest = ids[ids.length - 1]!;
    if (presumed.has(k) && newest !== kept && !others.has(newest)) copies.add(newest);
    for (const id of copies) out.push({ id, kept, option_id: list[0]!.option_id, period: list[0]!.period });
  }
  return out.sort((a, b) => a.id - b.id);
}
