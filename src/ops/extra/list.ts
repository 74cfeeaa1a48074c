import type { JsonObject } from "../../contract/records.js";
import { listVehicles } from "../../resources/list.js";
import type { OpContext, OpOptions } from "../context.js";
import { type Listing, type ListProgress, type PageInput, pagedListing } from "../listing.js";
import { searchFilter } from "../search.js";

/** What `extra list` takes: a page or every page, optionally a search text (the option's name). */
export interface ExtraListInput extends PageInput {
  search?: string;
  /**
   * Also the vehicles that use each extra (`used_by`: their ids): one walk of
   * every vehicle page, so only when asked (a large account is hundreds of requests).
   */
  usedBy?: boolean;
}

/** The account's extras, page by page (a search walks every page and keeps the matches). */
export async function listExtras(
  ctx: OpContext,
  input: ExtraListInput,
  opts: OpOptions<ListProgress> = {},
): Promise<Listing> {
  const filter = input.search !== undefined ? searchFilter(ctx, "extra", input.search) : undefined;
  const listing = pagedListing(
    ctx,
    { opId: "extras.list", kind: "extra", params: { locale_id: await ctx.locale() }, filter },
    input,
    opts,
  );
  return input.usedBy ? withUsers(ctx, listing) : listing;
}

/** Each extra with `used_by`: the ids of the vehicles whose extras hold it (the fleet walked once, at the first page). */
function withUsers(ctx: OpContext, listing: Listing): Listing {
  let users: Promise<Map<number, number[]>> | undefined;
  const walk = async () => {
    const map = new Map<number, number[]>();
    for await (const page of listVehicles(ctx, { warn: (m) => ctx.msg.warn(m) }))
      for (const v of page)
        for (const e of Array.isArray(v.vehicle_extras) ? v.vehicle_extras : []) {
          const list = map.get(Number(e)) ?? [];
          list.push(Number(v.id));
          map.set(Number(e), list);
        }
    return map;
  };
  async function* pages(): AsyncGenerator<JsonObject[]> {
    for await (const page of listing.pages) {
      users ??= walk();
      const map = await users;
      yield page.map((x) => ({ ...x, used_by: map.get(Number(x.id)) ?? [] }));
    }
  }
  return { pages: pages(), summary: listing.summary };
}
