import { itemId } from "../../catalog/items.js";
import { DEFAULT_SEGMENT, operation } from "../../contract/operations.js";
import { type JsonObject, normalizeRecord } from "../../contract/records.js";
import type { Deps } from "../../deps.js";
import { UsageError } from "../../errors.js";
import { listVehicles } from "../../fleet/adapters.js";
import {
  BRAND_PSEUDO_FIELD,
  type CatalogItems,
  type CatalogResolver,
  MODEL_PSEUDO_FIELD,
  prepareWhere,
  type Selection,
} from "../../fleet/where.js";
import { fetchRecord, VEHICLE } from "../../resources/safe-edit.js";

/**
 * Which vehicles a command acts on: ids, or `--where` expressions matched in
 * the client over the listed pages (the contract has no server-side filter),
 * or every vehicle (`--all`). Catalog names in expressions are resolved once,
 * through the catalog service, before any page is matched.
 */
export interface SelectOptions {
  ids?: string[];
  where?: string[];
  all?: boolean;
}

/** True when the options name a selection rather than single ids. */
export function isSelection(opts: SelectOptions): boolean {
  return Boolean(opts.where?.length || opts.all);
}

/** Names in `--where` clauses, resolved with the catalog service: `segment=boats`, `brand=Toyota`. */
export function whereResolver(deps: Deps): CatalogResolver {
  const catalogs = deps.catalogs();
  const known = async (fn: () => Promise<number | undefined>) => {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof UsageError) return undefined;
      throw e;
    }
  };
  return async (field, value) => {
    if (field === MODEL_PSEUDO_FIELD) {
      const { configurationsNamed } = await import("../../catalog/vehicle-model.js");
      const ids = await configurationsNamed(catalogs, value);
      return ids.length ? ids : undefined;
    }
    if (field === BRAND_PSEUDO_FIELD) {
      // A brand stands for every configuration of its models: brand -> models -> configurations.
      const brand = await known(() =>
        catalogs.resolve("catalog.brands", value, { flag: "--where brand", params: { segment_id: DEFAULT_SEGMENT } }),
      );
      if (brand === undefined) return undefined;
      const ids: number[] = [];
      for (const m of await catalogs.items("catalog.models", { brand_id: brand })) {
        const model = itemId(m);
        if (model === undefined) continue;
        for (const e of await catalogs.items("catalog.equipments", { model_id: model })) {
          const id = itemId(e);
          if (id !== undefined) ids.push(id);
        }
      }
      return ids;
    }
    const spec = VEHICLE.fields.find((f) => f.name === field);
    if (!spec?.catalog) return undefined;
    const op = operation(spec.catalog);
    if (
      op.envelope !== "list" ||
      op.params.some((p) => p.required && p.name !== "locale_id" && p.name !== "segment_id")
    )
      return undefined;
    const params = op.params.some((p) => p.name === "segment_id") ? { segment_id: DEFAULT_SEGMENT } : {};
    const id = await known(() => catalogs.resolve(spec.catalog!, value, { flag: `--where ${field}`, params }));
    return id === undefined ? undefined : [id];
  };
}

/** A catalog's items as (id, name): `--where year<2015` compares the years, not their ids. */
export function whereItems(deps: Deps): CatalogItems {
  return async (field) => {
    const spec = VEHICLE.fields.find((f) => f.name === field);
    if (!spec?.catalog) return [];
    const { itemLabel } = await import("../../catalog/items.js");
    return (await deps.catalogs().items(spec.catalog)).flatMap((i) => {
      const id = itemId(i);
      return id === undefined ? [] : [{ id, name: itemLabel(i) }];
    });
  };
}

export async function prepareSelection(deps: Deps, where: readonly string[]): Promise<Selection> {
  return prepareWhere(where, { resolve: whereResolver(deps), items: whereItems(deps) });
}

/** The selected vehicles, page by page (ids: one record each, in the order given). */
export async function* selectedPages(deps: Deps, opts: SelectOptions): AsyncGenerator<JsonObject[]> {
  if (!isSelection(opts)) {
    const { vehicleIds } = await import("./handles.js");
    const ids = await vehicleIds(deps, opts.ids ?? []);
    if (ids.length === 0) {
      throw new UsageError(
        `name the vehicles: give ids or --where FIELD OP VALUE${opts.all !== undefined ? ", or --all" : ""}`,
        {
          hint: "example: --where segment=cars --where price_per_day<40",
        },
      );
    }
    for (const id of ids) yield [normalizeRecord(await fetchRecord(deps, VEHICLE, id), "vehicle")];
    return;
  }
  if (opts.ids?.length) throw new UsageError("give ids or --where/--all, not both");
  const selection = await prepareSelection(deps, opts.where ?? []);
  for await (const page of listVehicles(deps, { warn: (m) => deps.msg.warn(m) })) {
    const hit = page.filter((v) => selection.matches(v));
    if (hit.length) yield hit;
  }
}

/** Every selected vehicle (a bulk change plans over all of them before sending anything). */
export async function selectedVehicles(deps: Deps, opts: SelectOptions): Promise<JsonObject[]> {
  const out: JsonObject[] = [];
  for await (const page of selectedPages(deps, opts)) out.push(...page);
  return out;
}
