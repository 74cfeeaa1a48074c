import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { EncodableRecord } from "../../src/api/encode.js";
import { UsageError } from "../../src/base/errors.js";
import { catalogCacheFile, writeCatalogCache } from "../../src/catalog/cache.js";
import { type CatalogSource, Catalogs } from "../../src/catalog/service.js";
import type { JsonObject } from "../../src/contract/records.js";

const LOCALES = [
  { id: 40, name: "English", code: "en" },
  { id: 25, name: "Deutsch", code: "de" },
];
const SEGMENTS: Record<number, JsonObject[]> = {
  40: [
    { id: 1, name: "Cars" },
    { id: 2, name: "Motorcycles" },
    { id: 3, name: "Boats" },
  ],
  25: [
    { id: 1, name: "Autos" },
    { id: 2, name: "Motorräder" },
    { id: 3, name: "Boote" },
  ],
};
const BRANDS: Record<number, JsonObject[]> = {
  1: [
    { id: 1, name: "Toyota" },
    { id: 2, name: "Land Rover" },
    { id: 3, name: "Tesla" },
  ],
  3: [{ id: 40, name: "Bayliner" }],
};

/** A stub client answering from the tables above, recording every call. */
function stub(opts: { locale?: number | string; dataDir?: string; now?: () => number; down?: boolean } = {}) {
  const calls: Array<{ op: string; params: EncodableRecord }> = [];
  let down = opts.down ?? false;
  const src: CatalogSource = {
    client: async () => ({
      call: async (op: string, params: EncodableRecord) => {
        calls.push({ op, params });
        if (down) throw new Error("connect ECONNREFUSED");
        const locale = Number(params.locale_id ?? 40);
        const items =
          op === "catalog.locales"
            ? LOCALES
            : op === "catalog.segments"
              ? (SEGMENTS[locale] ?? SEGMENTS[40]!)
              : op === "catalog.brands"
                ? (BRANDS[Number(params.segment_id ?? 1)] ?? [])
                : [];
        return { decoded: { kind: "list" as const, items, body: { list: items } } };
      },
    }),
    dataDir: opts.dataDir,
    scope: () => "sandbox",
    localeSetting: () => opts.locale ?? 40,
    now: opts.now ?? (() => Date.parse("2026-11-23T00:00:00Z")),
  };
  return { catalogs: new Catalogs(src), calls, setDown: (d: boolean) => (down = d) };
}

const tempData = () => mkdtempSync(join(tmpdir(), "rentctl-catalogs-"));

