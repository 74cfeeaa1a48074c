import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { runMain, sandboxEnv } from "../helpers/cli.js";

/**
 * Issue 41 item 11: `account export -o json` printed yaml (only --format
 * counted); `vehicle export` takes `--search` as `vehicle list` does.
 */

let s: Awaited<ReturnType<typeof sandboxEnv>>;
beforeAll(async () => {
  s = await sandboxEnv();
});
afterAll(async () => s?.cleanup());
const run = (args: string[]) => runMain(args, s.env);

describe("account export honours -o", () => {
  it("-o json writes the account as JSON, -o yaml as yaml; --format wins over -o", async () => {
    const j = await run(["account", "export", "-o", "json"]);
    expect(j.code, j.stderr).toBe(0);
    const doc = JSON.parse(j.stdout) as { extras: unknown[]; vehicles: unknown[] };
    expect(doc.vehicles.length).toBeGreaterThan(0);
    const viaJson = await run(["account", "export", "--json"]);
    expect(JSON.parse(viaJson.stdout)).toEqual(doc);
    const y = await run(["account", "export", "-o", "yaml"]);
    expect(y.code, y.stderr).toBe(0);
    expect(y.stdout).toMatch(/^# yaml-language-server/);
    expect(parse(y.stdout).vehicles).toEqual(doc.vehicles);
    const both = await run(["account", "export", "--format", "yaml", "-o", "json"]);
    expect(both.stdout).toMatch(/^# yaml-language-server/);
  });

  it("another -o is refused: exit 2, one line, nothing on stdout", async () => {
    const r = await run(["account", "export", "-o", "csv"]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/account export: -o csv: an account file is yaml or json/);
  });
});

describe("vehicle export -o", () => {
  it("-o json writes one JSON array, -o csv a csv; --format wins; -o table is refused", async () => {
    const asJson = await run(["vehicle", "export", "-o", "json"]);
    expect(asJson.code, asJson.stderr).toBe(0);
    const rows = JSON.parse(asJson.stdout) as Array<Record<string, unknown>>;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0]).toHaveProperty("vehicle_reg_number");
    const asCsv = await run(["vehicle", "export", "-o", "csv"]);
    expect(asCsv.stdout.split("\n")[0]).toMatch(/vehicle_reg_number/);
    const both = await run(["vehicle", "export", "-o", "json", "--format", "ndjson"]);
    expect(both.stdout.trim().split("\n")).toHaveLength(rows.length);
    const table = await run(["vehicle", "export", "-o", "table"]);
    expect(table.code).toBe(2);
    expect(table.stdout).toBe("");
    expect(table.stderr).toMatch(/vehicle export: -o table: a fleet file is json, ndjson, csv or yaml/);
  });
});

describe("vehicle export --search", () => {
  it("keeps the vehicles whose text contains TEXT, as vehicle list --search", async () => {
    const all = (await run(["vehicle", "export", "--format", "ndjson"])).stdout.trim().split("\n");
    const r = await run(["vehicle", "export", "--search", "b-sc 1001", "--format", "ndjson"]);
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows.map((x) => x.vehicle_reg_number)).toEqual(["B-SC 1001"]);
    expect(all.length).toBeGreaterThan(rows.length);
    const listed = await run(["vehicle", "list", "--search", "b-sc 1001", "-q"]);
    expect(listed.stdout.trim().split("\n")).toHaveLength(rows.length);
    const empty = await run(["vehicle", "export", "--search", " "]);
    expect(empty.code).toBe(2);
  });
});
