import type { EncodableRecord } from "../api/encode.js";
import { EXTRA_FIELDS } from "../contract/extra-fields.js";
import { DEFAULT_SEGMENT, operation } from "../contract/operations.js";
import type { JsonObject } from "../contract/records.js";
import { VEHICLE_FIELDS } from "../contract/vehicle-fields.js";
import { findItems, itemId, itemNames } from "./items.js";
import { modelLabel } from "./model-index.js";
import type { Catalogs } from "./service.js";

/**
 * Names for the ids a person reads: which catalog names each field's ids,
 * decided once for every view (tables, the vehicle card). Each catalog is
 * read through the catalog service (one request per catalog and parameters
 * per run, cached on disk, in the chosen locale), and only when a view shows
 * a field that needs it. A name that cannot be found is undefined: views show
 * the id (`#1003`) and never fail for a name.
 *
 * - `vehicle_model_id`: `Brand Model (configuration)` from the reverse index;
 * - currencies by their code (`EUR`), other catalogs by their name;
 * - catalogs per segment (classes, benefits, features, registration
 *   countries) with the record's own `vehicle_segment_id`;
 * - `vehicle_extras`: the account's extras, each by its option's name;
 * - an extra's `period` keeps its number (the contract names no periods).
 */

type Lookup = (id: number, record: JsonObject) => Promise<string | undefined>;

/** The account's extras (id and option), read once per run by whoever can list them. */
export type ExtrasSource = () => Promise<JsonObject[]>;

const segmentOf = (record: JsonObject): number => {
  const s = Number(record.vehicle_segment_id);
  return Number.isSafeInteger(s) && s > 0 ? s : DEFAULT_SEGMENT;
};

/** The name a table shows for a catalog item: its name, else a year, else nothing. */
export function displayName(item: JsonObject, key: "name" | "code" = "name"): string | undefined {
  if (key === "code" && typeof item.code === "string" && item.code.trim()) return item.code.trim();
  const names = itemNames(item);
  if (names[0]) return names[0];
  const year = item.year;
  return typeof year === "number" || typeof year === "string" ? String(year) : undefined;
}

/**
 * Where the items of a field's catalog are when the catalog is a Flexible
 * body (the contract shows no shape): registration countries are a list in
 * the setup body (per segment), deposit return options one in the protection
 * plans body. Tables, cards and fleet files (`--names`) read this one rule.
 */
export function flexibleList(field: string): { opId: string; key: RegExp; perSegment: boolean } | undefined {
  if (field === "vehicle_reg_number_country") return { opId: "catalog.setup", key: /countr/i, perSegment: true };
  if (/^vehicle_protection_plans_deposit_return_period_/.test(field))
    return { opId: "catalog.protection_plans", key: /return/i, perSegment: false };
  return undefined;
}

const OPTION_KEYS = ["option_id", "option", "extra_option_id", "option_type_id"];

export class FieldNames {
  readonly #catalogs: Catalogs;
  readonly #extras: ExtrasSource | undefined;
  readonly #tables = new Map<string, Promise<Map<number, string>>>();
  readonly #lookups = new Map<string, Lookup | undefined>();

  constructor(catalogs: Catalogs, extras?: ExtrasSource) {
    this.#catalogs = catalogs;
    this.#extras = extras;
  }

  /** Whether a field's values are ids that have names. */
  names(field: string): boolean {
    return this.#lookup(field) !== undefined;
  }

  /** The name of one id of a field, read in the context of its record (its segment). Never throws. */
  async name(field: string, id: number, record: JsonObject = {}): Promise<string | undefined> {
    const lookup = this.#lookup(field);
    if (!lookup) return undefined;
    try {
      return await lookup(id, record);
    } catch {
      return undefined;
    }
  }

