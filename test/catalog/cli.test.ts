import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, runMain, sandboxEnv } from "../helpers/cli.js";

/** Catalog names through the built CLI against the sandbox (German names are in its seed data). */
describe("catalog names, locales and vehicle configurations (built CLI)", () => {
  let sb: Awaited<ReturnType<typeof sandboxEnv>>;
  beforeAll(async () => {
    sb = await sandboxEnv();
  });
  afterAll(async () => sb.cleanup());

  it("--segment takes an English or a German name with --locale de; results come in German", async () => {
    for (const segment of ["motorcycles", "Motorräder"]) {
      const r = await runMain(["catalog", "classes", "--segment", segment, "--locale", "de", "-o", "json"], sb.env);
      expect(r.code, r.stderr).toBe(0);
      const items = json<Array<{ segment_id: number; name: string }>>(r.stdout);
      expect(items.length).toBeGreaterThan(0);
      expect(items.every((i) => i.segment_id === 2)).toBe(true);
    }
    const boats = await runMain(
      ["catalog", "brands", "--segment", "boats", "--locale", "Deutsch", "-o", "json"],
      sb.env,
    );
    expect(boats.code, boats.stderr).toBe(0);
    expect(json<Array<{ segment_id: number }>>(boats.stdout).every((b) => b.segment_id === 3)).toBe(true);
  }, 60_000);

  it("an unknown --locale name is a usage error listing the known locales", async () => {
    const r = await runMain(["catalog", "classes", "--locale", "klingon"], sb.env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/error: --locale: no locale/);
    expect(r.stderr).toMatch(/known: 40 English \(en\), 25 Deutsch \(de\)/);
    expect(r.stdout).toBe("");
  }, 60_000);

  it("a --locale id needs no lookup: no locale list is requested, the server judges an unknown id", async () => {
    const ok = await runMain(["catalog", "classes", "--locale", "25", "-v", "-o", "json"], sb.env);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stderr).not.toMatch(/GET \S*\/locales/);
    const bad = await runMain(["catalog", "classes", "--locale", "99", "-v"], sb.env);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/locale_id: no locale with id 99/);
    expect(bad.stderr).not.toMatch(/GET \S*\/locales/);
    // a catalog that takes no locale sends none
    expect((await runMain(["catalog", "years", "--locale", "99"], sb.env)).code).toBe(0);
  }, 60_000);

  it("keeps fetched catalogs in the data dir, one file per catalog and parameters", () => {
    const files = readdirSync(join(sb.env.RENTCTL_DATA_DIR!, "cache"));
    expect(files).toEqual(
      expect.arrayContaining(["catalog-locales.json", "catalog-segments.json", "catalog-segments.locale_id-25.json"]),
    );
  });

  it("vehicle edit --brand --model --configuration resolves the configuration id level by level", async () => {
    const r = await runMain(
      [
        "vehicle",
        "edit",
        "1",
        "--brand",
        "Toyota",
        "--model",
        "Corolla",
        "--configuration",
        "2.0 Hybrid",
        "--dry-run",
        "-o",
        "json",
      ],
      sb.env,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/vehicle_model_id=1004&/);
  }, 60_000);

  it("a model where a configuration belongs is caught with a hint naming its configurations", async () => {
    const byName = await runMain(
      ["vehicle", "edit", "1", "--brand", "Toyota", "--model", "Corolla", "--dry-run"],
      sb.env,
    );
    expect(byName.code).toBe(2);
    expect(byName.stderr).toMatch(/"Corolla" is a model; vehicle_model_id is one of its configurations/);
    expect(byName.stderr).toMatch(/1003 1\.8 Hybrid Comfort, 1004 2\.0 Hybrid GR Sport/);
    const byId = await runMain(["vehicle", "create", "--brand", "toyota", "--model", "101", "--dry-run"], sb.env);
    expect(byId.code).toBe(2);
    expect(byId.stderr).toMatch(/--model 101 is the model Yaris, not a vehicle configuration id/);
    const help = await runMain(["vehicle", "create", "--help"], sb.env);
    // the help names what the id is (a configuration, found through brand and model), as short as create's help must be
    expect(help.stdout).toMatch(/Vehicle configuration id \(brand -> model ->\s+configuration\)/);
    expect(help.stdout).toMatch(/--configuration/);
  }, 60_000);

  it("vehicle list remembers ids and registration numbers; completion offers them, and boat brands after --segment boats", async () => {
    const list = await runMain(["vehicle", "list", "-o", "json"], sb.env);
    expect(list.code, list.stderr).toBe(0);
    const first = json<Array<{ id: number; vehicle_reg_number: string }>>(list.stdout)[0]!;
    const ids = await runMain(["completion", "__complete", "vehicles"], sb.env);
    expect(ids.stdout).toContain(`${first.id}\t${first.vehicle_reg_number}\n`);
    // The boat brands were fetched above (catalog brands --segment boats): offered when the line names boats.
    const brands = await runMain(["completion", "__complete", "catalog", "brands"], {
      ...sb.env,
      RENTCTL_COMPLETE_WORDS: "catalog\nmodels\n--segment\nboats\n--brand",
    });
    expect(brands.stdout).toMatch(/^Beneteau\t13$/m);
    const currencies = await runMain(["completion", "__complete", "catalog", "currencies", "--ids"], sb.env);
    expect(currencies.stdout).toBe("");
  }, 60_000);
});
