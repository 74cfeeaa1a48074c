import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countedSandbox, ndjson, vehicleRow } from "../fleet/helpers.js";
import { runMain } from "../helpers/cli.js";

const ROOT_DIR = resolve(import.meta.dirname, "../..");

/**
 * Never misread the user (issue "strict input", Values): a member that is
 * not a contract field is refused alike from --from-file and from --set (exit
 * 2, did-you-mean, nothing sent) unless --allow-unknown; --set is always
 * absolute; a relative change whose result leaves the field's range is
 * refused with the arithmetic shown, never clamped, unless --clamp. Every
 * refusal is proven to send nothing: the requests are counted by a proxy.
 */
let sb: Awaited<ReturnType<typeof countedSandbox>>;
let ctx: typeof sb.ctx;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  sb = await countedSandbox();
  ({ ctx, env } = sb);
});
afterAll(() => sb.close());

const writes = () => sb.writes();
const price = async (id: number) =>
  Number(JSON.parse((await runMain(["vehicle", "get", String(id), "-o", "json"], ctx.env)).stdout).price_per_day);

/** Runs the command and checks it was refused: exit 2, no write sent, the price unchanged. */
async function refused(args: string[], input?: string) {
  const before = writes();
  const was = await price(1);
  const r = await runMain(args, env, { input });
  expect(r.code, r.stderr).toBe(2);
  expect(writes() - before, "writes sent").toBe(0);
  expect(await price(1)).toBe(was);
  expect(r.stderr).not.toMatch(/at .*\.js:\d+/);
  return r;
}

describe("members outside the contract", () => {
  it("--set with a typo: exit 2, did you mean, nothing sent (it used to warn and report success)", async () => {
    const r = await refused(["vehicle", "edit", "1", "--set", "price_per_dy=1"]);
    expect(r.stderr).toMatch(/1 member is not a field of the v302 contract \(nothing was sent\)/);
    expect(r.stderr).toMatch(/--set price_per_dy: not a contract field \(did you mean price_per_day/);
    expect(r.stderr).toMatch(/--allow-unknown/);
  });

  it("--from-file: the same rule, naming the file's member", async () => {
    const r = await refused(["vehicle", "edit", "1", "--from-file", "-"], '{"price_per_day": 51, "turbo": 1}');
    expect(r.stderr).toContain("stdin: turbo");
  });

  it("--allow-unknown sends it as given, with a warning", async () => {
    const s = await runMain(["vehicle", "edit", "1", "--set", "turbo=1", "--allow-unknown", "--dry-run"], env);
    expect(s.code, s.stderr).toBe(0);
    expect(s.stderr).toMatch(
      /warning: --set turbo: not a field of the v302 contract; sent as given \(--allow-unknown\)/,
    );
    // --strict (the old opt-in) is still accepted and refuses, as the default does
    await refused(["vehicle", "edit", "1", "--set", "turbo=1", "--strict"]);
  });
});

describe("values mean one thing", () => {
  it("--set is absolute: price_per_day=-5 is -5 (refused by the range), +5 and *1.1 are refused as relative forms", async () => {
    const minus = await refused(["vehicle", "edit", "1", "--set", "price_per_day=-5"]);
    expect(minus.stderr).toMatch(/price_per_day: must be at least 0, got -5/);
    for (const v of ["+5", "*1.1", "+10%"]) {
      const r = await refused(["vehicle", "edit", "1", "--set", `price_per_day=${v}`]);
      expect(r.stderr).toMatch(/--set takes absolute values only/);
      expect(r.stderr).toMatch(new RegExp(`--price-per-day \\${v[0]}`));
    }
  });

  it("a relative change below 0 is refused with the arithmetic, never clamped", async () => {
    const was = await price(1);
    const r = await refused(["vehicle", "edit", "1", "--price-per-day", "-100000", "--yes"]);
    expect(r.stderr).toMatch(new RegExp(`vehicle 1 \\(.+\\): price_per_day ${was} -100000 = ${was - 100000} < 0`));
    expect(r.stderr).toMatch(/nothing was sent/);
    expect(r.stderr).toMatch(/--clamp/);
  });

  it("--clamp sets the bound and says so per vehicle", async () => {
    const was = await price(2);
    const r = await runMain(["vehicle", "edit", "2", "--price-per-day", "-100000", "--clamp", "--yes"], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      new RegExp(`vehicle 2 \\(.+\\): price_per_day ${was} -100000 = ${was - 100000} < 0: clamped to 0 \\(--clamp\\)`),
    );
    expect(await price(2)).toBe(0);
  });
});

describe("option values", () => {
  it("are case-insensitive where no two differ only by case: -o JSON, --env Sandbox", async () => {
    const r = await runMain(["vehicle", "get", "1", "-o", "JSON"], env);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).id).toBe(1);
    const e = await runMain(["catalog", "currencies", "--env", "Sandbox", "-o", "Json", "-q"], {
      ...env,
      RENTCTL_ENV: undefined,
      RENTCTL_BASE_URL: undefined,
    });
    expect(e.code, e.stderr).toBe(0);
    const bad = await runMain(["vehicle", "get", "1", "-o", "jsn"], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Allowed choices are table, json, ndjson, csv, yaml/);
  });
});

