import type { EncodableRecord } from "../api/encode.js";
import { walkPages } from "../api/paginate.js";
import { requireUser } from "../context.js";
import { WALK_PAGE_SIZE } from "../contract/operations.js";
import { type JsonObject, normalizeRecord } from "../contract/records.js";
import type { Deps } from "../deps.js";
import { RentctlError } from "../errors.js";

/** Every vehicle of the configured owner, page by page (as `vehicle list --all`). */
export async function* listVehicles(deps: Deps, warn?: (m: string) => void): AsyncGenerator<JsonObject[]> {
  const client = await deps.client();
  const params: EncodableRecord = { user_id: await requireUser(deps), locale_id: await deps.locale() };
  const fetchPage = async (offset: number, limit: number) => {
    const r = await client.call("vehicles.list", { ...params, limit, offset });
    if (r.decoded.kind !== "paginated") throw new RentctlError("vehicles.list did not answer with a page");
    return { ...r.decoded.page, items: r.decoded.page.items.map((i) => normalizeRecord(i, "vehicle")) };
  };
  for await (const { items } of walkPages(fetchPage, { limit: WALK_PAGE_SIZE, kind: "vehicle", warn })) yield items;
}

/** The ids of the owner's vehicles with this identity (registration number), looked up page by page. */
export async function findByIdentity(deps: Deps, values: Record<string, unknown>): Promise<number[]> {
  const { IdentityIndex, identityOf } = await import("../contract/identity.js");
  const identity = identityOf(values);
  if (!identity) return [];
  for await (const page of listVehicles(deps)) {
    const index = new IdentityIndex<number>();
    for (const v of page) {
      const vi = identityOf(v);
      if (vi) index.add(vi, Number(v.id));
    }
    const found = index.find(identity);
    if (found.length) return found;
  }
  return [];
}
