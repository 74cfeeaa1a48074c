import type { EncodableRecord } from "../api/encode.js";
import { UsageError, valueProblem } from "../base/errors.js";
import { labelIndex, labelKey, type ModelEntry, modelLabel } from "../catalog/model-index.js";
import { flexibleList } from "../catalog/names.js";
import { recordToWire, relativeFormProblems } from "../contract/human.js";
import { DEFAULT_SEGMENT, operation } from "../contract/operations.js";
import type { JsonObject } from "../contract/records.js";
import { localProblems, memberChange } from "../contract/refs.js";
import { VEHICLE_FIELDS } from "../contract/vehicle-fields.js";
import { fieldSpec, type RowProblem } from "./fields.js";

/**
 * Catalog names in fleet files. Wherever `vehicle create` accepts a name
 * (segment, class, year, currency, fuel policy, ...), a row may give one; it
 * is resolved once per distinct (field, value, segment) for the whole file,
 * and each catalog is fetched at most once (memoised), never per row.
 * Export `--names` goes the other way, writing a name only when that name
 * resolves back to the same id.
 */
export interface CatalogPort {
  items(opId: string, params: EncodableRecord): Promise<JsonObject[]>;
  /** The items of a list inside a Flexible catalog body (registration countries in setup, …). */
  listIn(opId: string, params: EncodableRecord, key: RegExp): Promise<JsonObject[]>;
  /** Every vehicle configuration of a segment: id -> brand, model, configuration (the reverse index). */
  models(segmentId: number): Promise<ReadonlyMap<number, ModelEntry>>;
  /** The id a name means (exact, else unique prefix, else unique substring); throws when none or several. */
  match(items: JsonObject[], value: string, field: string): number;
  itemId(item: JsonObject): number | undefined;
  itemNames(item: JsonObject): string[];
}

export interface NameResolver {
  /** Whether a name is accepted for this field. */
  resolvable(field: string): boolean;
  toId(field: string, value: string, row: Record<string, unknown>): Promise<number>;
  toName(field: string, id: number, row: Record<string, unknown>): Promise<string | undefined>;
  /** Catalog fetches so far. */
  readonly fetches: number;
}

const MODEL = "vehicle_model_id";

function paramsFor(opId: string, row: Record<string, unknown>): EncodableRecord | undefined {
  const params: EncodableRecord = {};
  for (const p of operation(opId).params) {
    if (p.name === "segment_id") params.segment_id = segmentOf(row);
    else if (p.required === true && p.name !== "locale_id") return undefined;
  }
  return params;
}

const segmentOf = (row: Record<string, unknown>) => Number(row.vehicle_segment_id) || DEFAULT_SEGMENT;

/** Where a field's names come from: a List catalog, a list inside a Flexible body, or the configurations' reverse index. */
type Source = { opId: string; key?: RegExp } | "model" | undefined;

function sourceOf(field: string): Source {
  if (field === MODEL) return "model";
  const flexible = flexibleList(field);
  if (flexible) return { opId: flexible.opId, key: flexible.key };
  const spec = fieldSpec(field);
  if (!spec?.catalog) return undefined;
  const op = operation(spec.catalog);
  return op.envelope === "list" && paramsFor(spec.catalog, {}) !== undefined ? { opId: spec.catalog } : undefined;
}

/** Whether a field's names are looked up (in a catalog, a list of a Flexible body, or the configurations). */
export const resolvableField = (field: string): boolean => sourceOf(field) !== undefined;

