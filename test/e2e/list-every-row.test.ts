import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type RentctlClient } from "../../src/library/index.js";
import { DEMO_OWNERS } from "../../src/sandbox/owners.js";
import { sampleVehicleInput } from "../../src/sandbox/seed.js";
import { json, runMain, sandboxEnv } from "../helpers/cli.js";

/**
 * Issue 41 item 1: a program reading a list (json, ndjson, csv, yaml, -q) gets
 * every row, streamed page by page, unless --limit / --page / --offset bound
 * it; a person at a table keeps one page and the footer. Over more vehicles
 * and extras than a page (15) holds.
 */

const EXTRA_VEHICLES = 17; // 3 seeded + 17 = 20 vehicles
const EXTRA_EXTRAS = 15; // 3 seeded + 15 = 18 extras

let sb: Awaited<ReturnType<typeof sandboxEnv>>;
let lib: RentctlClient;
let vehicleCount = 0;
let extraCount = 0;
beforeAll(async () => {
  sb = await sandboxEnv();
  const owner = DEMO_OWNERS[0]!;
  lib = createClient({ baseUrl: sb.sb.url, apiKey: owner.apiKey, userId: owner.userId });
  for (let i = 0; i < EXTRA_VEHICLES; i++) {
    const { user_id: _u, ...input } = sampleVehicleInput(owner.userId);
    await lib.vehicles.create({ ...input, vehicle_reg_number: `LIST ${i + 1}` } as never, { allowDuplicate: true });
  }
  for (let i = 0; i < EXTRA_EXTRAS; i++)
    await lib.extras.create({ option_id: 1, price: 10 + i, currency_id: 1, period: 1 + (i % 2), quantity: 1 });
  for await (const page of lib.vehicles.list({ all: true })) vehicleCount += page.length;
  extraCount = (await lib.extras.list()).length;
});
afterAll(async () => {
  await lib?.close();
  await sb?.cleanup();
});

const cli = (args: string[]) => runMain(args, sb.env);

describe("a program reading a list gets every row", () => {
  it("has more rows than a page holds", () => {
    expect(vehicleCount).toBe(3 + EXTRA_VEHICLES);
    expect(extraCount).toBe(3 + EXTRA_EXTRAS);
  });

  it("vehicle list: json, ndjson, csv, yaml and -q list every vehicle", async () => {
    const j = await cli(["vehicle", "list", "-o", "json"]);
    expect(j.code, j.stderr).toBe(0);
    expect(json<unknown[]>(j.stdout)).toHaveLength(vehicleCount);
    const nd = await cli(["vehicle", "list", "-o", "ndjson"]);
    expect(nd.stdout.trim().split("\n")).toHaveLength(vehicleCount);
    const csv = await cli(["vehicle", "list", "-o", "csv"]);
    expect(csv.stdout.trim().split("\n")).toHaveLength(vehicleCount + 1); // the header
    const yaml = await cli(["vehicle", "list", "-o", "yaml"]);
    expect(yaml.stdout.match(/^- /gm)).toHaveLength(vehicleCount);
    const q = await cli(["vehicle", "list", "-q"]);
    expect(q.stdout.trim().split("\n")).toHaveLength(vehicleCount);
  });

  it("--limit and --page still bound it", async () => {
    expect(json<unknown[]>((await cli(["vehicle", "list", "-o", "json", "--limit", "5"])).stdout)).toHaveLength(5);
    const page2 = await cli(["vehicle", "list", "-o", "json", "--page", "2"]);
    expect(json<unknown[]>(page2.stdout)).toHaveLength(vehicleCount - 15);
    expect((await cli(["vehicle", "list", "-q", "--limit", "3"])).stdout.trim().split("\n")).toHaveLength(3);
  });

  it("a page past the end says so on stderr in every format, not only in a table", async () => {
    for (const format of ["json", "ndjson", "csv"]) {
      const r = await cli(["vehicle", "list", "--page", "99", "-o", format]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/page 99 is past the end: there are \d+ vehicles/);
    }
  });

  it("the table for a person keeps its page of 15 and the footer", async () => {
    const t = await cli(["vehicle", "list", "-o", "table"]);
    expect(t.code, t.stderr).toBe(0);
    expect(t.stdout.trim().split("\n")).toHaveLength(15 + 1); // the header
    expect(t.stderr).toMatch(new RegExp(`15 of ${vehicleCount} vehicles · next: --page 2, or --all`));
  });

  it("extra list: a program gets every extra; the table one page", async () => {
    const j = await cli(["extra", "list", "-o", "json"]);
    expect(j.code, j.stderr).toBe(0);
    expect(json<unknown[]>(j.stdout)).toHaveLength(extraCount);
    expect((await cli(["extra", "list", "-q"])).stdout.trim().split("\n")).toHaveLength(extraCount);
    const t = await cli(["extra", "list", "-o", "table"]);
    expect(t.stdout.trim().split("\n")).toHaveLength(15 + 1);
    expect(t.stderr).toMatch(/next: --page 2/);
  });

  it("undo's list: a program gets every entry, a table the recent 20, --limit bounds both", async () => {
    for (let i = 0; i < 22; i++) {
      const r = await cli(["vehicle", "edit", "1", "--price-per-day", String(50 + i)]);
      expect(r.code, r.stderr).toBe(0);
    }
    const all = json<Array<{ op: string }>>((await cli(["undo", "-o", "json"])).stdout);
    expect(all.length).toBe(22);
    expect((await cli(["undo", "-q"])).stdout.trim().split("\n")).toHaveLength(22);
    const table = await cli(["undo"]);
    expect(table.stdout.trim().split("\n")).toHaveLength(20 + 1); // the header
    expect(json<unknown[]>((await cli(["undo", "-o", "json", "--limit", "3"])).stdout)).toHaveLength(3);
  });
});
