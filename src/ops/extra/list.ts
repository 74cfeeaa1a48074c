import type { OpContext, OpOptions } from "../context.js";
import { type Listing, type ListProgress, type PageInput, pagedListing } from "../listing.js";
import { searchFilter } from "../search.js";

/** What `extra list` takes: a page or every page, optionally a search text (the option's name). */
export interface ExtraListInput extends PageInput {
  search?: string;
}

/** The account's extras, page by page (a search walks every page and keeps the matches). */
export async function listExtras(
  ctx: OpContext,
  input: ExtraListInput,
  opts: OpOptions<ListProgress> = {},
): Promise<Listing> {
  const filter = input.search !== undefined ? searchFilter(ctx, "extra", input.search) : undefined;
  return pagedListing(
    ctx,
    { opId: "extras.list", kind: "extra", params: { locale_id: await ctx.locale() }, filter },
    input,
    opts,
  );
}