describe("a year is a year", () => {
  it("--year 2024 is the year (its catalog id), id:N an id, an unknown year exit 2 with nothing sent", async () => {
    const year = async () =>
      Number(
        JSON.parse((await runMain(["vehicle", "get", "3", "-o", "json"], ctx.env)).stdout).vehicle_year_of_issue_id,
      );
    const r = await runMain(["vehicle", "edit", "3", "--year", "2024"], env);
    expect(r.code, r.stderr).toBe(0);
    expect(await year()).toBe(17); // the sandbox's year ids: 1 = 2008 ... 19 = 2026
    expect((await runMain(["vehicle", "edit", "3", "--year", "id:3"], env)).code).toBe(0);
    expect(await year()).toBe(3);
    const s = await runMain(["vehicle", "edit", "3", "--set", "vehicle_year_of_issue_id=2020"], env);
    expect(s.code, s.stderr).toBe(0);
    expect(await year()).toBe(13);
    const before = writes();
    const bad = await runMain(["vehicle", "edit", "3", "--year", "1999"], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/no year named "1999"/);
    expect(writes()).toBe(before);
  });

  it("in a fleet file too: 2024 (number or text) is the year, 16 an id (exported files keep working)", async () => {
    const file = join(ctx.env.HOME!, "years.ndjson");
    writeFileSync(
      file,
      ndjson([
        vehicleRow("YR-1", { vehicle_year_of_issue_id: 2024 }),
        vehicleRow("YR-2", { vehicle_year_of_issue_id: "2020" }),
        vehicleRow("YR-3", { vehicle_year_of_issue_id: 16 }),
      ]),
    );
    const r = await runMain(["vehicle", "import", file, "--user", "1003"], env);
    expect(r.code, r.stderr).toBe(0);
    const list = await runMain(["vehicle", "list", "--all", "-o", "ndjson", "--user", "1003"], ctx.env);
    const years = Object.fromEntries(
      list.stdout
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { vehicle_reg_number: string; vehicle_year_of_issue_id: number })
        .map((v) => [v.vehicle_reg_number, Number(v.vehicle_year_of_issue_id)]),
    );
    expect(years).toMatchObject({ "YR-1": 17, "YR-2": 13, "YR-3": 16 });
  });
});