export function createNameResolver(port: CatalogPort): NameResolver {
  const catalogs = new Map<string, Promise<JsonObject[]>>();
  const labels = new Map<
    number,
    Promise<{ entries: ReadonlyMap<number, ModelEntry>; byLabel: Map<string, number[]> }>
  >();
  const ids = new Map<string, Promise<number>>();
  const names = new Map<string, Promise<string | undefined>>();
  let fetches = 0;
  const items = (src: { opId: string; key?: RegExp }, params: EncodableRecord) => {
    const k = `${src.opId} ${JSON.stringify(params)} ${src.key?.source ?? ""}`;
    let p = catalogs.get(k);
    if (!p) {
      fetches++;
      p = src.key ? port.listIn(src.opId, params, src.key) : port.items(src.opId, params);
      catalogs.set(k, p);
    }
    return p;
  };
  const models = (segment: number) => {
    let p = labels.get(segment);
    if (!p) {
      fetches++;
      p = port.models(segment).then((entries) => ({ entries, byLabel: labelIndex(entries) }));
      p.catch(() => {});
      labels.set(segment, p);
    }
    return p;
  };
  // asked for every member of every row: looked up once per field
  const known = new Map<string, boolean>();
  const resolvable = (field: string) => {
    let r = known.get(field);
    if (r === undefined) {
      r = sourceOf(field) !== undefined;
      known.set(field, r);
    }
    return r;
  };
  const modelId = async (value: string, row: Record<string, unknown>): Promise<number> => {
    const segment = segmentOf(row);
    const found = (await models(segment)).byLabel.get(labelKey(value)) ?? [];
    if (found.length === 1) return found[0]!;
    if (found.length > 1)
      throw new UsageError(
        `${MODEL}: ${JSON.stringify(value)} names ${found.length} configurations (${found.join(", ")})`,
        {
          hint: "give the configuration id",
        },
      );
    throw new UsageError(`${MODEL}: no vehicle configuration named ${JSON.stringify(value)} in segment ${segment}`, {
      hint: "write it as `Brand Model (configuration)`, as `vehicle export --names` does, or give the configuration id (`rentctl catalog equipments --brand B --model M`)",
    });
  };
  const modelName = async (id: number, row: Record<string, unknown>): Promise<string | undefined> => {
    const { entries, byLabel } = await models(segmentOf(row));
    const entry = entries.get(id);
    if (!entry) return undefined;
    const label = modelLabel(entry);
    // two configurations with one label: the label cannot name this one (keep the id)
    return byLabel.get(labelKey(label))?.length === 1 ? label : undefined;
  };
  return {
    resolvable,
    get fetches() {
      return fetches;
    },
    toId(field, value, row) {
      const src = sourceOf(field)!;
      const params = src === "model" ? { segment_id: segmentOf(row) } : paramsFor(src.opId, row)!;
      const k = `${field} ${JSON.stringify(params)} ${value.trim().toLowerCase()}`;
      let p = ids.get(k);
      if (!p) {
        p = src === "model" ? modelId(value, row) : items(src, params).then((list) => port.match(list, value, field));
        p.catch(() => {});
        ids.set(k, p);
      }
      return p;
    },
    toName(field, id, row) {
      const src = sourceOf(field);
      if (!src) return Promise.resolve(undefined);
      const params = src === "model" ? { segment_id: segmentOf(row) } : paramsFor(src.opId, row)!;
      const k = `${field} ${JSON.stringify(params)} ${id}`;
      let p = names.get(k);
      if (!p) {
        p =
          src === "model"
            ? modelName(id, row)
            : items(src, params).then((list) => {
                const item = list.find((i) => port.itemId(i) === id);
                for (const name of item ? port.itemNames(item) : []) {
                  try {
                    if (port.match(list, name, field) === id) return name;
                  } catch {
                    // ambiguous name: keep the id
                  }
                }
                return undefined;
              });
        // a catalog that cannot be read names nothing: the id stays
        p = p.catch(() => undefined);
        names.set(k, p);
      }
      return p;
    },
  };
}

const SEGMENT = "vehicle_segment_id";
const ROW_SPECS = VEHICLE_FIELDS;

/** The reading of one member: src/contract/refs.ts (ids as given, names resolved). */
export { memberChange };

