import type { EncodableRecord } from "../api/encode.js";
import { listAllExtras } from "../api/extras-list.js";
import { walkPages } from "../api/paginate.js";
import { requireUser } from "../config/target.js";
import { IdentityIndex, identityOf } from "../contract/identity.js";
import { WALK_PAGE_SIZE } from "../contract/operations.js";
import { type JsonObject, normalizeRecord, recordId } from "../contract/records.js";
import type { CoreDeps, Deps } from "../deps.js";

/** What a listing reads with: the client, the owner and the locale. */
export type ListDeps = Pick<Deps, "client" | "target" | "locale">;

import { RentctlError } from "../base/errors.js";

/** Pages a whole-account walk requests ahead (the server prepares one while the client reads another). */
const LIST_READ_AHEAD = 2;

export interface ListOptions {
  /** Told when the walk stops early (a server that repeats itself). */
  warn?: (m: string) => void;
  /** Pages requested ahead (default 2; 0 for a walk that usually stops early). */
  readAhead?: number;
  /**
   * The records as the server sent them, not normalized (`id` first): for a
   * walk that reads only a few members (import's identities), a copy of every
   * record less. Read the id with recordId.
   */
  raw?: boolean;
  /** A listing the command makes on the way (a registration number resolved to its id): not its result, so --raw does not print it. */
  lookup?: boolean;
}

/** Every vehicle of the configured owner, page by page (as `vehicle list --all`). */
export async function* listVehicles(deps: ListDeps, opts: ListOptions = {}): AsyncGenerator<JsonObject[]> {
  const client = await deps.client();
  const params: EncodableRecord = { user_id: await requireUser(deps), locale_id: await deps.locale() };
  const fetchPage = async (offset: number, limit: number) => {
    const r = await client.call("vehicles.list", { ...params, limit, offset }, { lookup: opts.lookup });
    if (r.decoded.kind !== "paginated") throw new RentctlError("vehicles.list did not answer with a page");
    const page = r.decoded.page;
    return opts.raw ? page : { ...page, items: page.items.map((i) => normalizeRecord(i, "vehicle")) };
  };
  const walk = walkPages(fetchPage, {
    limit: WALK_PAGE_SIZE,
    kind: "vehicle",
    warn: opts.warn,
    readAhead: opts.readAhead ?? LIST_READ_AHEAD,
  });
  for await (const { items } of walk) yield items;
}

/** The ids of the owner's vehicles with this identity (registration number), looked up page by page. */
export async function findByIdentity(deps: CoreDeps, values: Record<string, unknown>): Promise<number[]> {
  const identity = identityOf(values);
  if (!identity) return [];
  // page by page, nothing ahead: the walk usually stops early
  for await (const page of listVehicles(deps, { readAhead: 0, lookup: true })) {
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

/** Items consecutive pages of a checked walk share (see scanVehicles). */
export const SCAN_OVERLAP = 10;

/** Pages of a checked walk requested ahead (the overlap check does not depend on the order they are answered in). */
const SCAN_READ_AHEAD = 3;

/**
 * Every vehicle of the owner (as the server sent it), read so that a vehicle
 * present through the whole walk is never missed, even while other processes
 * remove vehicles (offset paging shifts under removals): consecutive pages
 * overlap by SCAN_OVERLAP items, and a page that shares none of the previous
 * page's items means the listing moved by more than that between the two
 * requests (in either order: pages are requested ahead). The walk then
 * answers false (`visit` may have seen part of the account): the caller
 * starts it again. Assumes what offset paging assumes: the server lists
 * vehicles in a stable order.
 */
export async function scanVehicles(deps: CoreDeps, visit: (vehicle: JsonObject) => void): Promise<boolean> {
  const client = await deps.client();
  const params: EncodableRecord = { user_id: await requireUser(deps), locale_id: await deps.locale() };
  const fetchAt = async (offset: number) => {
    const r = await client.call("vehicles.list", { ...params, limit: WALK_PAGE_SIZE, offset });
    if (r.decoded.kind !== "paginated") throw new RentctlError("vehicles.list did not answer with a page");
    return r.decoded.page;
  };
  const ahead = new Map<number, ReturnType<typeof fetchAt>>();
  const seen = new Set<number | string>();
  let before: Set<number | string> | undefined;
  let offset = 0;
  try {
    for (;;) {
      const page = await (ahead.get(offset) ?? fetchAt(offset));
      ahead.delete(offset);
      const ids = page.items.map((v) => recordId(v, "vehicle") ?? JSON.stringify(v));
      if (before && !ids.some((id) => before!.has(id))) return false;
      let fresh = 0;
      page.items.forEach((v, i) => {
        if (seen.has(ids[i]!)) return;
        seen.add(ids[i]!);
        fresh++;
        visit(v);
      });
      const full = Math.min(WALK_PAGE_SIZE, page.perPage ?? page.limit ?? WALK_PAGE_SIZE);
      // the end; or a server that ignores offset (a full page of vehicles already seen)
      if (page.items.length < full || page.items.length === 0 || (before && fresh === 0)) return true;
      const step = page.items.length - Math.min(SCAN_OVERLAP, Math.floor(page.items.length / 2));
      offset += step;
      before = new Set(ids);
      // the next pages, where full pages will land, while this one is used (only within the total, if known)
      for (let k = 0, at = offset; k < SCAN_READ_AHEAD; k++, at += step)
        if (!ahead.has(at) && (page.total === undefined || at < page.total)) {
          const p = fetchAt(at);
          p.catch(() => {}); // thrown where the walk reaches it
          ahead.set(at, p);
        }
    }
  } finally {
    ahead.clear();
  }
}

/** Every extra of the account (as `extra list --all`), normalized (`id` first). */
export async function listExtras(deps: ListDeps, opts: ListOptions = {}): Promise<JsonObject[]> {
  return listAllExtras(await deps.client(), await deps.locale(), { warn: opts.warn });
}

/** The owner's vehicles whose `vehicle_extras` hold this extra id (one walk of the account). */
export async function vehiclesUsingExtra(deps: ListDeps, extraId: number): Promise<Array<{ id: number; reg: string }>> {
  const out: Array<{ id: number; reg: string }> = [];
  for await (const page of listVehicles(deps))
    for (const v of page) {
      const ids = Array.isArray(v.vehicle_extras) ? v.vehicle_extras.map(Number) : [];
      if (ids.includes(extraId)) out.push({ id: Number(v.id), reg: String(v.vehicle_reg_number ?? "").trim() });
    }
  return out;
}