  /** One catalog's id -> name table, fetched once per parameters (a stale cache rather than nothing). */
  #table(
    key: string,
    load: () => Promise<JsonObject[] | undefined>,
    nameKey: "name" | "code",
  ): Promise<Map<number, string>> {
    let got = this.#tables.get(key);
    if (!got) {
      got = (async () => {
        const m = new Map<number, string>();
        for (const item of (await load()) ?? []) {
          const id = itemId(item);
          const name = displayName(item, nameKey);
          if (id !== undefined && name !== undefined && !m.has(id)) m.set(id, name);
        }
        return m;
      })();
      got.catch(() => {});
      this.#tables.set(key, got);
    }
    return got;
  }

  #list(opId: string, params: EncodableRecord): Promise<JsonObject[] | undefined> {
    const cat = this.#catalogs;
    return cat.items(opId, params).catch(async () => cat.cached(opId, await cat.params(opId, params)));
  }

  #catalogLookup(opId: string, nameKey: "name" | "code"): Lookup {
    const perSegment = operation(opId).params.some((p) => p.name === "segment_id");
    return async (id, record) => {
      const params: EncodableRecord = perSegment ? { segment_id: segmentOf(record) } : {};
      const table = await this.#table(
        `${opId}|${JSON.stringify(params)}|${nameKey}`,
        () => this.#list(opId, params),
        nameKey,
      );
      return table.get(id);
    };
  }

  #flexibleLookup(opId: string, key: RegExp, perSegment: boolean): Lookup {
    return async (id, record) => {
      const params: EncodableRecord = perSegment ? { segment_id: segmentOf(record) } : {};
      const table = await this.#table(
        `${opId}|${JSON.stringify(params)}|${key.source}`,
        async () => {
          const body = await this.#catalogs.body(opId, params);
          return findItems(body, key)?.map((i) => i.raw);
        },
        "name",
      );
      return table.get(id);
    };
  }

  #extrasLookup(): Lookup | undefined {
    const extras = this.#extras;
    if (!extras) return undefined;
    const options = this.#catalogLookup("catalog.extra_options", "name");
    let byId: Promise<Map<number, number>> | undefined;
    return async (id, record) => {
      byId ??= extras().then((list) => {
        const m = new Map<number, number>();
        for (const e of list) {
          const eid = Number(e.id ?? e.extra_id);
          const opt = OPTION_KEYS.map((k) => Number(e[k])).find((n) => Number.isSafeInteger(n) && n > 0);
          if (Number.isSafeInteger(eid) && opt !== undefined) m.set(eid, opt);
        }
        return m;
      });
      byId.catch(() => {});
      const option = (await byId).get(id);
      return option === undefined ? undefined : options(option, record);
    };
  }

  #lookup(field: string): Lookup | undefined {
    if (this.#lookups.has(field)) return this.#lookups.get(field);
    let found: Lookup | undefined;
    if (field === "vehicle_model_id") {
      found = async (id, record) => {
        const entry = await this.#catalogs.models().entry(id, segmentOf(record));
        return entry ? modelLabel(entry) : undefined;
      };
    } else if (field === "vehicle_extras") {
      found = this.#extrasLookup();
    } else if (flexibleList(field)) {
      const { opId, key, perSegment } = flexibleList(field)!;
      found = this.#flexibleLookup(opId, key, perSegment);
    } else {
      const spec = VEHICLE_FIELDS.find((f) => f.name === field) ?? EXTRA_FIELDS.find((f) => f.name === field);
      const opId = spec?.catalog;
      if (opId && operation(opId).envelope === "list" && !requiresMore(opId))
        found = this.#catalogLookup(opId, opId === "catalog.currencies" ? "code" : "name");
    }
    this.#lookups.set(field, found);
    return found;
  }
}

/** A catalog that needs a parameter a record does not carry (configurations need their model). */
function requiresMore(opId: string): boolean {
  return operation(opId).params.some((p) => p.required && p.name !== "locale_id" && p.name !== "segment_id");
}
