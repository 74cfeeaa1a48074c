import { describe, expect, it } from "vitest";
import type { Page } from "../../src/api/decode.js";
import { pageFooter, type WalkedPage, walkPages } from "../../src/api/paginate.js";
import type { JsonObject } from "../../src/contract/records.js";

const items = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ id: from + i }));

/** A well-behaved server over `total` vehicles; records every (offset, limit) asked. */
function fakeServer(total: number, opts: { reportTotal?: boolean; perPage?: number } = {}) {
  const calls: Array<[number, number]> = [];
  const fetchPage = async (offset: number, limit: number): Promise<Page> => {
    calls.push([offset, limit]);
    const size = Math.min(limit, opts.perPage ?? limit);
    const count = Math.max(0, Math.min(size, total - offset));
    return {
      items: items(offset + 1, count),
      ...(opts.reportTotal === false ? {} : { total }),
      perPage: size,
    };
  };
  return { calls, fetchPage };
}

async function collect(gen: AsyncGenerator<WalkedPage>): Promise<WalkedPage[]> {
  const out: WalkedPage[] = [];
  for await (const p of gen) out.push(p);
  return out;
}

const ids = (pages: WalkedPage[]) => pages.flatMap((p) => p.items.map((i) => i.id));

describe("walkPages", () => {
  it("with readAhead: the same pages, each offset asked once, the next ones asked before they are needed", async () => {
    for (const total of [0, 5, 10, 25, 40, 95]) {
      const plain = fakeServer(total);
      const expected = await collect(walkPages(plain.fetchPage, { limit: 10, kind: "vehicle" }));
      const srv = fakeServer(total);
      const asked: number[] = [];
      const walk = walkPages(srv.fetchPage, { limit: 10, kind: "vehicle", readAhead: 2 });
      const got: WalkedPage[] = [];
      for await (const p of walk) {
        got.push(p);
        asked.push(srv.calls.length);
      }
      expect(ids(got), `total ${total}`).toEqual(ids(expected));
      expect(got.map((p) => p.offset)).toEqual(expected.map((p) => p.offset));
      const offsets = srv.calls.map(([o]) => o);
      expect(new Set(offsets).size, `total ${total}: no offset twice`).toBe(offsets.length);
      expect(
        offsets.every((o) => o < Math.max(total, 1)),
        `total ${total}: nothing past the end`,
      ).toBe(true);
      // while the first of several pages is used, the next ones are already asked for
      if (total > 20) expect(asked[0]).toBeGreaterThanOrEqual(3);
    }
  });

  it("with readAhead: a server whose pages are smaller than asked is walked page by page (nothing fetched ahead is used)", async () => {
    const srv = fakeServer(25, { perPage: 5 });
    const pages = await collect(walkPages(srv.fetchPage, { limit: 10, kind: "vehicle", readAhead: 3 }));
    expect(ids(pages)).toEqual(items(1, 25).map((i) => i.id));
    expect(srv.calls.map(([o]) => o)).toEqual([0, 5, 10, 15, 20]);
  });

  it("with readAhead: an error of a page fetched ahead is thrown where the walk reaches it", async () => {
    const srv = fakeServer(40);
    const failing = async (offset: number, limit: number): Promise<Page> => {
      if (offset === 20) throw new Error("page 3 lost");
      return srv.fetchPage(offset, limit);
    };
    const got: WalkedPage[] = [];
    await expect(
      (async () => {
        for await (const p of walkPages(failing, { limit: 10, kind: "vehicle", readAhead: 2 })) got.push(p);
      })(),
    ).rejects.toThrow("page 3 lost");
    expect(got.map((p) => p.offset)).toEqual([0, 10]);
  });

  it("walks every page and stops when total is reached (no extra request)", async () => {
    const srv = fakeServer(25);
    const pages = await collect(walkPages(srv.fetchPage, { limit: 10, kind: "vehicle" }));
    expect(ids(pages)).toEqual(items(1, 25).map((i) => i.id));
    expect(srv.calls).toEqual([
      [0, 10],
      [10, 10],
      [20, 10],
    ]);
    expect(pages.map((p) => p.offset)).toEqual([0, 10, 20]);
  });

  it("stops exactly at total when it is a multiple of the page size", async () => {
    const srv = fakeServer(20);
    const pages = await collect(walkPages(srv.fetchPage, { limit: 10, kind: "vehicle" }));
    expect(ids(pages)).toHaveLength(20);
    expect(srv.calls).toHaveLength(2);
  });

  it("stops on a short page when no total is reported", async () => {
    const srv = fakeServer(23, { reportTotal: false });
    const pages = await collect(walkPages(srv.fetchPage, { limit: 10, kind: "vehicle" }));
    expect(ids(pages)).toHaveLength(23);
    expect(srv.calls.map(([o]) => o)).toEqual([0, 10, 20]);
  });

  it("stops on an empty page without yielding it", async () => {
    const srv = fakeServer(20, { reportTotal: false });
    const pages = await collect(walkPages(srv.fetchPage, { limit: 10, kind: "vehicle" }));
    expect(pages).toHaveLength(2);
    expect(srv.calls.map(([o]) => o)).toEqual([0, 10, 20]);
  });

  it("an empty first page yields nothing and warns nothing", async () => {
    const warnings: string[] = [];
    const pages = await collect(
      walkPages(async () => ({ items: [], total: 0 }), { limit: 10, kind: "extra", warn: (m) => warnings.push(m) }),
    );
    expect(pages).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it("follows a server that caps the page size below the asked limit (per_page read back)", async () => {
    const srv = fakeServer(12, { perPage: 5, reportTotal: false });
    const pages = await collect(walkPages(srv.fetchPage, { limit: 100, kind: "vehicle" }));
    expect(ids(pages)).toHaveLength(12);
    expect(srv.calls.map(([o]) => o)).toEqual([0, 5, 10]);
  });

  it("starts at the given offset", async () => {
    const srv = fakeServer(30);
    const pages = await collect(walkPages(srv.fetchPage, { limit: 10, offset: 15, kind: "vehicle" }));
    expect(ids(pages)[0]).toBe(16);
    expect(ids(pages)).toHaveLength(15);
  });

  it("a server that ignores offset: no duplicates, one warning, the walk ends", async () => {
    let calls = 0;
    const warnings: string[] = [];
    const pages = await collect(
      walkPages(
        async () => {
          calls++;
          return { items: items(1, 10), total: 1000 };
        },
        { limit: 10, kind: "vehicle", warn: (m) => warnings.push(m) },
      ),
    );
    expect(ids(pages)).toEqual(items(1, 10).map((i) => i.id));
    expect(calls).toBe(2);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/ignore offset/);
  });

  it("a partly overlapping page yields only the new items", async () => {
    const responses = [items(1, 10), items(6, 10), items(11, 3)];
    let n = 0;
    const pages = await collect(
      walkPages(async () => ({ items: responses[n++] ?? [] }), { limit: 10, kind: "vehicle" }),
    );
    expect(ids(pages)).toEqual(items(1, 15).map((i) => i.id));
    expect(new Set(ids(pages)).size).toBe(ids(pages).length);
  });

  it("recognises extras by extra_id and items without ids by content", async () => {
    const warnings: string[] = [];
    const pages = await collect(
      walkPages(async () => ({ items: [{ extra_id: 1 }, { extra_id: "2" }, { name: "no id" }] as JsonObject[] }), {
        limit: 3,
        kind: "extra",
        warn: (m) => warnings.push(m),
      }),
    );
    expect(pages.flatMap((p) => p.items)).toEqual([{ extra_id: 1 }, { extra_id: "2" }, { name: "no id" }]);
    expect(warnings).toHaveLength(1);
  });

  it("never loops forever: maxPages bounds a server that always sends new full pages", async () => {
    let n = 0;
    const warnings: string[] = [];
    const pages = await collect(
      walkPages(async () => ({ items: items(n++ * 10 + 1, 10), total: 1e9 }), {
        limit: 10,
        kind: "vehicle",
        maxPages: 4,
        warn: (m) => warnings.push(m),
      }),
    );
    expect(pages).toHaveLength(4);
    expect(n).toBe(4);
    expect(warnings).toEqual(["stopped after 4 pages"]);
  });

  it("is lazy: pages are fetched only as the consumer asks", async () => {
    const srv = fakeServer(100);
    const gen = walkPages(srv.fetchPage, { limit: 10, kind: "vehicle" });
    await gen.next();
    expect(srv.calls).toHaveLength(1);
    await gen.return(undefined);
    expect(srv.calls).toHaveLength(1);
  });
});

describe("pageFooter", () => {
  it("page N of M · shown of total", () => {
    const page: Page = { items: [], total: 98, perPage: 15, currentPage: 2, lastPage: 7 };
    expect(pageFooter(page, 15, 15, "vehicles")).toBe("page 2 of 7 · 15 of 98 vehicles");
  });

  it("derives the page number from offset and page size when current_page is missing or 0", () => {
    expect(pageFooter({ items: [], total: 98, perPage: 15, lastPage: 7 }, 30, 15, "vehicles")).toBe(
      "page 3 of 7 · 15 of 98 vehicles",
    );
    expect(pageFooter({ items: [], total: 98, limit: 15, currentPage: 0, lastPage: 7 }, 90, 8, "vehicles")).toBe(
      "page 7 of 7 · 8 of 98 vehicles",
    );
  });

  it("without last_page or total it says less", () => {
    expect(pageFooter({ items: [], perPage: 10 }, 0, 4, "extras")).toBe("page 1 · 4 extras");
    expect(pageFooter({ items: [], perPage: 10, total: 4 }, 0, 4, "extras")).toBe("page 1 · 4 of 4 extras");
  });

  it("an empty account reads page 0 of 0", () => {
    expect(pageFooter({ items: [], total: 0, perPage: 15, currentPage: 1, lastPage: 0 }, 0, 0, "vehicles")).toBe(
      "page 0 of 0 · 0 of 0 vehicles",
    );
  });
});
