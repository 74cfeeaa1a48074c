import type { EncodableRecord } from "../api/encode.js";
import { recordToWire, relativeFormProblems } from "../contract/human.js";
import { DEFAULT_SEGMENT, operation } from "../contract/operations.js";
import type { JsonObject } from "../contract/records.js";
import { VEHICLE_FIELDS } from "../contract/vehicle-fields.js";
import { RentctlError } from "../errors.js";
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

function paramsFor(opId: string, row: Record<string, unknown>): EncodableRecord | undefined {
  const params: EncodableRecord = {};
  for (const p of operation(opId).params) {
    if (p.name === "segment_id") params.segment_id = Number(row.vehicle_segment_id) || DEFAULT_SEGMENT;
    else if (p.required === true && p.name !== "locale_id") return undefined;
  }
  return params;
}

export function createNameResolver(port: CatalogPort): NameResolver {
  const catalogs = new Map<string, Promise<JsonObject[]>>();
  const ids = new Map<string, Promise<number>>();
  const names = new Map<string, Promise<string | undefined>>();
  let fetches = 0;
  const items = (opId: string, params: EncodableRecord) => {
    const k = `${opId} ${JSON.stringify(params)}`;
    let p = catalogs.get(k);
    if (!p) {
      fetches++;
      p = port.items(opId, params);
      catalogs.set(k, p);
    }
    return p;
  };
  const resolvable = (field: string) => {
    const spec = fieldSpec(field);
    if (!spec?.catalog) return false;
    const op = operation(spec.catalog);
    return op.envelope === "list" && paramsFor(spec.catalog, {}) !== undefined;
  };
  return {
    resolvable,
    get fetches() {
      return fetches;
    },
    toId(field, value, row) {
      const opId = fieldSpec(field)!.catalog!;
      const params = paramsFor(opId, row)!;
      const k = `${field} ${JSON.stringify(params)} ${value.trim().toLowerCase()}`;
      let p = ids.get(k);
      if (!p) {
        p = items(opId, params).then((list) => port.match(list, value, field));
        p.catch(() => {});
        ids.set(k, p);
      }
      return p;
    },
    toName(field, id, row) {
      if (!resolvable(field)) return Promise.resolve(undefined);
      const opId = fieldSpec(field)!.catalog!;
      const params = paramsFor(opId, row)!;
      const k = `${field} ${JSON.stringify(params)} ${id}`;
      let p = names.get(k);
      if (!p) {
        p = items(opId, params).then((list) => {
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
        names.set(k, p);
      }
      return p;
    },
  };
}

const SEGMENT = "vehicle_segment_id";
const ROW_SPECS = VEHICLE_FIELDS;

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
    // one member (a scalar field, or each member of a list: `benefits: [Unlimited mileage, 3]`)
    const one = async (given: unknown): Promise<unknown> => {
      let v = given;
      if (typeof v === "number" && namesFrom !== undefined) v = String(v);
      if (typeof v !== "string") return given;
      const id = /^\s*id:\s*(\d+)\s*$/i.exec(v);
      if (id) return Number(id[1]);
      // A number is an id, except where the catalog's names are numbers (a year; ParamSpec.namesFrom).
      if (/^\s*\d+\s*$/.test(v) && !(namesFrom !== undefined && Number(v) >= namesFrom)) return given;
      if (!resolvable(resolver, field)) return given;
      return resolver.toId(field, v, values);
    };
    try {
      const v = values[field];
      values[field] = Array.isArray(v) ? await Promise.all(v.map(one)) : await one(v);
    } catch (e) {
      if (!(e instanceof RentctlError)) throw e;
      problems.push({ field, message: e.message.replace(/^[a-z_]+: /, "") + (e.hint ? ` (${e.hint})` : "") });
    }
  }
  return problems;
}

function resolvable(r: NameResolver, field: string): boolean {
  return r.resolvable(field);
}

/** Replace catalog ids by names where a name maps back to the same id (export --names). */
export async function nameRow(resolver: NameResolver, row: Record<string, unknown>): Promise<Record<string, unknown>> {
  const out = { ...row };
  const fields = Object.keys(row).filter((f) => f !== "vehicle_segment_id");
  if ("vehicle_segment_id" in row) fields.push("vehicle_segment_id");
  for (const field of fields) {
    const v = row[field];
    if (typeof v !== "number" || !resolver.resolvable(field)) continue;
    const name = await resolver.toName(field, v, row);
    // a numeric name (a year) would read back as an id: keep the id
    if (name !== undefined && !/^\s*\d+\s*$/.test(name)) out[field] = name;
  }
  return out;
}
