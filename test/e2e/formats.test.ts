import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml, stringify as toYaml } from "yaml";
import { sampleVehicleInput } from "../../src/sandbox/server.js";
import { runBuilt, sandboxEnv } from "../helpers/cli.js";

// Every output format and every input format through the BUILT CLI: a
// bundling mistake once broke yaml in dist/ while every unit test passed.

let ctx: Awaited<ReturnType<typeof sandboxEnv>>;
beforeAll(async () => {
  ctx = await sandboxEnv();
});
afterAll(() => ctx.cleanup());
const cli = (args: string[], input?: string) => runBuilt(args, ctx.env, input);

/** Parse stdout in a format back into data (csv/table: rows of cells). */
function parseOut(format: string, text: string): unknown {
  switch (format) {
    case "json":
      return JSON.parse(text);
    case "ndjson":
      return text
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l));
    case "yaml":
      return parseYaml(text);
    default:
      return text.trimEnd().split(/\r?\n/);
  }
}

const FORMATS = ["table", "json", "ndjson", "csv", "yaml"] as const;
const SUBJECTS: Array<[string, string[]]> = [
  ["a list", ["vehicle", "list"]],
  ["a record", ["vehicle", "get", "1"]],
  ["a catalog", ["catalog", "currencies"]],
  ["a Flexible body", ["catalog", "setup"]],
];

describe("every output format through dist/", () => {
  for (const [what, args] of SUBJECTS) {
    for (const format of FORMATS) {
      it(`${what} (${args.join(" ")}) -o ${format}`, async () => {
        const r = await cli([...args, "-o", format]);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).not.toMatch(/unexpected|is not a function/);
        expect(r.stdout.length).toBeGreaterThan(0);
        const data = parseOut(format, r.stdout);
        if (format === "json" || format === "yaml") {
          if (what === "a record") expect(data).toMatchObject({ id: 1 });
          if (what === "a list" || what === "a catalog") expect(Array.isArray(data)).toBe(true);
          // a Flexible body prints its record, never the envelope
          if (what === "a Flexible body") expect(data).not.toHaveProperty("is_success");
        }
        if (format === "ndjson" && what === "a list") expect((data as unknown[]).length).toBeGreaterThan(1);
        if (format === "csv" && what === "a list") expect((data as string[])[0]).toMatch(/^id,/);
        if (format === "table" && what === "a list") expect((data as string[])[0]).toMatch(/^ID\s+REG NUMBER/);
        if (format === "table" && what === "a Flexible body") expect(r.stdout).not.toMatch(/is_success|\{"/);
      });
    }
  }

  for (const format of FORMATS) {
    it(`an error with -o ${format}: one line on stderr (json: an error object), exit 5, nothing on stdout`, async () => {
      const r = await cli(["vehicle", "get", "999999", "-o", format]);
      expect(r.code).toBe(5);
      expect(r.stdout).toBe("");
      if (format === "json" || format === "ndjson") expect(JSON.parse(r.stderr).error.exit_code).toBe(5);
      else expect(r.stderr).toMatch(/^error: /);
    });
  }

  it("--raw prints the body as received, meta included, even as a table", async () => {
    const r = await cli(["vehicle", "get", "1", "--raw"]);
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body).toHaveProperty("meta");
    expect(body).toHaveProperty("is_success", true);
  });

  it("--json takes a field list (gh style) while plain --json still works", async () => {
    const list = await cli(["vehicle", "list", "--json", "id,price_per_day"]);
    expect(list.code).toBe(0);
    for (const v of JSON.parse(list.stdout)) expect(Object.keys(v)).toEqual(["id", "price_per_day"]);
    const plain = await cli(["--json", "vehicle", "get", "1"]);
    expect(plain.code).toBe(0);
    expect(JSON.parse(plain.stdout).id).toBe(1);
    const bad = await cli(["vehicle", "list", "--fields", "nope"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/hint: fields: id, /); // nothing close: the fields of these records
    const typo = await cli(["vehicle", "list", "--fields", "id,price_per_dya"]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/did you mean price_per_day/);
    expect(typo.stderr).not.toMatch(/option_id/); // no extra fields suggested for a vehicle
  });
});

describe("every input format through dist/ (--from-file and stdin)", () => {
  const fields = () => {
    const { user_id: _u, ...f } = sampleVehicleInput(1001);
    return f;
  };
  const encoders: Record<string, (o: Record<string, unknown>) => string> = {
    json: (o) => JSON.stringify(o),
    yaml: (o) => toYaml(o),
  };
  let n = 0;
  for (const [fmt, enc] of Object.entries(encoders)) {
    for (const via of ["file", "stdin"]) {
      it(`${fmt} via ${via}`, async () => {
        const reg = `FMT-${fmt}-${via}-${n++}`;
        const text = enc({ ...fields(), vehicle_reg_number: reg });
        let r: Awaited<ReturnType<typeof cli>>;
        if (via === "file") {
          const file = join(ctx.env.RENTCTL_DATA_DIR!, "..", `car-${n}.${fmt}`);
          writeFileSync(file, text);
          r = await cli(["vehicle", "create", "--from-file", file, "-o", "json"]);
        } else r = await cli(["vehicle", "create", "--from-file", "-", "-o", "json"], text);
        expect(r.code, r.stderr).toBe(0);
        expect(JSON.parse(r.stdout).vehicle_reg_number).toBe(reg);
      });
    }
  }

  it("reads what vehicle export --names writes (catalog names become ids); an unknown name: exit 2, nothing sent", async () => {
    const dir = join(ctx.env.RENTCTL_DATA_DIR!, "..");
    const exported = join(dir, "named.yaml");
    expect((await cli(["vehicle", "export", exported, "--names", "--user", "1001"])).code).toBe(0);
    const [first] = parseYaml(readFileSync(exported, "utf8")) as Array<Record<string, unknown>>;
    expect(first!.vehicle_model_id).toMatch(/[A-Za-z]/); // a name, not an id
    const one = join(dir, "one-named.yaml");
    writeFileSync(one, toYaml({ ...first, vehicle_reg_number: "NAMED-1" }));
    const r = await cli(["vehicle", "create", "--from-file", one, "--user", "1003", "-o", "json"]);
    expect(r.code, r.stderr).toBe(0);
    const made = JSON.parse(r.stdout) as Record<string, unknown>;
    const orig = JSON.parse((await cli(["vehicle", "get", "1", "--user", "1001", "-o", "json"])).stdout);
    for (const f of ["vehicle_model_id", "vehicle_reg_number_country", "vehicle_currency_id", "vehicle_class_id"])
      expect(made[f], f).toEqual(orig[f]);
    writeFileSync(one, toYaml({ ...first, vehicle_reg_number: "NAMED-2", vehicle_model_id: "Tesla Model Q" }));
    const bad = await cli(["vehicle", "create", "--from-file", one, "--user", "1003"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/a value names nothing in the catalogs \(nothing was sent\)[\s\S]*vehicle_model_id/);
  });

  it("an empty or comment-only yaml file is named so (exit 2, nothing sent)", async () => {
    const r = await cli(["vehicle", "create", "--from-file", "-"], "# nothing here yet\n");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--from-file: expected one object of fields \(wire names\), got an empty document/);
  });
});
