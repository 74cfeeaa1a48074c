import type { EncodableRecord } from "../api/encode.js";
import { InterruptedError, UsageError } from "../base/errors.js";
import { findItems, type Item, itemId, toItems } from "../catalog/items.js";
import { operation } from "../contract/operations.js";
import type { JsonObject } from "../contract/records.js";
import { VEHICLE_FIELDS } from "../contract/vehicle-fields.js";
import type { Deps } from "../deps.js";

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

  /**
   * Names for ids no question has shown yet (answers from `--from-file`), as
   * the questions would have shown them: each field's catalog, read through
   * the catalog service; a configuration from the catalogs cached by earlier
   * runs (its catalog needs the model, which a file does not carry).
   */
  async fillNames(answers: Record<string, unknown>, segmentId: number): Promise<void> {
    const idsOf = (v: unknown) =>
      (Array.isArray(v) ? v : [v]).map((x) => Number(x)).filter((n) => Number.isSafeInteger(n) && n > 0);
    for (const spec of VEHICLE_FIELDS) {
      const ids = idsOf(answers[spec.name]);
      if (!spec.catalog || ids.length === 0 || ids.every((id) => this.name(spec.name, id) !== undefined)) continue;
      let items: Item[] | null = null;
      if (spec.name === "vehicle_model_id") {
        items = this.#cachedConfigurations(ids[0]!) ?? (await this.#indexedConfiguration(ids[0]!, segmentId));
      } else if (spec.catalog === "catalog.setup") {
        items = await this.registrationCountries(segmentId);
      } else if (spec.catalog === "catalog.protection_plans") {
        if (/deposit_return_period/.test(spec.name)) items = await this.depositReturnOptions();
      } else {
        const op = operation(spec.catalog);
        const required = op.params.filter(
          (p) => p.required === true && p.name !== "locale_id" && p.name !== "segment_id",
        );
        if (op.envelope !== "list" || required.length) continue;
        items = await this.list(op.id, op.params.some((p) => p.name === "segment_id") ? { segment_id: segmentId } : {});
      }
      if (items?.length) this.remember(spec.name, items);
    }
  }

  /** "Brand Model · Configuration" from the reverse index of configurations (the tables' and the card's). */
  async #indexedConfiguration(id: number, segmentId: number): Promise<Item[] | null> {
    try {
      const entry = await this.#deps.catalogs().models().entry(id, segmentId);
      if (!entry) return null;
      const [brand, model, configuration] = entry;
      return [{ id, label: `${brand} ${model} · ${configuration}`, raw: { id, name: configuration } }];
    } catch (e) {
      if (e instanceof InterruptedError) throw e;
      return null; // catalogs unreachable: the review shows the id
    }
  }

  /** "Brand Model · Configuration" of a configuration id, from catalogs cached by earlier runs. */
  #cachedConfigurations(id: number): Item[] | null {
    const catalogs = this.#deps.catalogs();
    const find = (opId: string, want: number) => {
      for (const c of catalogs.cachedAll(opId)) {
        const item = toItems(c.items).find((i) => i.id === want);
        if (item) return { item, params: c.params ?? {} };
      }
      return undefined;
    };
    const conf = find("catalog.equipments", id);
    if (!conf) return null;
    const model = conf.params.model_id !== undefined ? find("catalog.models", Number(conf.params.model_id)) : undefined;
    const brandId = model?.params.brand_id ?? model?.item.raw.brand_id ?? conf.item.raw.brand_id;
    const brand = brandId !== undefined ? find("catalog.brands", Number(brandId)) : undefined;
    const prefix = [brand?.item.label, model?.item.label].filter(Boolean).join(" ");
    return [
      {
        ...conf.item,
        id: itemId(conf.item.raw) ?? id,
        label: prefix ? `${prefix} · ${conf.item.label}` : conf.item.label,
      },
    ];
  }

  /** The name of an id shown for a field, if the wizard has seen it. */
  name(field: string, id: unknown): string | undefined {
    const n = typeof id === "number" ? id : typeof id === "string" && /^\d+$/.test(id) ? Number(id) : undefined;
    return n === undefined ? undefined : this.#byField.get(field)?.get(n);
  }
}
