import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, ROOT, runBuilt, sandboxEnv } from "../helpers/cli.js";
import { accountRegs, type FaultProxy, ndjson, startProxy, vehicleRow } from "./helpers.js";

let sandbox: Awaited<ReturnType<typeof sandboxEnv>>;
let proxy: FaultProxy;
let env: NodeJS.ProcessEnv;
const dir = mkdtempSync(join(tmpdir(), "fleet-e2e-"));

beforeAll(async () => {
  sandbox = await sandboxEnv();
  proxy = await startProxy(sandbox.sb.url);
  env = { ...sandbox.env, RENTCTL_BASE_URL: proxy.url };
});
afterAll(async () => {
  await proxy.close();
  await sandbox.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

const cli = (args: string[], input?: string) => runBuilt(args, env, input);
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

describe("vehicle export / import (built CLI, sandbox)", () => {
  it("round trip: 120 vehicles of owner 1001 exported, imported into an emptied 1002, exported again: identical", async () => {
    const rows = Array.from({ length: 117 }, (_, i) =>
      vehicleRow(`RT-${String(i).padStart(3, "0")}`, { price_per_day: 30 + i, vehicle_benefits_id: [1, 1 + (i % 4)] }),
    );
    const seed = await cli([
      "vehicle",
      "import",
      file("seed.ndjson", ndjson(rows)),
      "--user",
      "1001",
      "--concurrency",
      "8",
    ]);
    expect(seed.stderr).toMatch(/created 117, exists 0, failed 0, invalid 0/);
    expect(seed.code).toBe(0);
    const old = await cli(["vehicle", "list", "--all", "-q", "--user", "1002"]);
    const oldIds = old.stdout.split("\n").filter(Boolean);
    if (oldIds.length) expect((await cli(["vehicle", "remove", ...oldIds, "--yes", "--user", "1002"])).code).toBe(0);

    const a = join(dir, "a.csv");
    const e1 = await cli(["vehicle", "export", a, "--user", "1001"]);
    expect(e1.code).toBe(0);
    expect(readFileSync(a, "utf8").trim().split("\n")).toHaveLength(121);
    const imp = await cli(["vehicle", "import", a, "--user", "1002", "--concurrency", "1", "-o", "ndjson"]);
    expect(imp.code).toBe(0);
    const results = imp.stdout
      .trim()
      .split("\n")
      .map((l) => json<{ status: string; vehicle_id: number }>(l));
    expect(results.filter((r) => r.status === "created")).toHaveLength(120);
    const b = join(dir, "b.csv");
    expect((await cli(["vehicle", "export", b, "--user", "1002"])).code).toBe(0);
    expect(readFileSync(b, "utf8")).toBe(readFileSync(a, "utf8"));
    // and through yaml with names, from 1002 to itself: everything exists
    const y = join(dir, "names.yaml");
    expect((await cli(["vehicle", "export", y, "--names", "--user", "1002"])).code).toBe(0);
    expect(readFileSync(y, "utf8")).toMatch(/vehicle_currency_id: Euro/);
    const again = await cli(["vehicle", "import", y, "--user", "1002"]);
    expect(again.stderr).toMatch(/created 0, exists 120, failed 0, invalid 0/);
    expect(again.code).toBe(0);
  }, 180_000);

  it("every format, csv edge cases (BOM, CRLF, quoted commas and newlines, | arrays), stdin with --format", async () => {
    const base = vehicleRow("X");
    const cols = Object.keys(base).filter((k) => k !== "vehicle_reg_number");
    const q = (v: unknown) => `"${String(v).replace(/"/g, '""')}"`;
    const csv =
      "\uFEFF" +
      ["vehicle-reg-number", ...cols, "vehicle_description", "vehicle_benefits_id"].join(",") +
      "\r\n" +
      ["F-CSV-1", ...cols.map((c) => q(base[c])), '"Quiet, clean\r\nand ""fast"""', "1|3"].join(",") +
      "\r\n";
    const files = [
      file("f.csv", csv),
      file("f.json", JSON.stringify([vehicleRow("F-JSON-1")])),
      file("f.yaml", `vehicles:\n  - ${JSON.stringify(vehicleRow("F-YAML-1"))}\n`),
    ];
    for (const f of files) {
      const r = await cli(["vehicle", "import", f, "--user", "1003"]);
      expect(r.stderr).toMatch(/created 1, exists 0/);
      expect(r.code).toBe(0);
    }
    const viaStdin = await cli(
      ["vehicle", "import", "-", "--format", "ndjson", "--user", "1003", "-q"],
      ndjson([vehicleRow("F-NDJ-1")]),
    );
    expect(viaStdin.code).toBe(0);
    expect(viaStdin.stdout).toMatch(/^\d+\n$/);
    expect((await cli(["vehicle", "import", "-", "--user", "1003"], "")).code).toBe(2);

    const out = await cli(["vehicle", "export", "--user", "1003", "--format", "json"]);
    const rows = json<Array<Record<string, unknown>>>(out.stdout);
    const c = rows.find((r) => r.vehicle_reg_number === "F-CSV-1")!;
    expect(c.vehicle_description).toBe('Quiet, clean\r\nand "fast"');
    expect(c.vehicle_benefits_id).toEqual([1, 3]);
    expect(rows.map((r) => r.vehicle_reg_number)).toEqual(expect.arrayContaining(["F-JSON-1", "F-YAML-1", "F-NDJ-1"]));
  }, 120_000);

  it("--concurrency N holds at most N connections to the server for the creates", async () => {
    const rows = Array.from({ length: 300 }, (_, i) => vehicleRow(`CONN-${i}`));
    const f = file("conn.ndjson", ndjson(rows));
    const before = proxy.connections();
    const r = await cli(["vehicle", "import", f, "--user", "1003", "--concurrency", "4", "-q"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split("\n")).toHaveLength(300);
    // the account listing's connection, then the creates' pool of 4
    expect(proxy.connections() - before).toBeLessThanOrEqual(5);
  });

  it("catalog names are resolved once per catalog for the whole file, never per row", async () => {
    const rows = Array.from({ length: 30 }, (_, i) =>
      vehicleRow(`NM-${i}`, {
        vehicle_segment_id: "Cars",
        vehicle_class_id: "Compact",
        vehicle_currency_id: i % 2 ? "EUR" : "USD",
        vehicle_fuel_policy: "Full to full",
      }),
    );
    proxy.counts.clear();
    // the catalog service keeps catalogs on disk for a day: start cold so the requests can be counted
    rmSync(join(env.RENTCTL_DATA_DIR!, "cache"), { recursive: true, force: true });
    const r = await cli(["vehicle", "import", file("names.ndjson", ndjson(rows)), "--user", "1003"]);
    expect(r.stderr).toMatch(/created 30/);
    const catalogGets = [...proxy.counts].filter(([k]) => k.startsWith("GET") && !k.includes("/vehicles/list"));
    // 5 distinct names (Cars, Compact, EUR, USD, Full to full) over 4 catalogs: one request per catalog
    expect(catalogGets.map(([k]) => k).sort()).toEqual(
      [
        "GET /api/v302/currencies",
        "GET /api/v302/vehicles/classes_or_types",
        "GET /api/v302/vehicles/fuel_policy",
        "GET /api/v302/vehicles/segments",
      ].sort(),
    );
    expect(catalogGets.every(([, n]) => n === 1)).toBe(true);
    const bad = await cli([
      "vehicle",
      "import",
      file("badname.ndjson", ndjson([vehicleRow("NM-X", { vehicle_currency_id: "Doubloons" })])),
      "--user",
      "1003",
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/row 1 \(NM-X\) vehicle_currency_id: .*Doubloons/);
  }, 120_000);

  it("invalid rows: exit 2 with every problem by row and field, zero POSTs; --skip-invalid imports the rest (exit 7)", async () => {
    const rows = [
      vehicleRow("IV-1"),
      { ...vehicleRow("IV-2"), price_per_dya: 5 },
      vehicleRow("IV-3", { price_per_day: -4 }),
      vehicleRow("iv-1 "),
    ];
    const f = file("invalid.ndjson", ndjson(rows));
    proxy.counts.clear();
    const r = await cli(["vehicle", "import", f, "--user", "1003"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/3 of 4 rows invalid \(nothing was sent\)/);
    expect(r.stderr).toMatch(/row 2 \(IV-2\) price_per_dya: unknown key \(did you mean price_per_day\?\)/);
    expect(r.stderr).toMatch(/row 3 \(IV-3\) price_per_day:/);
    expect(r.stderr).toMatch(/row 4 \(iv-1\) vehicle_reg_number: same vehicle as row 1/);
    expect([...proxy.counts.keys()].filter((k) => k.startsWith("POST"))).toEqual([]);

    const dry = await cli([
      "vehicle",
      "import",
      file("dry.ndjson", ndjson([vehicleRow("DRY-1"), vehicleRow("IV-0")])),
      "--user",
      "1003",
      "--dry-run",
    ]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("+ DRY-1");
    expect([...proxy.counts.keys()].filter((k) => k.startsWith("POST"))).toEqual([]);

    const report = join(dir, "skip-report.json");
    const s = await cli(["vehicle", "import", f, "--user", "1003", "--skip-invalid", "--report", report]);
    expect(s.code).toBe(7);
    expect(s.stderr).toMatch(/created 1, exists 0, failed 0, invalid 3/);
    expect(s.stderr).toMatch(/3 rows invalid, skipped \(the others went through\)/);
    // every row invalid: nothing else went through, and the line does not say it did
    const allBad = file("all-invalid.ndjson", ndjson(rows.slice(1, 3)));
    const none = await cli(["vehicle", "import", allBad, "--user", "1003", "--skip-invalid"]);
    expect(none.code).toBe(7);
    expect(none.stderr).toMatch(/2 rows invalid, skipped; there was no other row/);
    const rep = json<Array<{ row: number; status: string }>>(readFileSync(report, "utf8"));
    expect(rep.map((x) => [x.row, x.status]).sort()).toEqual([
      [1, "created"],
      [2, "invalid"],
      [3, "invalid"],
      [4, "invalid"],
    ]);
  }, 120_000);

  it("a server failing some creates (400, 500): exit 7, report lists them; the rerun creates only those", async () => {
    const rows = Array.from({ length: 12 }, (_, i) => vehicleRow(`SF-${i}`));
    const f = file("serverfail.ndjson", ndjson(rows));
    const failing = new Map([
      ["SF-3", 400],
      ["SF-7", 500],
    ]);
    proxy.decide = ({ method, path, body }) => {
      if (method !== "POST" || !path.endsWith("/vehicles/create")) return { kind: "pass" };
      const reg = new URLSearchParams(body.toString()).get("vehicle_reg_number") ?? "";
      const status = failing.get(reg);
      return status ? { kind: "fail", status } : { kind: "pass" };
    };
    const report = join(dir, "sf.csv");
    const r = await cli(["vehicle", "import", f, "--user", "1003", "--report", report]);
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/created 10, exists 0, failed 2, invalid 0/);
    const lines = readFileSync(report, "utf8").trim().split("\n");
    expect(lines[0]).toBe("row,identity,status,vehicle_id,error,images");
    expect(
      lines
        .filter((l) => l.includes(",failed,"))
        .map((l) => l.split(",")[1])
        .sort(),
    ).toEqual(["SF-3", "SF-7"]);

    proxy.decide = () => ({ kind: "pass" });
    proxy.counts.clear();
    const again = await cli(["vehicle", "import", f, "--user", "1003", "-o", "json"]);
    expect(again.code).toBe(0);
    expect(proxy.creates()).toBe(2);
    expect(again.stderr).toMatch(/continued the earlier run: 10 rows done earlier/);
    const res = json<Array<{ identity: string; status: string }>>(again.stdout);
    expect(res.filter((x) => x.status === "created")).toHaveLength(12);
    const regs = (await accountRegs(sandbox.env, 1003)).filter((x) => x.startsWith("SF-"));
    expect(regs.sort()).toEqual(rows.map((x) => String(x.vehicle_reg_number)).sort());
  }, 120_000);
  it("images uploaded for a row whose create then fails: listed (stderr, report) and reused by the rerun, not uploaded again", async () => {
    copyFileSync(join(ROOT, "examples/images/corolla-front.png"), join(dir, "front.png"));
    copyFileSync(join(ROOT, "examples/images/corolla-rear.png"), join(dir, "rear.png"));
    const f = file(
      "imgfail.ndjson",
      ndjson([
        vehicleRow("IMG-OK", { images: ["front.png"] }),
        vehicleRow("IMG-FAIL", { images: ["front.png", "rear.png"] }),
      ]),
    );
    // The server breaks (500) on IMG-FAIL's create, after its images were uploaded.
    proxy.decide = ({ method, path, body }) =>
      method === "POST" &&
      path.endsWith("/vehicles/create") &&
      new URLSearchParams(body.toString()).get("vehicle_reg_number") === "IMG-FAIL"
        ? { kind: "fail", status: 500 }
        : { kind: "pass" };
    proxy.counts.clear();
    const report = join(dir, "imgfail.json");
    const r = await cli(["vehicle", "import", f, "--user", "1003", "--report", report]);
    expect(r.code).toBe(7);
    expect(proxy.counts.get("POST /api/v302/vehicles/upload")).toBe(2);
    const failed = json<Array<{ identity: string; status: string; images: number[] | null }>>(
      readFileSync(report, "utf8"),
    ).find((x) => x.identity === "IMG-FAIL")!;
    expect(failed.status).toBe("failed");
    expect(failed.images).toHaveLength(2);
    const ids = failed.images!;
    expect(r.stderr).toContain(`images uploaded: ${ids.join(", ")} (a rerun of this command reuses them`);

    proxy.decide = () => ({ kind: "pass" });
    proxy.counts.clear();
    const again = await cli(["vehicle", "import", f, "--user", "1003", "-o", "json"]);
    expect(again.code, again.stderr).toBe(0);
    expect(proxy.counts.get("POST /api/v302/vehicles/upload") ?? 0).toBe(0);
    expect(proxy.creates()).toBe(1);
    const created = json<Array<{ identity: string; status: string; vehicle_id: number }>>(again.stdout).find(
      (x) => x.identity === "IMG-FAIL",
    )!;
    expect(created.status).toBe("created");
    const got = await runBuilt(
      ["vehicle", "get", String(created.vehicle_id), "-o", "json", "--user", "1003"],
      sandbox.env,
    );
    expect(json<{ vehicle_images: number[] }>(got.stdout).vehicle_images).toEqual(ids);
  }, 120_000);

  it("connections lost after the server committed: the run stops (exit 6); the rerun reconciles, no duplicates", async () => {
    const rows = Array.from({ length: 10 }, (_, i) => vehicleRow(`NW-${i}`));
    const f = file("network.ndjson", ndjson(rows));
    proxy.decide = ({ method, path }) =>
      method === "POST" && path.endsWith("/vehicles/create") ? { kind: "drop" } : { kind: "pass" };
    const r = await cli(["vehicle", "import", f, "--user", "1003", "--concurrency", "1", "--timeout", "2"]);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/failed 3/);
    expect(r.stderr).toMatch(/rerun the same command to resume/);
    proxy.decide = () => ({ kind: "pass" });
    proxy.counts.clear();
    const again = await cli(["vehicle", "import", f, "--user", "1003", "--timeout", "2"]);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/3 reconciled/);
    expect(proxy.creates()).toBe(7);
    const regs = (await accountRegs(sandbox.env, 1003)).filter((x) => x.startsWith("NW-"));
    expect(regs.sort()).toEqual(rows.map((x) => String(x.vehicle_reg_number)).sort());
  }, 120_000);
});
