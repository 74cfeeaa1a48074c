import type { CallResult } from "../api/client.js";
import type { EncodableRecord } from "../api/encode.js";
import { UsageError } from "../base/errors.js";
import { DEFAULT_LOCALE, operation } from "../contract/operations.js";
import { isObject, type JsonObject } from "../contract/records.js";
import {
  CATALOG_TTL_MS,
  type CatalogCache,
  cacheParams,
  isFresh,
  listCatalogCaches,
  readCatalogCache,
  writeCatalogCache,
} from "./cache.js";
import { itemId, itemLabel, itemNames, labelOf } from "./items.js";
import { matchByName, nounOf } from "./match.js";
import { ModelIndex } from "./model-index.js";
import { type RecentVehicle, readRecentVehicles, rememberVehicles } from "./recent.js";

/**
 * The catalog service: every read of a reference catalog goes through here
 * (commands, the wizard, completion, import/apply, tables naming ids).
 *
 * - `items` fetches a catalog once per process and parameters, and keeps it
 *   on disk for a day (one file per catalog and parameters, see cache.ts);
 * - `resolve` turns a name into an id: an id passes through with no request,
 *   a name is matched once per distinct value per process, in the chosen
 *   locale and in English;
 * - `name` gives the name of an id for tables and never throws;
 * - `locale` resolves `--locale`: an id as given (no request), a name or a
 *   code through the locales catalog (an unknown one is refused with the list).
 */

/** The one client call the service needs (the API client has it). */
export interface CatalogClient {
  /** `lookup`: not the command's result (`--raw` prints only results). */
  call(opId: string, params: EncodableRecord, extra?: { lookup?: boolean }): Promise<Pick<CallResult, "decoded">>;
}

/** What the service needs from its surroundings (deps builds it; tests give a stub). */
export interface CatalogSource {
  client(): Promise<CatalogClient>;
  /** Where the cache files go (`<dataDir>/cache`); undefined: memory only. */
  dataDir?: string;
  /** Which server the catalogs come from (`sandbox`, or the base address): a cache from another is ignored. */
  scope(): string;
  /** The `--locale` setting: an id, or a name or code to look up. */
  localeSetting(): number | string;
  now(): number;
  /** How long a cached catalog is trusted (default 24 h). */
  ttlMs?: number;
}

export interface ResolveOptions {
  /** The flag or field named in errors (`--brand`, `vehicle_currency_id`). */
  flag?: string;
  /** The catalog's parameters (`segment_id`, `brand_id`, …); the locale is filled in. */
  params?: EncodableRecord;
  /** A number is a name too (a year of issue), not an id. */
  byName?: boolean;
}

const takesLocale = (opId: string) => operation(opId).params.some((p) => p.name === "locale_id");

export class Catalogs {
  readonly #src: CatalogSource;
  readonly #items = new Map<string, Promise<JsonObject[]>>();
  readonly #resolved = new Map<string, Promise<number>>();
  readonly #bodies = new Map<string, Promise<JsonObject>>();
  /** Catalogs (by key) read from the disk cache this run: a name not found there is looked up again live. */
  readonly #fromDisk = new Set<string>();
  #locale: Promise<number> | undefined;
  #models: ModelIndex | undefined;
  /** Requests made by this service (tests and `--verbose` read it). */
  requests = 0;

  constructor(src: CatalogSource) {
    this.#src = src;
  }

