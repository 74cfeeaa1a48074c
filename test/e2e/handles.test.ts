import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FaultProxy, startProxy, vehicleRow } from "../fleet/helpers.js";
import { runMain, sandboxEnv } from "../helpers/cli.js";

/**
 * Natural handles (issue "strict input", Handles): a vehicle is addressed by
 * id or by registration number wherever an id is taken, through the one
 * identity rule of import and diff; `vehicle create` refuses a registration
 * number the account has (nothing sent) unless --allow-duplicate.
 */
let ctx: Awaited<ReturnType<typeof sandboxEnv>>;
let proxy: FaultProxy;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  ctx = await sandboxEnv();
  proxy = await startProxy(ctx.sb.url);
  env = { ...ctx.env, RENTCTL_BASE_URL: proxy.url };
});
afterAll(async () => {
  await proxy.close();
  await ctx.cleanup();
});
const creates = () => proxy.creates();

describe("a vehicle by its registration number", () => {
  it("get, edit, deactivate and remove take it (trimmed, any case); an unknown one is exit 2 (a name, not an id), naming the nearest", async () => {
    const got = await runMain(["vehicle", "get", " b-sc 1001 ", "-o", "json"], env);
    expect(got.code, got.stderr).toBe(0);
    expect(JSON.parse(got.stdout).id).toBe(1);
    const edited = await runMain(["vehicle", "edit", "B-SC 1001", "--price-per-day", "58"], env);
    expect(edited.code, edited.stderr).toBe(0);
    expect(edited.stderr).toMatch(/vehicle 1 updated/);
    const off = await runMain(["vehicle", "deactivate", "B-SC 1001"], env);
    expect(off.code, off.stderr).toBe(0);
    const missing = await runMain(["vehicle", "get", "NOPE-404"], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no vehicle with registration number "NOPE-404"/);
    // digits alone are an id; reg: says it is a registration number
    expect((await runMain(["vehicle", "get", "reg:12345"], env)).code).toBe(2);
    // an id the server does not know is still the server's answer: exit 5
    expect((await runMain(["vehicle", "get", "12345"], env)).code).toBe(5);
  });

  it("a registration number two vehicles share is ambiguous: exit 2 listing both ids, nothing sent", async () => {
    const car = JSON.parse((await runMain(["vehicle", "get", "1", "-o", "json"], env)).stdout);
    const file = join(env.HOME!, "car.json");
    writeFileSync(file, JSON.stringify({ ...car, vehicle_reg_number: "TWIN-1" }));
    const a = await runMain(["vehicle", "create", "--from-file", file, "-q"], env);
    expect(a.code, a.stderr).toBe(0);

    // vehicle create refuses a second one, nothing sent
    const before = creates();
    const refused = await runMain(
      ["vehicle", "create", "--from-file", file, "--set", "vehicle_reg_number=twin-1"],
      env,
    );
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toMatch(/vehicle \d+ already has registration number "twin-1"; nothing was sent/);
    expect(creates()).toBe(before);

    const b = await runMain(["vehicle", "create", "--from-file", file, "--allow-duplicate", "-q"], env);
    expect(b.code, b.stderr).toBe(0);
    const ids = [a.stdout.trim(), b.stdout.trim()];
    const writes = [...proxy.counts.entries()].filter(([k]) => k.startsWith("POST ")).reduce((n, [, c]) => n + c, 0);
    const amb = await runMain(["vehicle", "remove", "TWIN-1", "--yes"], env);
    expect(amb.code).toBe(2);
    expect(amb.stderr).toMatch(new RegExp(`matches 2 vehicles \\(${ids[0]}, ${ids[1]}\\)`));
    expect([...proxy.counts.entries()].filter(([k]) => k.startsWith("POST ")).reduce((n, [, c]) => n + c, 0)).toBe(
      writes,
    );
  });
});

describe("verb aliases", () => {
  it("vehicle show = get, vehicle delete / rm = remove, extra remove / rm = delete; a typo suggests the nearest", async () => {
    const show = await runMain(["vehicle", "show", "2", "-q"], env);
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout.trim()).toBe("2");
    for (const alias of ["delete", "rm"]) {
      const r = await runMain(["vehicle", alias, "2", "--dry-run"], env);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/dry run: would remove vehicle 2/);
    }
    const extraRm = await runMain(["extra", "rm", "--help"], env);
    expect(extraRm.code).toBe(0);
    expect(extraRm.stdout).toMatch(/rentctl extra delete\|remove /); // commander shows the first alias
    const typo = await runMain(["vehicle", "delet", "2"], env);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/Did you mean delete\?/);
  });
});

describe("lists a person pages through", () => {
  it("--limit with --sort shows the first N after sorting; the footer names the next step; a page past the end says so", async () => {
    const sorted = await runMain(["vehicle", "list", "--sort", "price_per_day:desc", "-o", "json"], ctx.env);
    const all = JSON.parse(sorted.stdout) as Array<{ id: number }>;
    const top = await runMain(
      ["vehicle", "list", "--sort", "price_per_day:desc", "--limit", "2", "-o", "json"],
      ctx.env,
    );
    expect(top.code, top.stderr).toBe(0);
    expect((JSON.parse(top.stdout) as Array<{ id: number }>).map((v) => v.id)).toEqual(
      all.slice(0, 2).map((v) => v.id),
    );
    const second = await runMain(
      ["vehicle", "list", "--sort", "price_per_day:desc", "--limit", "2", "--page", "2", "-o", "json"],
      ctx.env,
    );
    expect((JSON.parse(second.stdout) as Array<{ id: number }>).map((v) => v.id)).toEqual(
      all.slice(2, 4).map((v) => v.id),
    );

    const paged = await runMain(["vehicle", "list", "--limit", "1"], ctx.env);
    expect(paged.code).toBe(0);
    expect(paged.stderr).toMatch(/next: --page 2 --limit 1, or --all/);
    const past = await runMain(["vehicle", "list", "--page", "99"], ctx.env);
    expect(past.code).toBe(0);
    expect(past.stdout).toBe("");
    expect(past.stderr).toMatch(
      /page 99 is past the end: there are \d+ vehicles on \d+ pages? of 15 \(try --page \d+\)/,
    );
    // one line says it: no "page 99 of 1" footer under it
    expect(past.stderr).not.toMatch(/page 99 of/);
  });
});

describe("file errors name the cause", () => {
  it("vehicle export into a directory that does not exist: exit 2, one line, no stack, no temp file", async () => {
    const r = await runMain(["vehicle", "export", join(env.HOME!, "no-such-dir", "fleet.csv")], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/vehicle export: directory .*no-such-dir does not exist/);
    expect(r.stderr).not.toMatch(/ENOENT|at .*\.js:\d+|node:events/);
  });

  it("a csv written with `;` (spreadsheets in many locales) is read as such", async () => {
    const rows = ["SC-1", "SC-2"].map((reg) => vehicleRow(reg));
    const keys = Object.keys(rows[0]!).filter((k) =>
      rows.every((r) => !/[;"]/.test(Array.isArray(r[k]) ? (r[k] as unknown[]).join("|") : String(r[k]))),
    );
    const cell = (v: unknown) => {
      const t = Array.isArray(v) ? v.join("|") : String(v);
      return t.includes(",") ? `"${t}"` : t;
    };
    const file = join(env.HOME!, "semicolons.csv");
    writeFileSync(file, [keys.join(";"), ...rows.map((r) => keys.map((k) => cell(r[k])).join(";"))].join("\n") + "\n");
    const r = await runMain(["vehicle", "import", file, "--user", "1003", "-q"], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split("\n")).toHaveLength(2);
  });
});
