import type { JsonObject } from "../contract/records.js";
import { EXTRA_SECTIONS, VEHICLE_SECTIONS } from "../contract/sections.js";
import type { Deps } from "../deps.js";
import type { CardSection } from "../output/card.js";

/** `vehicle get` / `extra get`: one record as a card (its id with -q); `more`: sections after the record's (table only). */
export async function printRecord(
  deps: Deps,
  noun: "vehicle" | "extra",
  id: number,
  record: JsonObject,
  more?: CardSection[],
): Promise<void> {
  if (deps.flags.quiet) return deps.out.ids([id]);
  const vehicle = noun === "vehicle";
  await deps.out.card(
    record,
    vehicle ? VEHICLE_SECTIONS : EXTRA_SECTIONS,
    vehicle ? "vehicle_currency_id" : "currency_id",
    more,
  );
}