describe("catalog values by name in arrays", () => {
  it("--vehicle-benefits-id and --set take names for each member; an unknown name is exit 2 with nothing sent", async () => {
    const r = await runMain(
      ["vehicle", "edit", "2", "--vehicle-benefits-id", "Unlimited mileage", "--vehicle-benefits-id", "3"],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    const benefits = async () =>
      JSON.parse((await runMain(["vehicle", "get", "2", "-o", "json"], ctx.env)).stdout).vehicle_benefits_id;
    expect(await benefits()).toEqual([2, 3]); // the sandbox's benefits: 2 Unlimited mileage, 3 Free delivery
    const s = await runMain(["vehicle", "edit", "2", "--set", "vehicle_benefits_id=free cancellation"], env);
    expect(s.code, s.stderr).toBe(0);
    expect(await benefits()).toEqual([1]);
    const before = writes();
    const bad = await runMain(["vehicle", "edit", "2", "--vehicle-benefits-id", "Jetpack"], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/no item named "Jetpack"/);
    expect(writes()).toBe(before);
  });
});

describe("one member of a list: --add / --remove", () => {
  const benefitsOf = async (id: number) =>
    JSON.parse((await runMain(["vehicle", "get", String(id), "-o", "json"], ctx.env)).stdout).vehicle_benefits_id ?? [];

  it("adds and removes by name or id, keeping the other members; a rerun changes nothing", async () => {
    await runMain(["vehicle", "edit", "3", "--set", "vehicle_benefits_id=1", "--set", "vehicle_benefits_id=4"], env);
    expect(await benefitsOf(3)).toEqual([1, 4]);
    const dry = await runMain(
      ["vehicle", "edit", "HH-SC 3003", "--add", "benefits=Unlimited mileage", "--remove", "benefit=1", "--dry-run"],
      env,
    );
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/vehicle_benefits_id: \+2 -1/);
    expect(await benefitsOf(3)).toEqual([1, 4]);
    const r = await runMain(
      ["vehicle", "edit", "3", "--add", "benefits=Unlimited mileage", "--remove", "benefit=1"],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(await benefitsOf(3)).toEqual([4, 2]);
    const before = writes();
    const again = await runMain(["vehicle", "edit", "3", "--add", "vehicle_benefits_id=2"], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/nothing to edit/);
    expect(writes()).toBe(before);
  });

  it("over a --where selection: only the vehicles that lack the member are planned", async () => {
    const r = await runMain(
      ["vehicle", "edit", "--where", "id>=1", "--add", "benefits=24/7 roadside assistance", "--dry-run"],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout, r.stdout).toMatch(/1 to change, 0 to remove, 2 unchanged/); // vehicles 1 and 3 have it already
    expect(r.stdout).toMatch(/vehicle 2\)\n\s+vehicle_benefits_id: \+4/);
  });

  it("refuses, with nothing sent: an unknown list, a one-value field, a parallel delivery list, an unknown name, whole and by member", async () => {
    const cases: Array<[string[], RegExp]> = [
      [["--add", "benefts=2"], /not a list field of a vehicle[\s\S]*did you mean vehicle_benefits_id/],
      [["--add", "price_per_day=3"], /holds one value, not a list[\s\S]*--set price_per_day=VALUE/],
      [["--add", "vehicle_delivery_address_fixed_place=1"], /three parallel lists/],
      [["--add", "benefits=Jetpack"], /no item named "Jetpack"/],
      [["--add", "benefits=2", "--set", "vehicle_benefits_id=1"], /given whole and by --add\/--remove/],
      [["--add", "benefits=2", "--remove", "benefits=2"], /both added and removed/],
      [["--add", "benefits"], /expected FIELD=VALUE/],
    ];
    for (const [args, message] of cases) {
      const r = await refused(["vehicle", "edit", "1", ...args]);
      expect(r.stderr).toMatch(message);
    }
  });
});

describe("selections a person writes", () => {
  const ids = async (...args: string[]) => {
    const r = await runMain(["vehicle", "list", ...args, "-q"], env);
    expect(r.code, r.stderr).toBe(0);
    return r.stdout.split("\n").filter(Boolean).map(Number);
  };

  it("--where model=NAME resolves model words (brand, model, configuration); an unknown one is exit 2", async () => {
    expect(await ids("--where", "model=corolla")).toEqual([1]);
    expect(await ids("--where", "model=Toyota Corolla hybrid")).toEqual([1]);
    expect(await ids("--where", "model!=corolla")).toEqual([2, 3]);
    const r = await runMain(["vehicle", "list", "--where", "model=zeppelin"], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no model named "zeppelin"[\s\S]*hint: give brand or model words/);
  });

  it("--where id, and an unknown field suggests the nearest instead of listing 70", async () => {
    expect(await ids("--where", "id>=2")).toEqual([2, 3]);
    const near = await runMain(["vehicle", "list", "--where", "prise_per_day<50"], env);
    expect(near.code).toBe(2);
    expect(near.stderr).toMatch(/did you mean price_per_day/);
    const far = await runMain(["vehicle", "list", "--where", "colour=red"], env);
    expect(far.code).toBe(2);
    expect(far.stderr).not.toMatch(/vehicle_protection_plans/);
    expect(far.stderr).toMatch(/id, brand, model, available/);
  });

  it("--free-on DATE / --where available=…: free on every day, in either date form; available!= is blocked", async () => {
    const block = await runMain(["vehicle", "calendar", "2", "--block", "24.12.2026..26.12.2026", "--yes"], env);
    expect(block.code, block.stderr).toBe(0);
    expect(await ids("--free-on", "25.12.2026")).toEqual([1, 3]);
    expect(await ids("--where", "available=2026-12-26")).toEqual([1, 3]);
    expect(await ids("--where", "available=2026-12-27")).toEqual([1, 2, 3]);
    expect(await ids("--free-on", "2026-12")).toEqual([1, 3]);
    expect(await ids("--where", "available!=2026-12-20..2026-12-24")).toEqual([2]);
    const bad = await runMain(["vehicle", "list", "--free-on", "31.02.2026"], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--free-on "31.02.2026": "31.02.2026" is not a date/);
  });
});