/**
 * A row's problems that need no server (src/contract/refs.ts: local checks
 * first), its names counted as given: a row with one reads no catalog.
 * `create`: the row must give every required field.
 */
export function localRowProblems(
  resolver: Pick<NameResolver, "resolvable">,
  values: Record<string, unknown>,
  create: boolean,
): RowProblem[] {
  const relative = relativeFormProblems(values, ROW_SPECS);
  recordToWire(values);
  const local = localProblems(values, ROW_SPECS, { create, resolvable: (f) => resolver.resolvable(f) });
  return [...relative, ...local.filter((p) => !relative.some((r) => r.field === p.field))];
}

/** Replace the names of a row's catalog fields by ids (segment first: other catalogs depend on it). */
export async function resolveRowNames(resolver: NameResolver, values: Record<string, unknown>): Promise<RowProblem[]> {
  const problems: RowProblem[] = [];
  // a person's forms first (dates as 2026-12-24 or 24.12.2026; no relative forms), then names
  problems.push(...relativeFormProblems(values, ROW_SPECS));
  recordToWire(values);
  // The segment first, then the row's other fields in their order (only the fields the row has: this runs per row).
  const names: string[] = typeof values[SEGMENT] === "string" ? [SEGMENT] : [];
  for (const field in values) {
    const v = values[field];
    const named = typeof v === "string" || (Array.isArray(v) && v.some((m) => typeof m === "string"));
    if (field !== SEGMENT && (named || fieldSpec(field)?.namesFrom !== undefined)) names.push(field);
  }
  for (const field of names) {
    const namesFrom = fieldSpec(field)?.namesFrom;
    const canResolve = resolvable(resolver, field);
    // one member (a scalar field, or each member of a list: `benefits: [Unlimited mileage, 3]`): the member
    // itself, or a promise of the id its name stands for (only a name waits: this runs per row)
    const one = (given: unknown): unknown => {
      const change = memberChange(given, namesFrom, canResolve);
      if (!change) return given;
      return "id" in change ? change.id : resolver.toId(field, change.name, values);
    };
    try {
      const v = values[field];
      if (Array.isArray(v)) {
        const members = v.map(one);
        values[field] = members.some((m) => m instanceof Promise) ? await Promise.all(members) : members;
      } else {
        const m = one(v);
        values[field] = m instanceof Promise ? await m : m;
      }
    } catch (e) {
      problems.push({ field, message: valueProblem(e, /^[a-z_]+: /) });
    }
  }
  return problems;
}

function resolvable(r: NameResolver, field: string): boolean {
  return r.resolvable(field);
}

/**
 * Replace catalog ids by names where a name maps back to the same id (export
 * --names): scalar fields and each member of a list field (benefits, options,
 * payment types, delivery places); a year as its number (2024: a whole number
 * from the field's `namesFrom` up reads back as the year); a configuration as
 * `Brand Model (configuration)`. An id no name maps back to stays an id.
 */
export async function nameRow(resolver: NameResolver, row: Record<string, unknown>): Promise<Record<string, unknown>> {
  const out = { ...row };
  const fields = Object.keys(row).filter((f) => f !== "vehicle_segment_id");
  if ("vehicle_segment_id" in row) fields.push("vehicle_segment_id");
  const one = async (field: string, v: unknown): Promise<unknown> => {
    if (typeof v !== "number") return v;
    const name = await resolver.toName(field, v, row);
    if (name === undefined) return v;
    if (!/^\s*\d+\s*$/.test(name)) return name;
    // a numeric name reads back as an id, except where the field's names are numbers (a year)
    const from = fieldSpec(field)?.namesFrom;
    return from !== undefined && Number(name) >= from ? Number(name) : v;
  };
  for (const field of fields) {
    const v = row[field];
    if (!resolver.resolvable(field)) continue;
    if (Array.isArray(v)) out[field] = await Promise.all(v.map((m) => one(field, m)));
    else out[field] = await one(field, v);
  }
  return out;
}