describe("catalog service", () => {
  it("passes ids through with no request", async () => {
    const { catalogs, calls } = stub();
    expect(await catalogs.resolve("catalog.brands", "7", { flag: "--brand" })).toBe(7);
    expect(await catalogs.resolve("catalog.brands", 8)).toBe(8);
    expect(await catalogs.resolve("catalog.brands", undefined)).toBeUndefined();
    expect(calls).toEqual([]);
  });

  it("resolves a name once per distinct value per process: one request per catalog and parameters", async () => {
    const { catalogs, calls } = stub();
    const r = await Promise.all([
      catalogs.resolve("catalog.brands", "toyota", { flag: "--brand" }),
      catalogs.resolve("catalog.brands", "Toyota", { flag: "--brand" }),
      catalogs.resolve("catalog.brands", "land", { flag: "--brand" }),
    ]);
    expect(r).toEqual([1, 1, 2]);
    expect(calls.map((c) => c.op)).toEqual(["catalog.brands"]);
    expect(await catalogs.resolve("catalog.brands", "bayliner", { params: { segment_id: 3 } })).toBe(40);
    expect(calls.map((c) => c.params)).toEqual([{}, { segment_id: 3 }]);
  });

  it("names the candidates of an ambiguous or unknown name (usage error)", async () => {
    const { catalogs } = stub();
    await expect(catalogs.resolve("catalog.brands", "t", { flag: "--brand" })).rejects.toThrow(
      /--brand: "t" matches 2 brands: 1 Toyota, 3 Tesla/,
    );
    const e = await catalogs.resolve("catalog.brands", "Fiat", { flag: "--brand" }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(UsageError);
    expect((e as UsageError).hint).toMatch(/known: 1 Toyota, 2 Land Rover, 3 Tesla/);
  });

  it("matches names in the chosen locale and in English (both fetched)", async () => {
    const { catalogs, calls } = stub({ locale: "de" });
    expect(await catalogs.locale()).toBe(25);
    expect(await catalogs.resolve("catalog.segments", "motorcycles", { flag: "--segment" })).toBe(2);
    expect(await catalogs.resolve("catalog.segments", "Boote", { flag: "--segment" })).toBe(3);
    expect(calls.map((c) => [c.op, c.params.locale_id])).toEqual([
      ["catalog.locales", undefined],
      ["catalog.segments", 25],
      ["catalog.segments", 40],
    ]);
  });

  it("refuses an unknown locale name, listing the known ones", async () => {
    for (const locale of ["klingon"]) {
      const e = await stub({ locale })
        .catalogs.locale()
        .catch((x: unknown) => x);
      expect(e).toBeInstanceOf(UsageError);
      expect((e as UsageError).message).toMatch(/^--locale: no locale/);
      expect((e as UsageError).hint).toContain("40 English (en), 25 Deutsch (de)");
    }
    // The default needs no request.
    const { catalogs, calls } = stub({ locale: 40 });
    expect(await catalogs.locale()).toBe(40);
    expect(calls).toEqual([]);
  });

  it('an id needs no lookup: --locale 12 (or " 25 ") requests no locale list; the server judges an unknown id', async () => {
    for (const [locale, id] of [
      [12, 12],
      [" 25 ", 25],
      [99, 99],
    ] as const) {
      const { catalogs, calls } = stub({ locale });
      expect(await catalogs.locale()).toBe(id);
      expect(calls).toEqual([]);
    }
  });

  it("keeps catalogs on disk for a day, per scope and parameters, then fetches again", async () => {
    const dataDir = tempData();
    let now = Date.parse("2026-11-23T00:00:00Z");
    const first = stub({ dataDir, now: () => now });
    await first.catalogs.items("catalog.brands", { segment_id: 3 });
    await first.catalogs.items("catalog.brands");
    expect(first.calls).toHaveLength(2);
    expect(readdirSync(join(dataDir, "cache")).sort()).toEqual([
      "catalog-brands.json",
      "catalog-brands.segment_id-3.json",
    ]);
    const file = JSON.parse(readFileSync(catalogCacheFile({ dataDir }, "brands", { segment_id: 3 }), "utf8"));
    expect(file).toMatchObject({ version: 1, catalog: "brands", scope: "sandbox", params: { segment_id: 3 } });

    now += 23 * 3600_000;
    const second = stub({ dataDir, now: () => now });
    expect(await second.catalogs.name("catalog.brands", 40, { segment_id: 3 })).toBe("Bayliner");
    expect(second.calls).toEqual([]);

    now += 2 * 3600_000;
    const third = stub({ dataDir, now: () => now });
    await third.catalogs.items("catalog.brands", { segment_id: 3 });
    expect(third.calls).toHaveLength(1);
  });

  it("name() never throws: undefined when unreachable, a stale cache when there is one", async () => {
    const down = stub({ down: true });
    expect(await down.catalogs.name("catalog.brands", 1)).toBeUndefined();
    expect(await down.catalogs.name("catalog.brands", 2)).toBeUndefined();
    expect(down.calls).toHaveLength(1); // the failure is remembered: one request, not one per row

    const dataDir = tempData();
    let now = Date.parse("2026-11-23T00:00:00Z");
    await stub({ dataDir, now: () => now }).catalogs.items("catalog.brands");
    now += 7 * 24 * 3600_000;
    const later = stub({ dataDir, now: () => now, down: true });
    expect(await later.catalogs.name("catalog.brands", 2)).toBe("Land Rover");
    expect(await later.catalogs.name("catalog.brands", "x")).toBeUndefined();
  });

  it("a name missing from a cached catalog is looked up live once before it is refused", async () => {
    const dataDir = tempData();
    const now = Date.parse("2026-11-23T00:00:00Z");
    writeCatalogCache({ dataDir }, "brands", [{ id: 1, name: "Toyota" }], new Date(now - 3600_000), {
      scope: "sandbox",
    });
    const { catalogs, calls } = stub({ dataDir, now: () => now });
    expect(await catalogs.resolve("catalog.brands", "toyota")).toBe(1);
    expect(calls).toEqual([]);
    expect(await catalogs.resolve("catalog.brands", "tesla")).toBe(3);
    expect(calls).toHaveLength(1);
    await expect(catalogs.resolve("catalog.brands", "fiat")).rejects.toThrow(/no brand named "fiat"/);
    expect(calls).toHaveLength(1);
  });
});
