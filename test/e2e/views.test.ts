import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { textWidth } from "../../src/output/width.js";
import { sampleVehicleInput } from "../../src/sandbox/server.js";
import { expectGolden } from "../fleet/golden.js";
import { json, runBuilt, runMain, sandboxEnv } from "../helpers/cli.js";

/**
 * Views a person reads, through the built CLI (issue 26): names instead of
 * ids, tables that fit 80 and 160 columns with CJK and emoji locations
 * aligned, the vehicle card; scripts' formats unchanged.
 * `UPDATE_GOLDEN=1 npx vitest run test/e2e/views.test.ts` rewrites the golden files.
 */

let ctx: Awaited<ReturnType<typeof sandboxEnv>>;
const CJK = "東京都渋谷区道玄坂二丁目 1-1 ビル5階";
const EMOJI = "🚗 Parkplatz Nord, Müller-Straße 12, 80331 München";

beforeAll(async () => {
  ctx = await sandboxEnv();
  for (const [reg, location] of [
    ["TK-1", CJK],
    ["M-EMO 1", EMOJI],
  ] as const) {
    const { user_id: _u, ...fields } = sampleVehicleInput(1001);
    const file = join(ctx.env.RENTCTL_DATA_DIR!, "..", `${reg}.json`);
    writeFileSync(file, JSON.stringify({ ...fields, vehicle_reg_number: reg, pickup_location: location }));
    const r = await runMain(["vehicle", "create", "--from-file", file, "-q"], ctx.env);
    expect(r.code, r.stderr).toBe(0);
  }
});
afterAll(async () => ctx.cleanup());

const at = (columns: number, args: string[]) => runBuilt(args, { ...ctx.env, COLUMNS: String(columns) });

function fits(text: string, columns: number): void {
  for (const line of text.split("\n")) expect(textWidth(line), line).toBeLessThanOrEqual(columns);
}

describe.each([80, 160])("at %i columns", (columns) => {
  it("vehicle list: names, no line longer than the terminal, Unicode aligned", async () => {
    const r = await at(columns, ["vehicle", "list"]);
    expect(r.code, r.stderr).toBe(0);
    fits(r.stdout, columns);
    expect(r.stdout).toMatch(/Toyota/);
    expect(r.stdout).toMatch(/Compact/);
    expect(r.stdout).toMatch(/45 EUR/);
    expect(r.stdout).not.toMatch(/\b1003\b/);
    const lines = r.stdout.trimEnd().split("\n");
    // the LOCATION column starts at the same display column on every row, whatever the script
    const header = lines[0]!;
    const col = textWidth(header.slice(0, header.indexOf("LOCATION")));
    for (const l of lines.slice(1)) expect(textWidth(l.slice(0, l.search(/Berlin|Munich|Hamburg|東京|🚗/u)))).toBe(col);
    if (columns === 160) {
      expect(r.stdout).toContain("Toyota Corolla (1.8 Hybrid Comfort)");
      expect(r.stdout).toContain(CJK);
      expect(r.stdout).toContain(EMOJI);
    } else expect(r.stdout).toContain("…");
    expectGolden(`views-vehicle-list-${columns}.txt`, r.stdout);
  });

  it("vehicle get: a card in sections with names", async () => {
    const r = await at(columns, ["vehicle", "get", "1"]);
    expect(r.code, r.stderr).toBe(0);
    fits(r.stdout, columns);
    for (const s of ["Vehicle", "Prices", "Protection and deposit", "Delivery and return", "Extras", "Images"])
      expect(r.stdout).toMatch(new RegExp(`^${s}$`, "m"));
    expect(r.stdout).toMatch(/Model\s+Toyota Corolla \(1\.8 Hybrid Comfort\)/);
    expect(r.stdout).toMatch(/Extras\s+Child seat, Additional driver/);
    expect(r.stdout).toMatch(/Delivery places\s+Airport, Railway station/);
    expect(r.stdout).not.toMatch(/vehicle_model_id|Tuning/);
    expectGolden(`views-vehicle-get-${columns}.txt`, r.stdout);
  });

  it("extra list and extra get: the option's name, the period its number", async () => {
    const list = await at(columns, ["extra", "list"]);
    expect(list.code, list.stderr).toBe(0);
    fits(list.stdout, columns);
    expect(list.stdout).toMatch(/^1\s+Child seat\s+5 EUR\s+1\s+4\s+yes$/m);
    expectGolden(`views-extra-list-${columns}.txt`, list.stdout);
    const get = await at(columns, ["extra", "get", "2"]);
    expect(get.stdout).toMatch(/Option\s+Additional driver\n\s+Price\s+10 EUR/);
    expect(get.stdout).toMatch(/Period\s+2$/m);
  });
});

