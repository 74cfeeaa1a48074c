import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import AjvDraft04 from "ajv-draft-04";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import type { Finding } from "../../src/ops/lint/lint.js";
import { RULES } from "../../src/ops/lint/rules.js";
import { sampleVehicleInput } from "../../src/sandbox/seed.js";
import { json, ROOT, runBuilt, runMain, sandboxEnv } from "../helpers/cli.js";

/**
 * `rentctl lint` against the sandbox (issue 43's "done when"): an empty owner seeded with a
 * clean vehicle and one defect per rule fires every rule exactly where seeded; the contract
 * rules (which the sandbox itself refuses) on a file; a fresh export of a clean account finds no
 * error; SARIF validates against the 2.1.0 schema and points at the lines of a yaml and a json
 * file; `lint --fix --out` → `account apply --plan` → `lint` drops the fixed findings and `undo`
 * brings them back. The clock is injected: today is 2025-06-15 (so the catalog's 2026 is a year
 * in the future).
 */

const NOW = Date.parse("2025-06-15T12:00:00Z");
const OWNER = "1003";
let sandbox: Awaited<ReturnType<typeof sandboxEnv>>;
const dir = mkdtempSync(join(tmpdir(), "lint-e2e-"));
const path = (name: string) => join(dir, name);
const cli = (args: string[]) => runMain([...args, "--user", OWNER], sandbox.env, { overrides: { now: () => NOW } });

/** A 1x1 PNG (image uploads are checked to be images). */
const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d4948445200000001000000010806000000" +
    "1f15c4890000000d49444154789c63f80f00000101000518d84e0000000049454e44ae426082",
  "hex",
);

const day = (iso: string) => `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)}`;
const next30 = Array.from({ length: 30 }, (_, d) => day(new Date(NOW + d * 86_400_000).toISOString())).join(",");

let serial = 0;
/** A listing no rule finds anything in (each with its own VIN, registration and description). */
function clean(over: Record<string, unknown> = {}): Record<string, unknown> {
  const n = ++serial;
  // the sandbox's own sample vehicle (every rule of the contract met), made unique and complete
  const { user_id: _owner, ...sample } = sampleVehicleInput(1001);
  const row: Record<string, unknown> = {
    ...sample,
    vehicle_vin: `LINTVIN00000000${String(n).padStart(2, "0")}`,
    vehicle_reg_number: `B-LT ${n}`,
    vehicle_description: `Car number ${n}: clean and well kept, with air conditioning, cruise control, a large boot and a full tank.`,
    images: ["car.png"],
    extras: [{ option: 1, period: 1 }],
    ...over,
  };
  for (const k of Object.keys(row)) if (row[k] === undefined) delete row[k];
  return row;
}

/** Per live rule: the rows seeded (their registrations are where it must fire). */
const SHARED = "The same text on three listings, long enough for the short description rule of the linter to pass.";
const LIVE: Record<string, Record<string, unknown>[]> = {
  "price-rises": [clean({ price_per_14days: 60 })],
  "deposit-mismatch": [clean({ vehicle_protection_plans_deposit_price: 0 })],
  "duplicate-vin": [clean({ vehicle_vin: "LINTDUPVIN000001" }), clean({ vehicle_vin: "LINTDUPVIN000001" })],
  "minimum-age": [clean({ vehicle_minimal_age_to_rent: 17, vehicle_drivers_experience: 0 })],
  "driving-experience": [clean({ vehicle_drivers_experience: 4 })],
  "future-year": [clean({ vehicle_year_of_issue_id: 19 })],
  "past-calendar-dates": [clean({ vehicle_availability_calendar: "01.01.2025,20.12.2025" })],
  "calendar-blocked": [clean({ vehicle_availability_calendar: next30 })],
  "registration-spacing": [clean({ vehicle_reg_number: "B-SP  1" })],
  "no-images": [clean({ images: undefined })],
  "short-description": [clean({ vehicle_description: "Nice car." })],
  "duplicate-description": [
    clean({ vehicle_description: SHARED }),
    clean({ vehicle_description: SHARED }),
    clean({ vehicle_description: SHARED }),
  ],
  "text-whitespace": [clean({ pickup_location: "  Berlin, Alexanderplatz 1 " })],
  "inactive-complete": [clean({ vehicle_activity: 0 })],
};
/** Extras: the one every vehicle uses (clean), an unused one, a free one (used by the clean vehicle). */
const EXTRAS = [
  { option: 1, price: 5, currency: 1, period: 1, quantity: 4, active: "on" },
  { option: 4, price: 10, currency: 1, period: 2, quantity: 2, active: "on" },
  { option: 5, price: 0, currency: 1, period: 2, quantity: 2, active: "on" },
];
const CLEAN = clean({
  extras: [
    { option: 1, period: 1 },
    { option: 5, period: 2 },
  ],
});
/** Rules that are seeded by other means (contract: a file; duplicate-registration: a second create). */
const CONTRACT = ["required-field", "invalid-value", "text-too-long", "delivery-prices"];