  /** The reverse index of configurations (`vehicle_model_id` -> brand, model, configuration), built on first use. */
  models(): ModelIndex {
    const src = this.#src;
    this.#models ??= new ModelIndex({
      items: (opId, params, opts) => this.items(opId, params, opts),
      locale: () => this.locale(),
      dataDir: src.dataDir,
      scope: () => src.scope(),
      now: () => src.now(),
      ttlMs: src.ttlMs,
    });
    return this.#models;
  }

  /** The locale id to send: `--locale` resolved and checked against the locales catalog. */
  locale(): Promise<number> {
    this.#locale ??= this.#resolveLocale();
    return this.#locale;
  }

  async #resolveLocale(): Promise<number> {
    const setting = this.#src.localeSetting();
    // An id needs no lookup (no request): the server judges an unknown one (400 on locale_id).
    if (typeof setting === "number" || /^\s*\d+\s*$/.test(setting)) return Number(setting);
    const known = await this.items("catalog.locales");
    try {
      return matchByName(known, setting, "locale", "--locale");
    } catch (e) {
      if (e instanceof UsageError)
        throw new UsageError(e.message, { hint: `known: ${localeList(known)} (give the id, the name or the code)` });
      throw e;
    }
  }

  /** The parameters sent for a catalog: the locale filled in where the operation takes one. */
  async params(opId: string, params: EncodableRecord = {}): Promise<EncodableRecord> {
    const p: EncodableRecord = { ...params };
    if (takesLocale(opId) && (p.locale_id === undefined || p.locale_id === null)) p.locale_id = await this.locale();
    return p;
  }

  /** A catalog's items (fetched once per process and parameters; from the disk cache while fresh). Throws when unreachable. */
  async items(opId: string, params: EncodableRecord = {}, opts: { fresh?: boolean } = {}): Promise<JsonObject[]> {
    const p = await this.params(opId, params);
    const key = `${opId}?${JSON.stringify(cacheParams(p))}`;
    let got = this.#items.get(key);
    if (opts.fresh && this.#fromDisk.has(key)) got = undefined;
    if (!got) {
      this.#fromDisk.delete(key);
      got = this.#load(opId, p, key, opts.fresh === true);
      // A failure is remembered too: a table naming 500 rows makes one failed request, not 500.
      got.catch(() => {});
      this.#items.set(key, got);
    }
    return got;
  }

  async #load(opId: string, p: EncodableRecord, key: string, fresh: boolean): Promise<JsonObject[]> {
    const name = operation(opId).catalogName;
    const dir = this.#src.dataDir;
    if (dir && name && !fresh) {
      const cached = readCatalogCache({ dataDir: dir }, name, p);
      if (
        cached &&
        cached.scope === this.#src.scope() &&
        isFresh(cached, this.#src.now(), this.#src.ttlMs ?? CATALOG_TTL_MS)
      ) {
        this.#fromDisk.add(key);
        return cached.items;
      }
    }
    const client = await this.#src.client();
    this.requests++;
    const res = await client.call(opId, p, { lookup: true });
    const items = listOf(res.decoded);
    this.remember(opId, p, items);
    return items;
  }

  /** A Flexible catalog's body (`catalog.setup`, `catalog.protection_plans`), once per process and parameters. Throws when unreachable. */
  async body(opId: string, params: EncodableRecord = {}): Promise<JsonObject> {
    const p = await this.params(opId, params);
    const key = `${opId}?${JSON.stringify(cacheParams(p))}`;
    let got = this.#bodies.get(key);
    if (!got) {
      got = (async () => {
        const client = await this.#src.client();
        this.requests++;
        const res = await client.call(opId, p, { lookup: true });
        return res.decoded.body;
      })();
      got.catch(() => {});
      this.#bodies.set(key, got);
    }
    return got;
  }

  /** Keep items fetched elsewhere (`rentctl catalog NAME` prints them) in the cache. Best effort. */
  remember(opId: string, params: EncodableRecord, items: readonly JsonObject[]): void {
    const name = operation(opId).catalogName;
    const dir = this.#src.dataDir;
    if (!dir || !name || items.length === 0) return;
    writeCatalogCache({ dataDir: dir }, name, items, new Date(this.#src.now()), {
      scope: this.#src.scope(),
      params,
    });
  }

  /** Items on disk only, whatever their age or scope (shell completion: no network). */
  cached(opId: string, params: EncodableRecord = {}): JsonObject[] | undefined {
    const name = operation(opId).catalogName;
    const dir = this.#src.dataDir;
    if (!dir || !name) return undefined;
    return readCatalogCache({ dataDir: dir }, name, params)?.items;
  }

  /** Remember listed vehicles (id and registration number) for shell completion. Best effort, never throws. */
  rememberVehicles(items: readonly JsonObject[]): void {
    const dir = this.#src.dataDir;
    if (!dir) return;
    let scope: string;
    try {
      scope = this.#src.scope();
    } catch {
      return;
    }
    rememberVehicles(dir, scope, items);
  }

  /** Vehicles remembered from this server's listings (of `owner` when given), newest first. No network; never throws. */
  recentVehicles(owner?: number): RecentVehicle[] {
    const dir = this.#src.dataDir;
    if (!dir) return [];
    let scope: string;
    try {
      scope = this.#src.scope();
    } catch {
      return [];
    }
    return readRecentVehicles(dir).filter(
      (v) =>
        (v.scope === undefined || v.scope === scope) &&
        (owner === undefined || v.owner === undefined || v.owner === owner),
    );
  }

  /** Every cached fetch of a catalog from this server, whatever its parameters or age (no network). */
  cachedAll(opId: string): CatalogCache[] {
    const name = operation(opId).catalogName;
    const dir = this.#src.dataDir;
    if (!dir || !name) return [];
    const scope = this.#src.scope();
    return listCatalogCaches({ dataDir: dir }, name).filter((c) => c.scope === undefined || c.scope === scope);
  }

  /**
   * An id for a catalog value: an id passes through untouched (no request);
   * a name is matched (exact, else unique prefix, else unique substring) in
   * the chosen locale and in English, once per distinct value per process.
   * An unknown or ambiguous name is a usage error listing the candidates.
   */
  async resolve(
    opId: string,
    value: string | number | undefined,
    opts: ResolveOptions = {},
  ): Promise<number | undefined> {
    if (value === undefined || value === "") return undefined;
    const s = String(value).trim();
    if (/^\d+$/.test(s) && !opts.byName) return Number(s);
    const p = await this.params(opId, opts.params);
    const flag = opts.flag ?? nounOf(opId);
    const key = `${opId}?${JSON.stringify(cacheParams(p))}#${s.toLowerCase()}`;
    let got = this.#resolved.get(key);
    if (!got) {
      const match = async (fresh: boolean) => {
        const items = await this.items(opId, p, { fresh });
        let english: Map<number, string[]> | undefined;
        if (takesLocale(opId) && Number(p.locale_id) !== DEFAULT_LOCALE) {
          english = new Map();
          for (const i of await this.items(opId, { ...p, locale_id: DEFAULT_LOCALE }, { fresh })) {
            const id = itemId(i);
            if (id !== undefined) english.set(id, itemNames(i));
          }
        }
        return matchByName(items, s, nounOf(opId), flag, english);
      };
      got = (async () => {
        try {
          return await match(false);
        } catch (e) {
          // A day-old cache may miss a brand added since: ask the server once before saying "no such name".
          const key = `${opId}?${JSON.stringify(cacheParams(p))}`;
          if (e instanceof UsageError && this.#fromDisk.has(key)) return match(true);
          throw e;
        }
      })();
      got.catch(() => {});
      this.#resolved.set(key, got);
    }
    return got;
  }

  /** The catalog item of an id, or undefined (unknown id, or the catalog is unreachable). Never throws. */
  async item(opId: string, id: unknown, params: EncodableRecord = {}): Promise<JsonObject | undefined> {
    const n = typeof id === "number" ? id : typeof id === "string" && /^\d+$/.test(id.trim()) ? Number(id) : undefined;
    if (n === undefined) return undefined;
    let items: JsonObject[] | undefined;
    try {
      items = await this.items(opId, params);
    } catch {
      // A stale cache is better than an id alone.
      try {
        items = this.cached(opId, await this.params(opId, params));
      } catch {
        items = undefined;
      }
    }
    return items?.find((i) => itemId(i) === n);
  }

  /** The name of an id, for tables: undefined when unknown or the catalog is unreachable. Never throws. */
  async name(opId: string, id: unknown, params: EncodableRecord = {}): Promise<string | undefined> {
    const item = await this.item(opId, id, params);
    return item ? itemLabel(item) : undefined;
  }

  /** "Name (code)" of an id, as the wizard shows it. Never throws. */
  async label(opId: string, id: unknown, params: EncodableRecord = {}): Promise<string | undefined> {
    const item = await this.item(opId, id, params);
    return item ? labelOf(item) : undefined;
  }
}

/** The items of a catalog answer: a List envelope's items, else the first array of objects in the body. */
export function listOf(decoded: CallResult["decoded"]): JsonObject[] {
  if (decoded.kind === "list") return decoded.items;
  if (decoded.kind === "paginated") return decoded.page.items;
  for (const v of Object.values(decoded.body)) if (Array.isArray(v)) return v.filter(isObject);
  return [];
}

function localeList(items: JsonObject[]): string {
  return items
    .filter((i) => itemId(i) !== undefined)
    .map((i) => {
      const names = [...new Set(itemNames(i))];
      return `${itemId(i)} ${names[0] ?? ""}${names[1] ? ` (${names[1]})` : ""}`.trim();
    })
    .join(", ");
}
