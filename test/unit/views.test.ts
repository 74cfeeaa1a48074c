import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { EncodableRecord } from "../../src/api/encode.js";
import { FieldNames } from "../../src/catalog/names.js";
import { type CatalogSource, Catalogs } from "../../src/catalog/service.js";
import type { JsonObject } from "../../src/contract/records.js";
import { makeChalk } from "../../src/output/color.js";
import { namedCells } from "../../src/output/render.js";
import { fitWidths, renderTable, tableStream } from "../../src/output/table.js";
import { terminalWidth } from "../../src/output/terminal.js";
import { textWidth, truncate } from "../../src/output/width.js";

const CATALOGS: Record<string, (p: EncodableRecord) => JsonObject[]> = {
  "catalog.brands": (p) =>
    Number(p.segment_id ?? 1) === 1
      ? [
          { id: 1, name: "Toyota" },
          { id: 2, name: "Tesla" },
        ]
      : [{ id: 9, name: "Honda" }],
  "catalog.models": (p) =>
    ({
      1: [{ id: 101, name: "Corolla" }],
      2: [{ id: 102, name: "Model 3" }],
      9: [{ id: 109, name: "CB500F" }],
    })[Number(p.brand_id)] ?? [],
  "catalog.equipments": (p) =>
    ({
      101: [
        { id: 1003, name: "1.8 Hybrid Comfort" },
        { id: 1004, name: "2.0 GR Sport" },
      ],
      102: [{ id: 1021, name: "RWD" }],
      109: [{ id: 2001, name: "ABS" }],
    })[Number(p.model_id)] ?? [],
  "catalog.classes_or_types": (p) =>
    Number(p.segment_id) === 2 ? [{ id: 2, name: "Naked" }] : [{ id: 2, name: "Compact" }],
  "catalog.currencies": () => [{ id: 1, name: "Euro", code: "EUR" }],
  "catalog.benefits": () => [
    { id: 1, name: "Free cancellation" },
    { id: 4, name: "24/7 roadside assistance" },
  ],
  "catalog.extra_options": () => [{ id: 4, name: "Additional driver" }],
  "catalog.years_of_issue": () => [{ id: 16, year: 2023 }],
};

function stub(dataDir?: string) {
  const calls: string[] = [];
  const src: CatalogSource = {
    client: async () => ({
      call: async (op: string, params: EncodableRecord) => {
        calls.push(`${op} ${JSON.stringify(params)}`);
        const items = CATALOGS[op]?.(params) ?? [];
        return { decoded: { kind: "list" as const, items, body: { list: items } } };
      },
    }),
    dataDir,
    scope: () => "sandbox",
    localeSetting: () => 40,
    now: () => Date.parse("2026-11-23T00:00:00Z"),
  };
  return { catalogs: new Catalogs(src), calls };
}