async function lintJson(args: string[] = []): Promise<{ code: number; findings: Finding[]; stderr: string }> {
  const r = await cli(["lint", "-o", "json", ...args]);
  return { code: r.code, findings: r.stdout.trim() ? json<Finding[]>(r.stdout) : [], stderr: r.stderr };
}

beforeAll(async () => {
  sandbox = await sandboxEnv();
  writeFileSync(path("car.png"), PNG);
  const vehicles = [CLEAN, ...Object.values(LIVE).flat()];
  writeFileSync(path("seed.yaml"), stringify({ extras: EXTRAS, vehicles }));
  const seeded = await cli(["account", "apply", "-f", path("seed.yaml"), "--yes"]);
  expect(seeded.code, seeded.stderr).toBe(0);
  // a second vehicle of one registration (an account file cannot give one identity twice)
  const dup = clean({ vehicle_reg_number: "B-DUP 1" });
  const { images: _i, extras: _e, ...record } = dup;
  // with the clean vehicle's images (uploaded by the apply) and extras
  const listed = json<Array<Record<string, unknown>>>((await cli(["vehicle", "list", "-o", "json"])).stdout);
  const model = listed.find((v) => v.vehicle_reg_number === CLEAN.vehicle_reg_number)!;
  record.vehicle_images = model.vehicle_images;
  record.vehicle_extras = [(model.vehicle_extras as number[])[0]!];
  writeFileSync(path("dup.json"), JSON.stringify(record));
  expect((await cli(["vehicle", "create", "--from-file", path("dup.json")])).code).toBe(0);
  // create refuses a taken registration: the second goes through the raw escape hatch
  const fields = Object.entries({ ...record, vehicle_vin: "LINTVINRAW0000001", user_id: OWNER, locale_id: 40 }).flatMap(
    ([k, v]) => (Array.isArray(v) ? v.flatMap((m) => ["-f", `${k}[]=${m}`]) : ["-f", `${k}=${v}`]),
  );
  const raw = await cli(["api", "vehicles/create", "-X", "POST", ...fields]);
  expect(raw.code, raw.stderr).toBe(0);
}, 120_000);
afterAll(async () => {
  await sandbox.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

describe("lint of the live account (one seeded defect per rule)", () => {
  let findings: Finding[];
  beforeAll(async () => {
    const r = await lintJson();
    expect(r.code, r.stderr).toBe(0); // no error among the findings: --fail-on error passes
    findings = r.findings;
  });

  it("the clean vehicle has no finding", () => {
    expect(findings.filter((f) => f.registration === CLEAN.vehicle_reg_number)).toEqual([]);
  });

  for (const [rule, rows] of Object.entries(LIVE))
    it(`${rule} fires exactly on the vehicles seeded for it`, () => {
      const regs = findings.filter((f) => f.rule === rule).map((f) => f.registration);
      expect(regs.sort()).toEqual(rows.map((r) => String(r.vehicle_reg_number)).sort());
    });

  it("duplicate-registration fires on both vehicles of one registration, and nowhere else", () => {
    const got = findings.filter((f) => f.rule === "duplicate-registration");
    expect(got.map((f) => f.registration)).toEqual(["B-DUP 1", "B-DUP 1"]);
    expect(new Set(got.map((f) => f.vehicle_id)).size).toBe(2);
  });

  it("unused-extra and free-extra fire on their extras only", () => {
    expect(findings.filter((f) => f.rule === "unused-extra").map((f) => f.extra)).toEqual([
      "Additional driver (period 2)",
    ]);
    expect(findings.filter((f) => f.rule === "free-extra").map((f) => f.extra)).toEqual(["Snow chains (period 2)"]);
  });

  it("the contract rules find nothing in a live account (the marketplace refuses such listings)", () => {
    expect(findings.filter((f) => CONTRACT.includes(f.rule))).toEqual([]);
  });

  it("each finding names the vehicle by registration and model, and the field", () => {
    const f = findings.find((x) => x.rule === "price-rises")!;
    expect(f).toMatchObject({ severity: "warning", category: "consistency", field: "price_per_14days" });
    expect(f.model).toBe("Toyota Corolla (1.8 Hybrid Comfort)");
    expect(f.message).toBe(
      `${f.registration} (Toyota Corolla (1.8 Hybrid Comfort)) price_per_14days: 60 per day is above price_per_week 39: a longer rental costs more per day`,
    );
  });

  it("--fail-on warning exits 10; ndjson prints one finding per line; the table ends with the summary", async () => {
    const failing = await cli(["lint", "--fail-on", "warning"]);
    expect(failing.code).toBe(10);
    expect(failing.stderr).toMatch(/error: \d+ findings at or above warning/);
    const lines = failing.stdout.trim().split("\n");
    expect(lines.at(-1)).toMatch(/^0 errors, \d+ warnings, \d+ infos in 20 vehicles and 3 extras \(account\)$/);
    // worst first: the first group holds a warning
    expect(lines[1]).toMatch(/^ {2}warning/);
    const nd = await cli(["lint", "-o", "ndjson"]);
    const items = nd.stdout
      .trim()
      .split("\n")
      .map((l) => json<Finding>(l));
    expect(items.length).toBe((await lintJson()).findings.length);
  });

  it("-o markdown is a pull-request comment", async () => {
    const md = await cli(["lint", "-o", "markdown"]);
    expect(md.code).toBe(0);
    expect(md.stdout).toMatch(/^## rentctl lint\n\n\*\*0 errors, /);
    expect(md.stdout).toContain("| ⚠️ | warning | `price-rises` | `price_per_14days` |");
  });

  it("a config file turns rules off and re-rates them; an unknown id is exit 2 with did-you-mean", async () => {
    writeFileSync(path("cfg.yaml"), "rules:\n  short-description: off\n  price-rises: error\n");
    const r = await lintJson(["--config", path("cfg.yaml")]);
    expect(r.code).toBe(10);
    expect(r.findings.some((f) => f.rule === "short-description")).toBe(false);
    expect(r.findings.find((f) => f.rule === "price-rises")!.severity).toBe("error");
    writeFileSync(path("bad.yaml"), "rules:\n  price-rise: off\n");
    const bad = await cli(["lint", "--config", path("bad.yaml")]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown rule "price-rise" \(did you mean price-rises\?\)/);
    expect(bad.stdout).toBe("");
  });
});

describe("lint of files", () => {
  it("a fresh export of a clean account finds no error (every seeded owner, yaml and json)", async () => {
    for (const owner of ["1001", "1002"])
      for (const ext of ["yaml", "json"]) {
        const f = path(`export-${owner}.${ext}`);
        const env = sandbox.env;
        expect((await runMain(["account", "export", f, "--user", owner], env)).code).toBe(0);
        const r = await runMain(["lint", "-f", f, "-o", "json", "--user", owner], env);
        expect(r.code, r.stderr).toBe(0);
        expect(json<Finding[]>(r.stdout).filter((x) => x.severity === "error")).toEqual([]);
      }
  });

  /** A file with one contract defect per row (the sandbox refuses such records, so they live in files). */
  function contractDoc() {
    return {
      vehicles: [
        clean({ price_per_day: undefined, vehicle_reg_number: "F-REQ 1" }),
        clean({ vehicle_activity: 2, vehicle_reg_number: "F-VAL 1" }),
        clean({ vehicle_tuning_text: "x".repeat(5001), vehicle_reg_number: "F-LEN 1" }),
        clean({
          vehicle_delivery_address_fixed_place: [1, 2],
          vehicle_delivery_address_fixed_price: [10],
          vehicle_reg_number: "F-DEL 1",
        }),
      ].map(({ images: _i, extras: _e, ...row }) => row),
    };
  }
  const contractRows: Record<string, [string, string]> = {
    "required-field": ["F-REQ 1", "price_per_day"],
    "invalid-value": ["F-VAL 1", "vehicle_activity"],
    "text-too-long": ["F-LEN 1", "vehicle_tuning_text"],
    "delivery-prices": ["F-DEL 1", "vehicle_delivery_address_fixed_price"],
  };

  for (const ext of ["yaml", "json"] as const)
    it(`contract rules fire where seeded in a ${ext} file; SARIF validates and points at the field's line`, async () => {
      const f = path(`contract.${ext}`);
      const doc = contractDoc();
      const text = ext === "yaml" ? stringify(doc) : JSON.stringify(doc, null, 2);
      writeFileSync(f, text);
      const r = await runMain(["lint", "-f", f, "-o", "json", "--user", OWNER], sandbox.env, {
        overrides: { now: () => NOW },
      });
      expect(r.code).toBe(10);
      const findings = json<Finding[]>(r.stdout);
      for (const [rule, [reg, field]] of Object.entries(contractRows)) {
        const got = findings.filter((x) => x.rule === rule);
        expect(
          got.map((x) => [x.registration, x.field]),
          rule,
        ).toEqual([[reg, field]]);
        expect(got[0]!.severity).toBe("error");
      }

      const s = await runMain(["lint", "-f", f, "-o", "sarif", "--user", OWNER], sandbox.env, {
        overrides: { now: () => NOW },
      });
      expect(s.code).toBe(10);
      const log = json<{
        runs: Array<{
          results: Array<{
            ruleId: string;
            locations: Array<{
              physicalLocation?: { artifactLocation: { uri: string }; region: { startLine: number } };
            }>;
          }>;
        }>;
      }>(s.stdout);
      const schema = JSON.parse(readFileSync(join(ROOT, "test/fixtures/lint/sarif-schema-2.1.0.json"), "utf8"));
      // the schema is draft-04: ajv's draft-04 class (a CommonJS default export)
      const ajv = new AjvDraft04.default({ strict: false, allErrors: true });
      const validate = ajv.compile(schema);
      expect(validate(log), JSON.stringify(validate.errors)).toBe(true);

      const lines = text.split("\n");
      const results = log.runs[0]!.results;
      expect(results.length).toBe(findings.length);
      for (const [rule, [, field]] of Object.entries(contractRows)) {
        const res = results.find((x) => x.ruleId === rule)!;
        const loc = res.locations[0]!.physicalLocation!;
        expect(loc.artifactLocation.uri).toMatch(new RegExp(`contract\\.${ext}$`));
        const line = lines[loc.region.startLine - 1]!;
        if (rule === "required-field") {
          // the field is missing: the location is the vehicle's start
          expect(line).toMatch(ext === "yaml" ? /^ {2}- |^- / : /^\s*\{/);
        } else expect(line).toContain(ext === "yaml" ? `${field}:` : `"${field}":`);
      }
    });
});

describe("the built CLI (bundling: the yaml and json position readers load there too)", () => {
  for (const ext of ["yaml", "json"])
    it(`lint -f FILE.${ext} -o sarif and -o ndjson`, async () => {
      const f = path(`built.${ext}`);
      expect((await runBuilt(["account", "export", f, "--user", "1001"], sandbox.env)).code).toBe(0);
      const s = await runBuilt(["lint", "-f", f, "-o", "sarif", "--user", "1001"], sandbox.env);
      expect(s.code, s.stderr).toBe(0);
      const results = json<{
        runs: Array<{ results: Array<{ locations: Array<{ physicalLocation: { region: { startLine: number } } }> }> }>;
      }>(s.stdout).runs[0]!.results;
      expect(results.length).toBeGreaterThan(0);
      for (const r of results) expect(r.locations[0]!.physicalLocation.region.startLine).toBeGreaterThan(0);
      const nd = await runBuilt(["lint", "-f", f, "-o", "ndjson", "--user", "1001"], sandbox.env);
      expect(nd.stdout.trim().split("\n").length).toBe(results.length);
    });
});

describe("lint --fix --out → account apply --plan → lint → undo", () => {
  it("the fixed findings are gone after the apply and back after the undo", async () => {
    const before = (await lintJson()).findings;
    const FIXED = ["past-calendar-dates", "text-whitespace", "registration-spacing"];
    const fixable = (fs: Finding[]) => fs.filter((f) => FIXED.includes(f.rule));
    expect(fixable(before).length).toBe(3);
    expect(before.find((f) => f.rule === "registration-spacing")!.fix).toMatchObject({
      field: "vehicle_reg_number",
      value: "B-SP 1",
    });

    const plan = path("fixes.json");
    const fix = await cli(["lint", "--fix", "--out", plan, "-o", "json"]);
    expect(fix.code, fix.stderr).toBe(0);
    expect(fix.stderr).toMatch(/plan saved to .*fixes 3 findings \(3 vehicles to change\)/);
    // the registration's spacing is a change of the plan (the identity matches, the text differs)
    const saved = json<{ plan: { vehicles: { change: Array<{ reg: string; fields: Record<string, unknown> }> } } }>(
      readFileSync(plan, "utf8"),
    );
    expect(saved.plan.vehicles.change.find((c) => c.reg === "B-SP  1")?.fields).toEqual({
      vehicle_reg_number: { from: "B-SP  1", to: "B-SP 1" },
    });
    // lint changed nothing
    expect((await lintJson()).findings).toEqual(before);

    const apply = await cli(["account", "apply", "--plan", plan, "--yes"]);
    expect(apply.code, apply.stderr).toBe(0);
    const after = (await lintJson()).findings;
    expect(fixable(after)).toEqual([]);
    const key = (f: Finding) => `${f.rule}|${f.registration}|${f.field}`;
    expect(after.map(key)).toEqual(before.filter((f) => !fixable([f]).length).map(key));
    const listed = json<Array<Record<string, unknown>>>((await cli(["vehicle", "list", "-o", "json"])).stdout);
    expect(listed.map((v) => v.vehicle_reg_number)).toContain("B-SP 1");
    expect(listed.map((v) => v.vehicle_reg_number)).not.toContain("B-SP  1");

    const op = /undo with: rentctl undo (\d+)/.exec(apply.stderr)?.[1];
    expect(op, apply.stderr).toBeDefined();
    const undo = await cli(["undo", op!, "--yes"]);
    expect(undo.code, undo.stderr).toBe(0);
    const restored = (await lintJson()).findings;
    expect(restored.map(key), undo.stderr).toEqual(before.map(key));
  });

  it("--fix without --out, or with -f, is a usage error (nothing read)", async () => {
    expect((await cli(["lint", "--fix"])).code).toBe(2);
    expect((await cli(["lint", "--fix", "--out", path("x.json"), "-f", path("seed.yaml")])).code).toBe(2);
  });

  it("--fix with -f refuses with one clear line, and writes no plan", async () => {
    const r = await cli(["lint", "--fix", "--out", path("file-fixes.json"), "-f", path("seed.yaml")]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/--fix plans changes to the live account, not to a file: edit the file/);
    expect(() => readFileSync(path("file-fixes.json"))).toThrow();
  });

  it("a fix of a vehicle whose registration is on another vehicle too is left out (it could land on the other)", async () => {
    // B-DUP 1 is on two vehicles (seeded above): give one of them stray spaces in a text
    const listed = json<Array<Record<string, unknown>>>((await cli(["vehicle", "list", "-o", "json"])).stdout);
    const dup = listed.filter((v) => v.vehicle_reg_number === "B-DUP 1").map((v) => Number(v.vehicle_id ?? v.id));
    expect(dup.length).toBe(2);
    const edit = await cli(["vehicle", "edit", String(dup[1]), "--pickup-location", " Berlin, Alexanderplatz 1 "]);
    expect(edit.code, edit.stderr).toBe(0);
    const r = await cli(["lint", "--fix", "--out", path("dup-fixes.json"), "-o", "json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/1 fixable finding left out: its registration is on more than one vehicle/);
    const saved = json<{ input: { text: string } }>(readFileSync(path("dup-fixes.json"), "utf8"));
    expect(saved.input.text).not.toContain("B-DUP 1");
  });
});

it("the README's rule table lists every rule", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  for (const r of RULES) expect(readme).toContain(`| \`${r.id}\` | ${r.severity} |`);
});
