import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { json, runMain, sandboxEnv } from "../helpers/cli.js";
import { type FaultProxy, startProxy } from "./helpers.js";

// Issue 14 through the CLI (in-process): --where selections, relative edits on the
// bulk engine (plan, confirmation, one undo entry), and the calendar.

let sandbox: Awaited<ReturnType<typeof sandboxEnv>>;
let proxy: FaultProxy;
let env: NodeJS.ProcessEnv;
const cli = (args: string[]) => runMain(args, env);
const writes = () => [...proxy.counts].filter(([k]) => k.startsWith("POST")).reduce((n, [, c]) => n + c, 0);
const ids = async (args: string[]) => {
  const r = await cli(["vehicle", "list", ...args, "-q"]);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim().split("\n").filter(Boolean).map(Number);
};
const prices = async () =>
  Object.fromEntries(
    json<Array<{ id: number; price_per_day: number }>>(
      (await cli(["vehicle", "list", "--all", "-o", "json"])).stdout,
    ).map((v) => [v.id, v.price_per_day]),
  );

beforeAll(async () => {
  sandbox = await sandboxEnv();
  proxy = await startProxy(sandbox.sb.url);
  env = { ...sandbox.env, RENTCTL_BASE_URL: proxy.url, RENTCTL_USER_ID: "1001" };
});
afterAll(async () => {
  await proxy.close();
  await sandbox.cleanup();
});
beforeEach(() => proxy.counts.clear());

describe("--where selections", () => {
  it("each operator, flag words, catalog names, regular expressions and sorting", async () => {
    const p = await prices();
    const all = Object.keys(p)
      .map(Number)
      .sort((a, b) => a - b);
    const cheapest = all.reduce((a, b) => (p[a]! <= p[b]! ? a : b));
    expect(await ids(["--where", `price_per_day=${p[cheapest]}`])).toEqual([cheapest]);
    expect(await ids(["--where", `price_per_day!=${p[cheapest]}`])).toEqual(all.filter((i) => i !== cheapest));
    expect(await ids(["--where", `price_per_day<=${p[cheapest]}`])).toEqual([cheapest]);
    expect(await ids(["--where", `price_per_day>${p[cheapest]}`])).toEqual(all.filter((i) => i !== cheapest));
    expect(await ids(["--where", "price_per_day>=0", "--where", `price_per_day<${p[cheapest]! + 1}`])).toEqual([
      cheapest,
    ]);
    expect(await ids(["--where", "vehicle-reg-number~^b-sc"])).toEqual([1]);
    expect(await ids(["--where", "segment=cars"])).toEqual(all);
    expect(await ids(["--where", "vehicle_activity=no"]).then((x) => x.length)).toBeGreaterThanOrEqual(0);
    const sorted = await ids(["--sort", "price_per_day:desc"]);
    expect(sorted).toEqual([...all].sort((a, b) => p[b]! - p[a]! || a - b));
  });

  it("export --where writes only the selected vehicles", async () => {
    const want = await ids(["--where", "vehicle_activity=yes"]);
    const r = await cli(["vehicle", "export", "-", "--where", "vehicle_activity=yes", "--with-ids"]);
    expect(r.code, r.stderr).toBe(0);
    const got = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l).vehicle_id);
    expect(got).toEqual(want);
  });

  it("array fields match when any member matches", async () => {
    const v1 = json<{ vehicle_benefits_id?: number[] }>((await cli(["vehicle", "get", "1", "-o", "json"])).stdout);
    const member = v1.vehicle_benefits_id?.[0];
    if (member === undefined) return; // the seed gives vehicle 1 benefits; guard against seed changes
    expect(await ids(["--where", `vehicle_benefits_id=${member}`])).toContain(1);
  });

  it("a bad expression or unknown field is exit 2 with a hint, and nothing is sent", async () => {
    for (const [expr, hint] of [
      ["price_per_day<cheap", /compares as a number/],
      ["prise_per_day=5", /did you mean/],
      ["price_per_day", /FIELD OP VALUE/],
      ["segment=submarines", /no vehicle_segment_id named/],
    ] as const) {
      const r = await cli(["vehicle", "edit", "--where", expr, "--price-per-day", "+1", "--yes"]);
      expect(r.code, expr).toBe(2);
      expect(r.stderr).toMatch(hint);
    }
    expect(writes()).toBe(0);
  });
});

