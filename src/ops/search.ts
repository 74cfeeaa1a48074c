import { UsageError } from "../base/errors.js";
import { fold } from "../base/nearest.js";
import { FieldNames } from "../catalog/names.js";
import type { JsonObject } from "../contract/records.js";
import type { OpContext } from "./context.js";

/**
 * `--search TEXT` of `vehicle list`, `vehicle export` and `extra list`: a
 * record matches when TEXT is part of what a person reads in it (a vehicle's
 * registration, model name, location, features and benefits; an extra's
 * option name), case-insensitive and with
 * accents folded (`munchen` finds `München`). Names come from the catalog
 * service like the table's (read once per run); with `--ids` too.
 */

export { fold };

const TEXT_FIELDS: Record<"vehicle" | "extra", { plain: string[]; named: string[] }> = {
  vehicle: {
    plain: ["vehicle_reg_number", "pickup_location"],
    // catalog-named (src/contract/vehicle-fields.ts): the model, the additional features and the benefits
    named: ["vehicle_model_id", "vehicle_options_id", "vehicle_benefits_id"],
  },
  extra: { plain: [], named: ["option_id"] },
};

export type SearchFilter = (items: JsonObject[]) => Promise<JsonObject[]>;

export function searchFilter(deps: Pick<OpContext, "catalogs">, kind: "vehicle" | "extra", text: string): SearchFilter {
  const needle = fold(text.trim());
  if (!needle) throw new UsageError("--search: give some text to look for");
  const names = new FieldNames(deps.catalogs());
  const { plain, named } = TEXT_FIELDS[kind];
  return async (items) => {
    const out: JsonObject[] = [];
    for (const item of items) {
      const texts = plain.map((f) => item[f]).filter((v) => typeof v === "string" || typeof v === "number");
      for (const f of named) {
        // one id, or a list of them (features, benefits)
        for (const v of Array.isArray(item[f]) ? (item[f] as unknown[]) : [item[f]]) {
          const id = Number(v);
          if (v !== null && v !== "" && Number.isSafeInteger(id)) texts.push((await names.name(f, id, item)) ?? "");
        }
      }
      if (texts.some((t) => fold(String(t)).includes(needle))) out.push(item);
    }
    return out;
  };
}

/** Pages filtered by `--search`, page by page (a page with no match is skipped). */
export async function* searchPages(
  deps: Pick<OpContext, "catalogs">,
  kind: "vehicle" | "extra",
  text: string,
  pages: AsyncIterable<JsonObject[]>,
): AsyncGenerator<JsonObject[]> {
  const filter = searchFilter(deps, kind, text);
  for await (const page of pages) {
    const hit = await filter(page);
    if (hit.length) yield hit;
  }
}