describe("names for ids", () => {
  it("a configuration reads Brand Model (configuration), per segment, from one walk of the catalogs", async () => {
    const { catalogs, calls } = stub();
    const names = new FieldNames(catalogs);
    expect(await names.name("vehicle_model_id", 1003, {})).toBe("Toyota Corolla (1.8 Hybrid Comfort)");
    expect(await names.name("vehicle_model_id", 1021, {})).toBe("Tesla Model 3 (RWD)");
    expect(await names.name("vehicle_model_id", 2001, { vehicle_segment_id: 2 })).toBe("Honda CB500F (ABS)");
    expect(await names.name("vehicle_model_id", 9999, {})).toBeUndefined();
    // each catalog and parameters once: brands of 2 segments, 3 models lists, 3 equipments lists
    expect(calls.filter((c) => c.startsWith("catalog.brands"))).toHaveLength(2);
    expect(calls.filter((c) => c.startsWith("catalog.equipments"))).toHaveLength(3);
    expect(new Set(calls).size).toBe(calls.length);
  });

  it("the reverse index is kept in the data dir: the next run makes no request for it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rentctl-views-"));
    const first = stub(dir);
    expect(await new FieldNames(first.catalogs).name("vehicle_model_id", 1004, {})).toBe(
      "Toyota Corolla (2.0 GR Sport)",
    );
    expect(readdirSync(join(dir, "cache"))).toContain("model-index.segment_id-1.locale_id-40.json");
    const second = stub(dir);
    expect(await new FieldNames(second.catalogs).name("vehicle_model_id", 1003, {})).toBe(
      "Toyota Corolla (1.8 Hybrid Comfort)",
    );
    expect(second.calls).toEqual([]);
  });

  it("a configuration added after the index was kept: an index older than an hour is walked again, once", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rentctl-views-"));
    let now = Date.parse("2026-11-23T00:00:00Z");
    let added = false;
    const run = () => {
      const calls: string[] = [];
      const src: CatalogSource = {
        client: async () => ({
          call: async (op: string, params: EncodableRecord) => {
            calls.push(op);
            let items = CATALOGS[op]?.(params) ?? [];
            if (added && op === "catalog.equipments" && Number(params.model_id) === 101)
              items = [...items, { id: 1005, name: "1.8 Hybrid Club" }];
            return { decoded: { kind: "list" as const, items, body: { list: items } } };
          },
        }),
        dataDir: dir,
        scope: () => "sandbox",
        localeSetting: () => 40,
        now: () => now,
      };
      return { names: new FieldNames(new Catalogs(src)), calls };
    };
    expect(await run().names.name("vehicle_model_id", 1003, {})).toBe("Toyota Corolla (1.8 Hybrid Comfort)");
    added = true; // the marketplace adds a configuration

    // within the hour: the kept index answers, an unknown id stays unknown, no request
    now += 30 * 60_000;
    const soon = run();
    expect(await soon.names.name("vehicle_model_id", 1005, {})).toBeUndefined();
    expect(soon.calls).toEqual([]);

    // later: the miss walks the catalogs again (past their disk cache), once; the new one is named
    now += 60 * 60_000;
    const later = run();
    expect(await later.names.name("vehicle_model_id", 1005, {})).toBe("Toyota Corolla (1.8 Hybrid Club)");
    expect(await later.names.name("vehicle_model_id", 9999, {})).toBeUndefined();
    expect(later.calls.filter((c) => c === "catalog.brands")).toHaveLength(1);

    // and the walked index is kept: the next run names it with no request
    const next = run();
    expect(await next.names.name("vehicle_model_id", 1005, {})).toBe("Toyota Corolla (1.8 Hybrid Club)");
    expect(next.calls).toEqual([]);
  });

  it("class per the record's segment, currency by code, a year, extras by option name", async () => {
    const { catalogs } = stub();
    const names = new FieldNames(catalogs, async () => [{ id: 7, option_id: 4 }]);
    expect(await names.name("vehicle_class_id", 2, { vehicle_segment_id: 1 })).toBe("Compact");
    expect(await names.name("vehicle_class_id", 2, { vehicle_segment_id: 2 })).toBe("Naked");
    expect(await names.name("vehicle_currency_id", 1, {})).toBe("EUR");
    expect(await names.name("vehicle_year_of_issue_id", 16, {})).toBe("2023");
    expect(await names.name("vehicle_extras", 7, {})).toBe("Additional driver");
    expect(await names.name("option_id", 4, {})).toBe("Additional driver");
    expect(names.names("period")).toBe(false);
    expect(names.names("pickup_location")).toBe(false);
  });

  it("table cells: names, several for an array, #id when unknown, never a failure", async () => {
    const { catalogs } = stub();
    const cells = namedCells(new FieldNames(catalogs));
    const [row] = await cells(
      [
        {
          id: 1,
          vehicle_model_id: 1003,
          vehicle_benefits_id: [1, 4, 99],
          vehicle_class_id: 77,
          price_per_day: 45,
          vehicle_currency_id: 1,
          vehicle_activity: 0,
        },
      ],
      [
        { key: "vehicle_model_id" },
        { key: "vehicle_benefits_id" },
        { key: "vehicle_class_id" },
        { key: "price_per_day", display: "money", currencyKey: "vehicle_currency_id" },
        { key: "vehicle_activity", display: "yesno" },
      ],
    );
    expect(row).toMatchObject({
      vehicle_model_id: "Toyota Corolla (1.8 Hybrid Comfort)",
      vehicle_benefits_id: "Free cancellation, 24/7 roadside assistance, #99",
      vehicle_class_id: "#77",
      price_per_day: "45 EUR",
      vehicle_activity: "no",
    });
  });

  it("catalogs unreachable: ids stay (#id), the table still prints", async () => {
    const src: CatalogSource = {
      client: async () => ({
        call: async () => {
          throw new Error("connect ECONNREFUSED");
        },
      }),
      scope: () => "sandbox",
      localeSetting: () => 40,
      now: () => 0,
    };
    const cells = namedCells(new FieldNames(new Catalogs(src)));
    const [row] = await cells([{ vehicle_model_id: 1003 }], [{ key: "vehicle_model_id" }]);
    expect(row!.vehicle_model_id).toBe("#1003");
  });
});