describe("dates and names in every input", () => {
  const get = async (id: number) =>
    JSON.parse((await runMain(["vehicle", "get", String(id), "-o", "json"], ctx.env)).stdout);

  it("--set and field flags take ISO or d.m.Y dates; the wire gets the contract's form", async () => {
    const r = await runMain(
      ["vehicle", "edit", "1", "--set", "vehicle_availability_calendar=2026-12-31,1.1.2027"],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    expect((await get(1)).vehicle_availability_calendar).toBe("31.12.2026,01.01.2027");
    await refused(["vehicle", "edit", "1", "--set", "vehicle_availability_calendar=2026-02-30"]);
  });

  it("a fleet file: dates in either form and as a list, list members by name", async () => {
    const file = join(ctx.env.HOME!, "dates-names.yaml");
    writeFileSync(
      file,
      [
        "- vehicle_reg_number: B-SC 1001",
        "  vehicle_availability_calendar: [2027-01-02, 3.1.2027]",
        "  vehicle_benefits_id: [Unlimited mileage, Free delivery]",
        "",
      ].join("\n"),
    );
    const dry = await runMain(["vehicle", "diff", "-f", file], env);
    expect(dry.code, dry.stderr).toBe(8);
    expect(dry.stdout).toMatch(/vehicle_availability_calendar: \+02\.01\.2027 \+03\.01\.2027/);
    const r = await runMain(["vehicle", "apply", "-f", file, "--yes"], env);
    expect(r.code, r.stderr).toBe(0);
    const v = await get(1);
    expect(v.vehicle_availability_calendar).toBe("02.01.2027,03.01.2027");
    expect(v.vehicle_benefits_id).toEqual([2, 3]);
    const again = await runMain(["vehicle", "diff", "-f", file], env);
    expect(again.code, again.stdout).toBe(0);
  });

  it("--fields takes only the resource's own fields: no vehicle field in an extra's list", async () => {
    const r = await runMain(["extra", "list", "--fields", "vehicle_reg_number"], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--fields: unknown field vehicle_reg_number/);
    const v = await runMain(["vehicle", "list", "--fields", "option_id"], env);
    expect(v.code).toBe(2);
  });
});

describe("the dry run shows what each catalog value stands for", () => {
  it("a year, a name and an id, each with the resolved id and its name", async () => {
    const r = await runMain(
      ["vehicle", "edit", "1", "--year", "2024", "--currency", "eur", "--vehicle-benefits-id", "2", "--dry-run"],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/vehicle_year_of_issue_id: "2024" → id 17 \(2024\)/);
    expect(r.stderr).toMatch(/vehicle_currency_id: "eur" → id 1 \(Euro \(EUR\)\)/);
    expect(r.stderr).toMatch(/vehicle_benefits_id: id 2 \(Unlimited mileage\)/);
  });
});

describe("file errors in words", () => {
  it("a missing --from-file says no such file, not ENOENT (exit 2, nothing sent)", async () => {
    const r = await refused(["vehicle", "edit", "1", "--from-file", "/nonexistent/rentctl-in.json"]);
    expect(r.stderr).toMatch(/cannot read \/nonexistent\/rentctl-in\.json: no such file/);
    expect(r.stderr).not.toMatch(/ENOENT/);
  });
});

describe("found by a new owner's trial", () => {
  const ids = async (...args: string[]) => {
    const r = await runMain(["vehicle", "list", ...args, "-q"], env);
    expect(r.code, r.stderr).toBe(0);
    return r.stdout.split("\n").filter(Boolean).map(Number);
  };

  it("--where year compares years (a number from 1000 up), id:N an id", async () => {
    for (const [id, year] of [
      ["1", "2019"],
      ["2", "2024"],
      ["3", "2012"],
    ])
      expect((await runMain(["vehicle", "edit", id!, "--year", year!], env)).code).toBe(0);
    expect(await ids("--where", "year=2024")).toEqual([2]);
    expect(await ids("--where", "year=id:17")).toEqual([2]);
    expect(await ids("--where", "year<2015")).toEqual([3]);
    expect(await ids("--where", "year>=2019")).toEqual([1, 2]);
    expect(await ids("--where", "year!=2024")).toEqual([1, 3]);
  });

  it("a relative form in a file or --from-file is refused, not read as another number", async () => {
    const file = join(ctx.env.HOME!, "rel.json");
    writeFileSync(file, JSON.stringify([{ vehicle_reg_number: "B-SC 1001", price_per_day: "+5" }]));
    const before = writes();
    const d = await runMain(["vehicle", "apply", "-f", file, "--yes"], env);
    expect(d.code).toBe(2);
    expect(d.stderr).toMatch(/price_per_day: "\+5" is a relative change/);
    expect(writes()).toBe(before);
    const f = await refused(["vehicle", "edit", "1", "--from-file", "-"], '{"price_per_day": "+5"}');
    expect(f.stderr).toMatch(/relative/);
  });

  it("+5 in a field flag of a verb that takes no relative value is refused, never read as 5", async () => {
    const before = writes();
    const u = await refused(["extra", "update", "1", "--price", "+5"]);
    expect(u.stderr).toMatch(/"\+5" is a relative value: only `vehicle edit` takes those/);
    const c = await refused([
      "vehicle",
      "create",
      "--from-file",
      join(ROOT_DIR, "examples", "vehicle.yaml"),
      "--set",
      "vehicle_reg_number=REL-C",
      "--price-per-day",
      "+5",
    ]);
    expect(c.stderr).toMatch(/relative value/);
    expect(writes()).toBe(before);
  });

  it("impossible dates are refused everywhere, naming only the bad entry", async () => {
    const r = await refused(["vehicle", "edit", "1", "--set", "vehicle_availability_calendar=2026-12-24,31.02.2026"]);
    expect(r.stderr).toMatch(/not "31\.02\.2026"/);
    expect(r.stderr).not.toMatch(/"2026-12-24"/);
    await refused(["vehicle", "edit", "1", "--vehicle-availability-calendar", "29.02.2027"]);
  });

  it("--from-file has the fleet files' guards; a NUL escape is refused", async () => {
    const deep = await refused(
      ["vehicle", "edit", "1", "--from-file", "-"],
      `{"a": ${"[".repeat(50_000)}${"]".repeat(50_000)}}`,
    );
    expect(deep.stderr).toMatch(/nesting deeper than 64/);
    expect(deep.stderr).not.toMatch(/this is a bug/);
    const dup = await refused(
      ["vehicle", "edit", "1", "--from-file", "-"],
      '{"price_per_day": 1, "price_per_day": 99}',
    );
    expect(dup.stderr).toMatch(/"price_per_day" is given twice/);
    const nul = await refused(["vehicle", "edit", "1", "--from-file", "-"], '{"pickup_location": "Ber\\u0000lin"}');
    expect(nul.stderr).toMatch(/contains a NUL character/);
  });

  it("the same vehicle named twice is one; a huge id is refused before sending, a catalog id is sent as given", async () => {
    const dry = await runMain(["vehicle", "edit", "1", "b-sc 1001", "--price-per-day", "+1", "--dry-run"], env);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/1 to change/);
    const huge = await refused(["vehicle", "get", "99999999999999999999"]);
    expect(huge.stderr).toMatch(/too large/);
    // issue 41 item 5: an id is sent as given (the server is the judge of its ids), no catalog consulted
    const year = await runMain(["vehicle", "edit", "1", "--year", "id:99", "--dry-run", "-o", "json"], env);
    expect(year.code, year.stderr).toBe(0);
    expect(year.stderr).not.toMatch(/no item with id 99/);
    expect(year.stdout).toMatch(/vehicle_year_of_issue_id=99&/);
    const cleared = await refused(["vehicle", "edit", "1", "--set", "price_per_day="]);
    expect(cleared.stderr).toMatch(/cannot clear price_per_day: the contract requires it/);
  });
});

describe("edit keeps the identity rule", () => {
  it("a registration number another vehicle has is refused (exit 2, nothing sent) unless --allow-duplicate", async () => {
    const taken = await refused(["vehicle", "edit", "3", "--reg", "b-sc 1001"]);
    expect(taken.stderr).toMatch(/vehicle 1 already has registration number "b-sc 1001"/);
    await refused(["vehicle", "edit", "1", "2", "--reg", "SAME-1"]);
    const own = await runMain(["vehicle", "edit", "1", "--reg", "B-SC 1001", "--dry-run"], env);
    expect(own.code, own.stderr).toBe(0);
    const ok = await runMain(["vehicle", "edit", "3", "--reg", "B-SC 1001", "--allow-duplicate", "--dry-run"], env);
    expect(ok.code, ok.stderr).toBe(0);
  });
});
