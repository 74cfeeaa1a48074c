import { NotFoundError } from "../../api/errors.js";
import type { Deps } from "../../deps.js";
import { UsageError } from "../../errors.js";
import { parseId } from "../ids.js";

/**
 * The handles a person uses for a vehicle, wherever a vehicle id is taken
 * (`vehicle get|edit|remove|activate|deactivate|calendar`): an id, or a
 * registration number, resolved through the one identity rule of import and
 * diff (src/contract/identity.ts: trimmed, case-insensitive, any country).
 *
 * One rule decides what a handle is: digits alone are an id; anything else is
 * a registration number. A registration number of digits alone is written
 * `reg:12345`; `id:42` is accepted too. An unknown registration is exit 5;
 * one that matches several vehicles is exit 2, listing their ids.
 */
export async function vehicleIds(deps: Deps, raws: readonly string[]): Promise<number[]> {
  const ids: Array<number | undefined> = [];
  const wanted: Array<{ at: number; reg: string }> = [];
  for (const raw of raws) {
    const t = raw.trim();
    if (/^(id:)?\s*\d+$/i.test(t)) ids.push(parseId(t.replace(/^id:\s*/i, ""), "vehicle"));
    else {
      const reg = t.replace(/^reg:\s*/i, "");
      if (!reg) throw new UsageError(`vehicle ${JSON.stringify(raw)}: give an id or a registration number`);
      wanted.push({ at: ids.length, reg });
      ids.push(undefined);
    }
  }
  if (wanted.length === 0) return unique(ids as number[]);
  const [{ IdentityIndex, identityOf }, { listVehicles }, { recordId }] = await Promise.all([
    import("../../contract/identity.js"),
    import("../../resources/list.js"),
    import("../../contract/records.js"),
  ]);
  const index = new IdentityIndex<number>();
  for (const [i, w] of wanted.entries()) {
    // invisible characters alone (a zero-width space) name no registration number
    const identity = identityOf({ vehicle_reg_number: w.reg });
    if (!identity) throw new UsageError(`vehicle ${JSON.stringify(w.reg)}: give an id or a registration number`);
    index.add(identity, i);
  }
  const found = wanted.map(() => [] as number[]);
  // One listing for all of them, read to the end (a second vehicle of a registration makes it ambiguous).
  for await (const page of listVehicles(deps, { raw: true, lookup: true, warn: (m) => deps.msg.warn(m) }))
    for (const v of page) {
      const identity = identityOf(v as Record<string, unknown>);
      if (!identity) continue;
      const id = recordId(v, "vehicle");
      if (id !== undefined) for (const i of index.find(identity)) found[i]!.push(id);
    }
  wanted.forEach((w, i) => {
    const hits = found[i]!;
    if (hits.length === 0) {
      const e = new NotFoundError(`no vehicle with registration number ${JSON.stringify(w.reg)}`);
      e.hint =
        "check it with `rentctl vehicle list`; an id is a whole number, and a registration of digits only is written reg:4711";
      throw e;
    }
    if (hits.length > 1)
      throw new UsageError(
        `registration number ${JSON.stringify(w.reg)} matches ${hits.length} vehicles (${hits.join(", ")}); nothing was sent`,
        { hint: "give the id of the one you mean" },
      );
    ids[w.at] = hits[0];
  });
  return unique(ids as number[]);
}

/** The same vehicle named twice (`1 "B-SC 1001"`) is one vehicle: changed, counted and undone once. */
function unique(ids: number[]): number[] {
  return [...new Set(ids)];
}