describe("tables that fit the terminal", () => {
  const color = makeChalk(false);
  const columns = [
    { key: "id", header: "ID" },
    { key: "model", header: "MODEL", text: true },
    { key: "location", header: "LOCATION", text: true },
  ];
  const items = [
    { id: 1, model: "Toyota Corolla (1.8 Hybrid Comfort)", location: "Berlin, Alexanderplatz 1" },
    { id: 2, model: "Tesla Model 3 (RWD)", location: "東京都渋谷区道玄坂二丁目 1-1" },
    { id: 3, model: "Fiat 500 (1.0 Hybrid Dolcevita)", location: "🚗 Garage Nord, Müller-Straße 12" },
  ];

  it("the widest free-text column gives up width first; no line is longer than the width", () => {
    expect(fitWidths([2, 40, 30], [2, 5, 8], [false, true, true], 50)).toEqual([2, 22, 22]);
    expect(fitWidths([2, 10, 10], [2, 5, 8], [false, true, true], 80)).toEqual([2, 10, 10]);
    for (const width of [40, 60, 80, 160]) {
      const text = renderTable(items, columns, { color, width });
      const lines = text.trimEnd().split("\n");
      expect(lines).toHaveLength(4);
      for (const l of lines) expect(textWidth(l)).toBeLessThanOrEqual(width);
    }
  });

  it("CJK and emoji cells align by display width", () => {
    const text = renderTable(items, columns, { color, width: 160 });
    const lines = text.trimEnd().split("\n");
    // the LOCATION column starts at the same display column on every line
    const starts = lines.map((l) => {
      const at = l.search(/LOCATION|Berlin|東京|🚗/u);
      return textWidth(l.slice(0, at));
    });
    expect(new Set(starts).size).toBe(1);
    expect(text).toContain("東京都渋谷区道玄坂二丁目 1-1");
  });

  it("cut cells end in …, never split a glyph; --wide shows them in full", () => {
    expect(truncate("東京都渋谷区", 7)).toBe("東京都…");
    expect(truncate("abc", 3)).toBe("abc");
    const narrow = renderTable(items, columns, { color, width: 40 });
    expect(narrow).toContain("…");
    const wide = renderTable(items, columns, { color, width: 40, wide: true });
    expect(wide).not.toContain("…");
    expect(wide).toContain("Toyota Corolla (1.8 Hybrid Comfort)");
  });

  it("streaming: widths fixed by the first page, a later longer cell is cut to them", () => {
    const t = tableStream(columns, { color, width: 80 });
    const first = t.rows([{ id: 1, model: "Fiat 500", location: "Rome" }]);
    const later = t.rows([{ id: 22, model: "Toyota Corolla (1.8 Hybrid Comfort)", location: "Berlin" }]);
    expect(first.split("\n")[0]).toMatch(/^ID\s+MODEL\s+LOCATION$/);
    expect(later).toBe("22  Toyota…   Berlin\n");
  });

  it("the width: the terminal's for a TTY, else COLUMNS, else 80", () => {
    expect(terminalWidth({ stdoutTTY: true, columns: 132 }, { COLUMNS: "100" })).toBe(132);
    expect(terminalWidth({ stdoutTTY: false, columns: 132 }, { COLUMNS: "100" })).toBe(100);
    expect(terminalWidth({ stdoutTTY: false }, {})).toBe(80);
  });
});

