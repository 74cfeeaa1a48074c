import { UsageError } from "../../base/errors.js";
import { itemId, itemLabel } from "../../catalog/items.js";
import { configurationsNamed } from "../../catalog/vehicle-model.js";
import { DEFAULT_SEGMENT, operation } from "../../contract/operations.js";
import type { JsonObject } from "../../contract/records.js";
import { normalizeRecord } from "../../contract/records.js";
import {
  BRAND_PSEUDO_FIELD,
  type CatalogItems,
  type CatalogResolver,
  MODEL_PSEUDO_FIELD,
  prepareWhere,
  type Selection,
  type SelectionTerms,
} from "../../plans/where.js";
import { listVehicles } from "../../resources/list.js";
import { fetchRecord, VEHICLE } from "../../resources/safe-edit.js";
import type { OpContext } from "../context.js";

/**
 * A `where` selection of vehicles: FIELD OP VALUE expressions matched in the
 * client over the listed pages (the contract has no server-side filter).
 * Catalog names in expressions are resolved once, through the catalog
 * service, before any page is matched.
 */

type SelectContext = Pick<OpContext, "catalogs" | "client" | "target" | "locale" | "msg">;

/** Names in `--where` clauses, resolved with the catalog service: `segment=boats`, `brand=Toyota`. */
export function whereResolver(deps: Pick<OpContext, "catalogs">): CatalogResolver {
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
export function whereItems(deps: Pick<OpContext, "catalogs">): CatalogItems {
  return async (field) => {
    const spec = VEHICLE.fields.find((f) => f.name === field);
    if (!spec?.catalog) return [];
    return (await deps.catalogs().items(spec.catalog)).flatMap((i) => {
      const id = itemId(i);
      return id === undefined ? [] : [{ id, name: itemLabel(i) }];
    });
  };
}

export async function prepareSelection(
  deps: Pick<OpContext, "catalogs">,
  where: readonly string[],
  terms?: SelectionTerms,
): Promise<Selection> {
  return prepareWhere(where, { resolve: whereResolver(deps), items: whereItems(deps), terms });
}

/** The vehicles a `where` selection keeps, page by page (a page with no match is skipped). */
export async function* wherePages(
  ctx: SelectContext,
  where: readonly string[],
  terms?: SelectionTerms,
): AsyncGenerator<JsonObject[]> {
  const selection = await prepareSelection(ctx, where, terms);
  for await (const page of listVehicles(ctx, { warn: (m) => ctx.msg.warn(m) })) {
    const hit = page.filter((v) => selection.matches(v));
    if (hit.length) yield hit;
  }
}

/** Which vehicles an op acts on: ids (each read, in the order given), a `where` selection, or every vehicle (`all`). */
export interface VehicleSelection {
  ids?: readonly number[];
  where?: readonly string[];
  all?: boolean;
  /** How refusals name the selection's parts (the front end's words). */
  terms?: SelectionTerms;
}

/** True when the selection is `where` / `all` rather than ids. */
export function isWhereSelection(sel: VehicleSelection): boolean {
  return Boolean(sel.where?.length || sel.all);
}

/** The selected vehicles, page by page (ids: one record each, in the order given). */
export async function* selectionPages(ctx: SelectContext, sel: VehicleSelection): AsyncGenerator<JsonObject[]> {
  if (!isWhereSelection(sel)) {
    if (!sel.ids?.length) throw new UsageError("name the vehicles: give ids or a where selection");
    for (const id of sel.ids) yield [normalizeRecord(await fetchRecord(ctx, VEHICLE, id), "vehicle")];
    return;
  }
  if (sel.ids?.length) throw new UsageError("give ids or a where selection, not both");
  yield* wherePages(ctx, sel.where ?? [], sel.terms);
}

/** Every selected vehicle (a change of many plans over all of them before sending anything). */
export async function selectVehicles(ctx: SelectContext, sel: VehicleSelection): Promise<JsonObject[]> {
  const out: JsonObject[] = [];
  for await (const page of selectionPages(ctx, sel)) out.push(...page);
  return out;
}