describe.each([80, 160])("catalogs with nested data at %i columns", (columns) => {
  it("catalog setup and protection-plans: one table per section, names, no dotted keys", async () => {
    const setup = await at(columns, ["catalog", "setup"]);
    expect(setup.code, setup.stderr).toBe(0);
    fits(setup.stdout, columns);
    expect(setup.stdout).not.toMatch(/registration_countries\.0/);
    expect(setup.stdout).toMatch(/^General\n {2}Segment\s+Cars/m);
    expect(setup.stdout).toMatch(/^ {2}Default currency\s+EUR \(1\)$/m);
    expect(setup.stdout).toMatch(/^Registration countries\n {2}ID\s+NAME\s+CODE\n {2}1\s+Germany\s+DE$/m);
    expectGolden(`views-catalog-setup-${columns}.txt`, setup.stdout);
    const plans = await at(columns, ["catalog", "protection-plans"]);
    expect(plans.code, plans.stderr).toBe(0);
    fits(plans.stdout, columns);
    expect(plans.stdout).toMatch(/^Deposit return options\n {2}ID\s+NAME\s+DAYS$/m);
    expectGolden(`views-catalog-protection-plans-${columns}.txt`, plans.stdout);
    const json = await at(columns, ["catalog", "setup", "-o", "json"]);
    expect(JSON.parse(json.stdout).registration_countries[0]).toEqual({ id: 1, name: "Germany", code: "DE" });
  });
});

describe("vehicle calendar --board", () => {
  const now = () => Date.parse("2026-12-22T12:00:00");
  const board = (columns: number, args: string[]) =>
    runMain(
      ["vehicle", "calendar", "--board", ...args],
      { ...ctx.env, COLUMNS: String(columns) },
      { overrides: { now } },
    );

  it("vehicles as rows, days as columns, blocked and today marked, fitting the width", async () => {
    const block = await runMain(["vehicle", "calendar", "1", "--block", "2026-12-24..2026-12-26", "--yes"], ctx.env);
    expect(block.code, block.stderr).toBe(0);
    const r = await board(80, ["--from", "2026-12-20", "--days", "14"]);
    expect(r.code, r.stderr).toBe(0);
    fits(r.stdout, 80);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^\s+Dec 2026\s+Jan 2027$/);
    expect(lines[1]).toMatch(/^\s+20 21\*22 23 24 25 26 27 28 29 30 31 {2}1 {2}2$/);
    expect(lines[2]).toMatch(/^\s+Su Mo Tu We Th Fr Sa Su/);
    expect(lines.find((l) => l.startsWith("1 B-SC 1001"))).toMatch(
      /^1 B-SC 1001\s+\. {2}\. {2}\. {2}\. {2}X {2}X {2}X {2}\./,
    );
    expect(lines.find((l) => l.startsWith("2 M-SC 2002"))).not.toContain("X");
    expect(r.stderr).toMatch(/X blocked · \. free · \* today/);
  });

  it("more days than fit are cut to the width (said on stderr); --wide shows them all", async () => {
    const r = await board(80, ["--from", "2026-12-01", "--days", "60"]);
    fits(r.stdout, 80);
    expect(r.stderr).toMatch(/\d+ of 60 days fit the terminal/);
    const wide = await board(80, ["--from", "2026-12-01", "--days", "60", "--wide"]);
    expect(wide.stdout.split("\n")[1]!.match(/\d+/g)).toHaveLength(60);
    const json = await board(80, ["-o", "json"]);
    expect(JSON.parse(json.stdout)[0]).toMatchObject({
      vehicle_id: 1,
      blocked: ["2026-12-24", "2026-12-25", "2026-12-26"],
    });
  });
});