describe("the card of vehicle get (and the wizard's review)", () => {
  const color = makeChalk(false);
  const record: JsonObject = {
    id: 1,
    user_id: 1001,
    vehicle_model_id: 1003,
    vehicle_class_id: 2,
    vehicle_segment_id: 1,
    price_per_day: 45,
    vehicle_currency_id: 1,
    vehicle_activity: 1,
    vehicle_benefits_id: [1, 4],
    vehicle_vin: "",
    vehicle_description: "Economical hybrid, ideal for the city and the motorway. ".repeat(3),
    server_own: "x",
  };

  it("sections and labels from the one declaration, ids by name, amounts with their code, empty fields left out", async () => {
    const { recordCard } = await import("../../src/output/record-card.js");
    const { renderCard } = await import("../../src/output/card.js");
    const { VEHICLE_SECTIONS } = await import("../../src/contract/sections.js");
    const { catalogs } = stub();
    const card = await recordCard(record, VEHICLE_SECTIONS, {
      names: new FieldNames(catalogs),
      currencyKey: "vehicle_currency_id",
    });
    const text = renderCard(card, { color, width: 60 });
    expect(text).toMatch(/^Vehicle\n {2}Segment {2,}#1\n {2}Model {2,}Toyota Corolla \(1\.8 Hybrid Comfort\)\n/);
    expect(text).toMatch(/Per day \(1-2 days\) {2,}45 EUR/);
    expect(text).toMatch(/Available for rent {2,}yes/);
    expect(text.replace(/\s+/g, " ")).toMatch(/Benefits Free cancellation, 24\/7 roadside assistance/);
    expect(text).toMatch(/Other\n {2}server_own {2,}x/);
    expect(text).toMatch(/Record\n {2}Id {2,}1\n {2}Owner {2,}1001/);
    expect(text).not.toContain("VIN");
    for (const l of text.split("\n")) expect(textWidth(l)).toBeLessThanOrEqual(60);
    // a long description goes on over lines, nothing is lost
    expect(text.replace(/\s+/g, " ")).toContain("ideal for the city and the motorway. Economical");

    const all = renderCard(
      await recordCard(record, VEHICLE_SECTIONS, { allFields: true, currencyKey: "vehicle_currency_id" }),
      { color, width: 60 },
    );
    expect(all).toMatch(/VIN\n/);
    expect(all).toMatch(/Tuning\n/);
    expect(all).toMatch(/Model {2,}1003\n/); // no names asked (--ids)
  });
});

describe("small things people notice", () => {
  it("plurals: 1 vehicle, 2 vehicles", async () => {
    const { pageFooter, plural } = await import("../../src/api/paginate.js");
    expect(plural(1, "vehicles")).toBe("vehicle");
    expect(plural(0, "vehicles")).toBe("vehicles");
    expect(pageFooter({ items: [], total: 1, lastPage: 1, currentPage: 1, perPage: 15 }, 0, 1, "vehicles")).toBe(
      "page 1 of 1 · 1 of 1 vehicle",
    );
    expect(pageFooter({ items: [], total: 2, lastPage: 1, currentPage: 1, perPage: 15 }, 0, 2, "extras")).toBe(
      "page 1 of 1 · 2 of 2 extras",
    );
  });

  it("profile list marks the current profile with *; json keeps current: true/false", async () => {
    const { runMain, tempHome } = await import("../helpers/cli.js");
    const home = tempHome();
    try {
      for (const p of ["a", "b"])
        expect((await runMain(["-p", p, "profile", "set", "env", "sandbox"], home.env)).code).toBe(0);
      await runMain(["profile", "use", "b"], home.env);
      const r = await runMain(["profile", "list"], home.env);
      expect(r.stdout).toMatch(/^ {3}NAME/);
      expect(r.stdout).toMatch(/^ {3}a {5}sandbox$/m);
      expect(r.stdout).toMatch(/^\* {2}b {5}sandbox$/m);
      const j = JSON.parse((await runMain(["profile", "list", "-o", "json"], home.env)).stdout);
      expect(j.map((x: { current: boolean }) => x.current)).toEqual([false, true]);
    } finally {
      home.cleanup();
    }
  });
});
