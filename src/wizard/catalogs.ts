import type { EncodableRecord } from "../api/encode.js";
import { itemId, itemNames } from "../commands/catalog/resolve.js";
import { operation } from "../contract/operations.js";
import { isObject, type JsonObject } from "../contract/records.js";
import type { Deps } from "../deps.js";
import { InterruptedError } from "../errors.js";

/**
 * The catalogs the wizard offers, fetched live from the chosen environment
 * on first use and kept for the session. A catalog that cannot be fetched is
 * `null`: the wizard says so once and asks for the id instead.
 */

export interface Item {
  id: number;
  label: string;
  raw: JsonObject;
}

/** "Name (code)" from an item's first two distinct names, e.g. "Euro (EUR)", "Germany (DE)". */
export function labelOf(item: JsonObject): string {
  const names = [...new Set(itemNames(item))];
  if (names.length === 0) {
    const year = item.year;
    return typeof year === "number" || typeof year === "string" ? String(year) : JSON.stringify(item);
  }
  return names.length > 1 ? `${names[0]} (${names[1]})` : names[0]!;
}

export function toItems(list: unknown): Item[] {
  if (!Array.isArray(list)) return [];
  const out: Item[] = [];
  const seen = new Set<number>();
  for (const raw of list) {
    if (!isObject(raw)) continue;
    const id = itemId(raw);
    if (id === undefined || seen.has(id)) continue;
    seen.add(id);
    out.push({ id, label: labelOf(raw), raw });
  }
  return out;
}

/**
 * Find an array of catalog items in a flexible body whose shape the contract
 * does not show: the first array of objects carrying ids under a key that
 * matches `key`, looked for breadth-first a few levels deep (`data`, …).
 */
export function findItems(body: unknown, key: RegExp, depth = 3): Item[] | undefined {
  let level: unknown[] = [body];
  for (let d = 0; d <= depth && level.length; d++) {
    const next: unknown[] = [];
    for (const node of level) {
      if (!isObject(node)) continue;
      for (const [k, v] of Object.entries(node)) {
        if (Array.isArray(v) && key.test(k)) {
          const items = toItems(v);
          if (items.length) return items;
        } else if (isObject(v)) next.push(v);
      }
    }
    level = next;
  }
  return undefined;
}

export class WizardCatalogs {
  readonly #deps: Deps;
  readonly #cache = new Map<string, Promise<unknown>>();
  readonly #warned = new Set<string>();
  /** Items shown for each field, for the names beside ids on the review screen. */
  readonly #byField = new Map<string, Map<number, string>>();

  constructor(deps: Deps) {
    this.#deps = deps;
  }

  async #params(opId: string, params: EncodableRecord): Promise<EncodableRecord> {
    const p: EncodableRecord = { ...params };
    if (operation(opId).params.some((x) => x.name === "locale_id") && p.locale_id === undefined)
      p.locale_id = await this.#deps.locale();
    return p;
  }

  #fetch(opId: string, params: EncodableRecord): Promise<unknown> {
    const key = `${opId}?${JSON.stringify(params)}`;
    let p = this.#cache.get(key);
    if (!p) {
      p = (async () => {
        try {
          const client = await this.#deps.client();
          const res = await client.call(opId, await this.#params(opId, params));
          return res.decoded.kind === "list" ? res.decoded.items : res.decoded.body;
        } catch (e) {
          if (e instanceof InterruptedError) throw e;
          if (!this.#warned.has(opId)) {
            this.#warned.add(opId);
            this.#deps.msg.warn(
              `could not load ${operation(opId).catalogName ?? opId}: ${(e as Error).message}; enter ids instead`,
            );
          }
          return null;
        }
      })();
      this.#cache.set(key, p);
    }
    return p;
  }

  /** A List catalog's items, or null when it could not be fetched. */
  async list(opId: string, params: EncodableRecord = {}): Promise<Item[] | null> {
    const r = await this.#fetch(opId, params);
    if (r === null) return null;
    return toItems(Array.isArray(r) ? r : undefined);
  }

  /** A Flexible catalog's body, or null. */
  async flexible(opId: string, params: EncodableRecord = {}): Promise<JsonObject | null> {
    const r = await this.#fetch(opId, params);
    return isObject(r) ? r : null;
  }

  /** Registration countries from the setup configuration (null: not found there). */
  async registrationCountries(segmentId: number | undefined): Promise<Item[] | null> {
    const body = await this.flexible("catalog.setup", segmentId ? { segment_id: segmentId } : {});
    return (body && (findItems(body, /countr/i) ?? findItems(body, /^reg/i))) ?? null;
  }

  /** Deposit return options from the protection-plan settings (null: not found there). */
  async depositReturnOptions(): Promise<Item[] | null> {
    const body = await this.flexible("catalog.protection_plans");
    return (body && (findItems(body, /return/i) ?? findItems(body, /period/i))) ?? null;
  }

  /** The protection plans, to name the plan groups after the server's own names. */
  async protectionPlans(): Promise<Item[]> {
    const body = await this.flexible("catalog.protection_plans");
    return (body && findItems(body, /plan/i)) ?? [];
  }

  remember(field: string, items: Item[]): void {
    let m = this.#byField.get(field);
    if (!m) {
      m = new Map();
      this.#byField.set(field, m);
    }
    for (const i of items) m.set(i.id, i.label);
  }

  /** The name of an id shown for a field, if the wizard has seen it. */
  name(field: string, id: unknown): string | undefined {
    const n = typeof id === "number" ? id : typeof id === "string" && /^\d+$/.test(id) ? Number(id) : undefined;
    return n === undefined ? undefined : this.#byField.get(field)?.get(n);
  }
}
