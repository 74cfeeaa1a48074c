import { describe, expect, it } from "vitest";
import type { Deps } from "../../src/deps.js";
import { SCAN_OVERLAP, scanVehicles } from "../../src/resources/list.js";

/**
 * The identity check's listing (src/resources/list.ts scanVehicles): offset
 * paging skips vehicles when another process removes some meanwhile. Pages
 * overlap, and a page sharing nothing with the one before says the listing
 * moved: the walk answers false, and a walk again sees everything.
 */

/** A fake server listing `account` (ids in order); `onPage` runs before each page is answered. */
function fakeDeps(account: number[], onPage: (offset: number) => void = () => {}): Deps {
  const call = async (_op: string, p: { limit: number; offset: number }) => {
    onPage(p.offset);
    const items = account.slice(p.offset, p.offset + p.limit).map((id) => ({ vehicle_id: id }));
    return { decoded: { kind: "paginated", page: { items, total: account.length, perPage: p.limit, limit: p.limit } } };
  };
  return {
    client: async () => ({ call }),
    target: async () => ({ userId: 1003 }),
    locale: async () => 40,
  } as unknown as Deps;
}

const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe("scanVehicles", () => {
  it("a quiet account: every vehicle once, in one walk", async () => {
    const seen: number[] = [];
    expect(await scanVehicles(fakeDeps(ids(1000)), (v) => seen.push(Number(v.vehicle_id)))).toBe(true);
    expect(seen).toEqual(ids(1000));
  });

  it("more removals before the walk's position than the overlap: the walk says so (false) instead of skipping vehicles", async () => {
    const account = ids(500);
    let removed = false;
    const deps = fakeDeps(account, (offset) => {
      // another run removes 30 vehicles from the first page once the walk is past it
      if (offset > 0 && !removed) {
        removed = true;
        account.splice(5, SCAN_OVERLAP * 3);
      }
    });
    const seen = new Set<number>();
    expect(await scanVehicles(deps, (v) => seen.add(Number(v.vehicle_id)))).toBe(false);
    // a walk again, the account quiet now: every vehicle still there is seen
    const again = new Set<number>();
    expect(await scanVehicles(deps, (v) => again.add(Number(v.vehicle_id)))).toBe(true);
    expect([...again].sort((a, b) => a - b)).toEqual(account);
  });

  it("fewer removals than the overlap: nothing is skipped, and the walk is trusted", async () => {
    const account = ids(500);
    let removed = false;
    const deps = fakeDeps(account, (offset) => {
      if (offset > 0 && !removed) {
        removed = true;
        account.splice(5, SCAN_OVERLAP - 3);
      }
    });
    const seen = new Set<number>();
    expect(await scanVehicles(deps, (v) => seen.add(Number(v.vehicle_id)))).toBe(true);
    for (const id of account) expect(seen.has(id), `vehicle ${id}`).toBe(true);
  });
});