describe("what scripts and the particular see", () => {
  it("--wide: every cell in full, whatever the width", async () => {
    const r = await at(80, ["vehicle", "list", "--wide"]);
    expect(r.stdout).toContain(EMOJI);
    expect(r.stdout).not.toContain("…");
  });

  it("--ids: raw ids in the table and on the card", async () => {
    const r = await at(160, ["vehicle", "list", "--ids"]);
    expect(r.stdout).toMatch(/^1\s+B-SC 1001\s+1003\s+2\s+yes\s+45\s+Berlin/m);
    const card = await at(160, ["vehicle", "get", "1", "--ids", "--all-fields"]);
    expect(card.stdout).toMatch(/Model\s+1003$/m);
    expect(card.stdout).toMatch(/^\s+Tuning$/m);
  });

  it("json, csv and --raw are the wire, names nowhere", async () => {
    const j = await at(80, ["vehicle", "list", "-o", "json"]);
    const items = json<Array<Record<string, unknown>>>(j.stdout);
    expect(items[0]).toMatchObject({ id: 1, vehicle_model_id: 1003, vehicle_class_id: 2, vehicle_currency_id: 1 });
    const csv = await at(80, ["vehicle", "list", "-o", "csv"]);
    expect(csv.stdout.split(/\r?\n/)[0]).toBe(
      "id,vehicle_reg_number,vehicle_model_id,vehicle_class_id,vehicle_activity,price_per_day,vehicle_currency_id,pickup_location",
    );
    expect(csv.stdout.split(/\r?\n/)[1]).toBe('1,B-SC 1001,1003,2,1,45,1,"Berlin, Alexanderplatz 1"');
    const get = await at(80, ["vehicle", "get", "1", "-o", "json"]);
    expect(json<Record<string, unknown>>(get.stdout).vehicle_model_id).toBe(1003);
    const raw = await at(80, ["vehicle", "get", "1", "--raw"]);
    expect(raw.stdout).not.toContain("Toyota");
  });

  it("--fields keeps the table's formatting: names and yes/no", async () => {
    const r = await at(160, [
      "vehicle",
      "list",
      "--fields",
      "id,vehicle_model_id,vehicle_activity,vehicle_benefits_id",
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^1\s+Toyota Corolla \(1\.8 Hybrid Comfort\)\s+yes\s+Free cancellation, 24\/7 roadside assistance$/m,
    );
  });

  it("--search: registration, model name, location, option name; any case, accents folded; with --where and --sort", async () => {
    const reg = await at(160, ["vehicle", "list", "--search", "munchen", "-q"]);
    expect(reg.stdout.trim().split("\n").map(Number)).toEqual([7]); // "… München", typed without the umlaut
    const model = await at(160, ["vehicle", "list", "--search", "COROLLA", "--sort", "vehicle_reg_number:desc", "-q"]);
    expect(model.stdout.trim().split("\n").map(Number)).toEqual([6, 7, 1]);
    const both = await at(160, ["vehicle", "list", "--search", "corolla", "--where", "vehicle_reg_number~^TK"]);
    expect(both.stdout).toMatch(/^6\s+TK-1\s+Toyota Corolla/m);
    expect(both.stdout.trim().split("\n")).toHaveLength(2);
    expect(both.stderr).toContain("1 vehicle matched");
    const extra = await at(160, ["extra", "list", "--search", "SEAT"]);
    expect(extra.stdout).toMatch(/^1\s+Child seat/m);
    expect(extra.stdout).not.toContain("Additional driver");
    expect(extra.stderr).toContain("1 of 3 extras matched");
    const json = await at(160, ["extra", "list", "--search", "driver", "-o", "json"]);
    expect(JSON.parse(json.stdout).map((e: { id: number }) => e.id)).toEqual([2]);
  });

  it("one message per outcome: already inactive, said once", async () => {
    const r = await runMain(["vehicle", "deactivate", "3"], ctx.env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe("vehicle 3 is already inactive\n");
  });

  it("the undo hint follows the work it undoes", async () => {
    const r = await runMain(["vehicle", "deactivate", "--where", "vehicle_reg_number=M-EMO 1", "--yes"], ctx.env);
    expect(r.code, r.stderr).toBe(0);
    const done = r.stderr.indexOf("changed 1, removed 0");
    const hint = r.stderr.search(/undo it with: rentctl undo \S+/);
    expect(done).toBeGreaterThan(-1);
    expect(hint).toBeGreaterThan(done);
    // nothing done, no hint
    const again = await runMain(["vehicle", "deactivate", "--where", "vehicle_reg_number=M-EMO 1", "--yes"], ctx.env);
    expect(again.stderr).not.toMatch(/rentctl undo/);
  });

  it("completion of vehicle ids offers the current owner's vehicles only, with their registration numbers", async () => {
    const { user_id: _u, ...fields } = sampleVehicleInput(1002);
    const file = join(ctx.env.RENTCTL_DATA_DIR!, "..", "other-owner.json");
    writeFileSync(file, JSON.stringify({ ...fields, vehicle_reg_number: "OTHER-1002" }));
    const other = { ...ctx.env, RENTCTL_USER_ID: "1002" };
    const made = await runMain(["vehicle", "create", "--from-file", file, "-q"], other);
    expect(made.code, made.stderr).toBe(0);
    expect((await runMain(["vehicle", "list"], other)).code).toBe(0);
    expect((await runMain(["vehicle", "list"], ctx.env)).code).toBe(0);
    const mine = await runBuilt(["completion", "__complete", "vehicles"], ctx.env);
    expect(mine.stdout).toMatch(/^1\tB-SC 1001$/m);
    expect(mine.stdout).not.toContain("OTHER-1002");
    const theirs = await runBuilt(["completion", "__complete", "vehicles"], other);
    expect(theirs.stdout).toMatch(new RegExp(`^${made.stdout.trim()}\tOTHER-1002$`, "m"));
    expect(theirs.stdout).not.toContain("B-SC 1001");
  });
});
