import type { EncodableRecord } from "../api/encode.js";
import { findItems, type Item, toItems } from "../catalog/items.js";
import { operation } from "../contract/operations.js";
import type { JsonObject } from "../contract/records.js";
import type { Deps } from "../deps.js";
import { InterruptedError, UsageError } from "../errors.js";

export { findItems, type Item, labelOf, toItems } from "../catalog/items.js";

/**
 * The catalogs the wizard offers, read through the catalog service (fetched
 * once per session, cached on disk). A catalog that cannot be fetched is
 * `null`: the wizard says so once and asks for the id instead.
 */
export class WizardCatalogs {
  readonly #deps: Deps;
  readonly #warned = new Set<string>();
  /** Items shown for each field, for the names beside ids on the review screen. */
  readonly #byField = new Map<string, Map<number, string>>();

  constructor(deps: Deps) {
    this.#deps = deps;
  }

  async #guard<T>(opId: string, get: () => Promise<T>): Promise<T | null> {
    try {
      return await get();
    } catch (e) {
      // A bad --locale is the user's to fix, not a catalog to skip.
      if (e instanceof InterruptedError || e instanceof UsageError) throw e;
      if (!this.#warned.has(opId)) {
        this.#warned.add(opId);
        this.#deps.msg.warn(
          `could not load ${operation(opId).catalogName ?? opId}: ${(e as Error).message}; enter ids instead`,
        );
      }
      return null;
    }
  }

  /** A List catalog's items, or null when it could not be fetched. */
  async list(opId: string, params: EncodableRecord = {}): Promise<Item[] | null> {
    const r = await this.#guard(opId, () => this.#deps.catalogs().items(opId, params));
    return r === null ? null : toItems(r);
  }

  /** A Flexible catalog's body, or null. */
  async flexible(opId: string, params: EncodableRecord = {}): Promise<JsonObject | null> {
    return this.#guard(opId, () => this.#deps.catalogs().body(opId, params));
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
