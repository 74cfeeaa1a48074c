import { RentctlError } from "../base/errors.js";
import { WALK_PAGE_SIZE } from "../contract/operations.js";
import { type JsonObject, normalizeRecord } from "../contract/records.js";
import type { ApiClient } from "./client.js";
import { walkPages } from "./paginate.js";

/**
 * The one listing of the account's extras (`extra list --all`, the names of `vehicle_extras` in a
 * table, the library's `extras.list`, account files): every page of `extras.list`, normalized
 * (`id` first), with the parameters the contract declares for it (the locale; no owner).
 */
export async function listAllExtras(
  client: ApiClient,
  localeId: number,
  opts: { warn?: (m: string) => void } = {},
): Promise<JsonObject[]> {
  const fetchPage = async (offset: number, limit: number) => {
    const r = await client.call("extras.list", { locale_id: localeId, limit, offset });
    if (r.decoded.kind !== "paginated") throw new RentctlError("extras.list did not answer with a page");
    const page = r.decoded.page;
    return { ...page, items: page.items.map((i) => normalizeRecord(i, "extra")) };
  };
  const out: JsonObject[] = [];
  for await (const { items } of walkPages(fetchPage, { limit: WALK_PAGE_SIZE, kind: "extra", warn: opts.warn }))
    out.push(...items);
  return out;
}