describe("edit --where with relative values", () => {
  it("without a terminal and without --yes: the plan, exit 2, nothing sent", async () => {
    const r = await cli(["vehicle", "edit", "--where", "segment=cars", "--price-per-day", "+10%", "--clamp"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Plan: 0 to create, \d+ to change/);
    expect(r.stderr).toContain("--yes");
    expect(writes()).toBe(0);
  });

  it("--dry-run prints the plan on stdout with old → new and sends nothing", async () => {
    const p = await prices();
    const r = await cli(["vehicle", "edit", "1", "--price-per-day", "*2", "--dry-run"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`price_per_day: ${p[1]} → ${p[1]! * 2}`);
    expect(writes()).toBe(0);
  });

  it("+10% with a fractional result: refused with the exact arithmetic unless --clamp, which rounds half up", async () => {
    const before = await prices();
    const fractional = Object.entries(before).find(([, p]) => (p * 10) % 100 !== 0);
    expect(fractional, "a price whose +10% is not whole").toBeDefined();
    const r = await cli(["vehicle", "edit", fractional![0], "--price-per-day", "+10%", "--dry-run"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`price_per_day ${fractional![1]} \\+10% = [\\d.]+, not a whole number`));
    expect(r.stderr).toMatch(/--clamp to round/);
    expect(writes()).toBe(0);
  });

  it("+10% --clamp sends one full-record edit per matching vehicle, rounded half up, and one undo restores them all", async () => {
    const before = await prices();
    proxy.counts.clear();
    const r = await cli(["vehicle", "edit", "--where", "segment=cars", "--price-per-day", "+10%", "--clamp", "--yes"]);
    expect(r.code, r.stderr).toBe(0);
    const n = Object.keys(before).length;
    expect(proxy.counts.get("POST /api/v302/vehicles/edit")).toBe(n);
    expect(writes()).toBe(n);
    const after = await prices();
    for (const [id, p] of Object.entries(before)) expect(after[id]).toBe(Math.floor(p * 1.1 + 0.5));
    const op = /rentctl undo (\d+)/.exec(r.stderr)?.[1];
    expect(op).toBeDefined();
    const u = await cli(["undo", op!]);
    expect(u.code, u.stderr).toBe(0);
    expect(await prices()).toEqual(before);
  });

  it("below 0: refused with the arithmetic (never clamped silently); with --clamp the plan shows 0", async () => {
    const refused = await cli(["vehicle", "edit", "1", "--price-per-day", "-100000", "--dry-run"]);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toMatch(/price_per_day \d+ -100000 = -\d+ < 0/);
    const r = await cli(["vehicle", "edit", "1", "--price-per-day", "-100000", "--clamp", "--dry-run"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/price_per_day: \d+ → 0/);
  });
});

describe("vehicle calendar", () => {
  it("--block days, ranges and a month, --unblock: the exact wire string; json in ISO dates", async () => {
    let r = await cli([
      "vehicle",
      "calendar",
      "2",
      "--block",
      "2026-12-24..2026-12-26",
      "--block",
      "2027-02",
      "--block",
      "2026-11-30",
    ]);
    expect(r.code, r.stderr).toBe(0);
    r = await cli(["vehicle", "calendar", "2", "--unblock", "2027-02-02..2027-02-28"]);
    expect(r.code, r.stderr).toBe(0);
    const wire = json<{ vehicle_availability_calendar: string }>(
      (await cli(["vehicle", "get", "2", "-o", "json", "--fields", "vehicle_availability_calendar"])).stdout,
    ).vehicle_availability_calendar;
    expect(wire).toBe("30.11.2026,24.12.2026,25.12.2026,26.12.2026,01.02.2027");
    const j = await cli(["vehicle", "calendar", "2", "-o", "json"]);
    expect(json(j.stdout)).toEqual({
      vehicle_id: 2,
      blocked: ["2026-11-30", "2026-12-24", "2026-12-25", "2026-12-26", "2027-02-01"],
    });
  });

  it("the grid marks blocked days without colour, with a legend", async () => {
    const r = await cli(["vehicle", "calendar", "2", "--from", "2026-12", "--months", "1"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(" December 2026");
    expect(r.stdout).toContain("[24][25][26]");
    expect(r.stdout).toMatch(/blocked \(unavailable\)/);
  });

  it("a date neither ISO nor d.m.Y (or no real day) is a usage error; nothing is sent", async () => {
    for (const bad of ["12/24/2026", "31.02.2026"]) {
      const r = await cli(["vehicle", "calendar", "2", "--block", bad]);
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toMatch(/2026-12-24 or 24\.12\.2026/);
    }
    expect(writes()).toBe(0);
  });

  it("the contract's own d.m.Y form is taken as well as ISO (--dry-run shows the same plan)", async () => {
    const a = await cli(["vehicle", "calendar", "2", "--block", "24.12.2027", "--dry-run"]);
    const b = await cli(["vehicle", "calendar", "2", "--block", "2027-12-24", "--dry-run"]);
    expect(a.code, a.stderr).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    expect(a.stdout).toMatch(/\+24\.12\.2027/);
  });

  it("over a selection: the plan, --yes, one change per vehicle", async () => {
    const r = await cli(["vehicle", "calendar", "--where", "segment=cars", "--block", "2027-03-01", "--yes"]);
    expect(r.code, r.stderr).toBe(0);
    const n = (await ids(["--where", "segment=cars"])).length;
    expect(proxy.counts.get("POST /api/v302/vehicles/edit")).toBe(n);
  });
});

describe("tables a person can read", () => {
  it("names for ids, yes/no, prices with the currency code; one request per catalog; json keeps the wire data", async () => {
    const { rmSync } = await import("node:fs");
    const { join } = await import("node:path");
    rmSync(join(env.RENTCTL_DATA_DIR!, "cache"), { recursive: true, force: true });
    proxy.counts.clear();
    proxy.urls.clear();
    const t = await cli(["vehicle", "list", "--all"]);
    expect(t.code, t.stderr).toBe(0);
    expect(t.stdout).toMatch(/\bCompact\b/);
    expect(t.stdout).not.toMatch(/Compact \(2\)/);
    expect(t.stdout).toMatch(/Toyota /); // the model by name (cut to fit 80 columns)
    expect(t.stdout).toMatch(/\byes\b/);
    expect(t.stdout).toMatch(/\d+ EUR/);
    // one request per catalog and parameters (models per brand, configurations per model: the reverse index's walk)
    const catalogGets = [...proxy.urls].filter(([k]) => k.startsWith("GET") && !k.includes("/vehicles/list"));
    expect(catalogGets.length).toBeGreaterThan(0);
    expect(catalogGets.filter(([, n]) => n !== 1)).toEqual([]);
    const j = await cli(["vehicle", "list", "-o", "json"]);
    const first = JSON.parse(j.stdout)[0];
    expect(typeof first.vehicle_class_id).toBe("number");
    expect(first.vehicle_activity === 0 || first.vehicle_activity === 1).toBe(true);
  });
});
