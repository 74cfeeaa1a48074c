import type { Deps } from "../deps.js";
import type { CardSection } from "../output/card.js";
import { fetchRecord, type Resource } from "../resources/safe-edit.js";

/** `vehicle get` / `extra get`: one record (its id with -q). `more`: sections the card shows after the record's (read once the record is found; table format only). */
export async function showRecord(
  deps: Deps,
  res: Resource,
  rawId: string,
  more?: (id: number) => Promise<CardSection[]>,
): Promise<void> {
  const { parseId } = await import("./ids.js");
  const id = parseId(rawId, res.noun);
  const record = await fetchRecord(deps, res, id);
  if (deps.flags.quiet) return deps.out.ids([id]);
  const { EXTRA_SECTIONS, VEHICLE_SECTIONS } = await import("../contract/sections.js");
  const vehicle = res.noun === "vehicle";
  await deps.out.card(
    record,
    vehicle ? VEHICLE_SECTIONS : EXTRA_SECTIONS,
    vehicle ? "vehicle_currency_id" : "currency_id",
    more ? await more(id) : undefined,
  );
}
