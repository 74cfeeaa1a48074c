import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, runMain, sandboxEnv } from "../helpers/cli.js";
import { ndjson, vehicleRow } from "./helpers.js";

/** `vehicle diff` through the CLI (in-process) against the sandbox: the plan's lines, counts, json and exit codes. */

let sandbox: Awaited<ReturnType<typeof sandboxEnv>>;
const dir = mkdtempSync(join(tmpdir(), "fleet-diff-"));
const USER = "1002";
let base: Record<string, unknown>[] = [];
let ids = new Map<string, number>();

const cli = (args: string[], input?: string) => runMain([...args, "--user", USER], sandbox.env, { input });
const file = (name: string, rows: Record<string, unknown>[]) => {
  const p = join(dir, name);
  writeFileSync(p, ndjson(rows));
  return p;
};

beforeAll(async () => {
  sandbox = await sandboxEnv();
  const seed = Array.from({ length: 4 }, (_, i) =>
    // (the last description ends in a space: a csv export must keep it)
    vehicleRow(`DF-${i}`, {
      price_per_day: 50 + i,
      vehicle_benefits_id: [1, 2],
      vehicle_description: `car ${i}${i === 3 ? " " : ""}`,
    }),
  );
  const imp = await cli(["vehicle", "import", file("seed.ndjson", seed)]);
  expect(imp.code).toBe(0);
  const exp = await cli(["vehicle", "export", "-", "--with-ids"]);
  expect(exp.code).toBe(0);
  const all = exp.stdout
    .split("\n")
    .filter(Boolean)
    .map((l) => json<Record<string, unknown>>(l));
  ids = new Map(all.map((r) => [String(r.vehicle_reg_number), Number(r.vehicle_id)]));
  base = all.map(({ vehicle_id: _v, vehicle_images: _i, vehicle_extras: _e, ...r }) => r);
}, 120_000);
afterAll(async () => {
  await sandbox.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

const edited = (changes: Record<string, Record<string, unknown>>, extra: Record<string, unknown>[] = []) =>
  [...base.map((r) => ({ ...r, ...(changes[String(r.vehicle_reg_number)] ?? {}) })), ...extra].filter(
    (r) => !("drop" in r),
  );

describe("vehicle diff (CLI in-process, sandbox)", () => {
  it("the account's own export: nothing to do, exit 0", async () => {
    const r = await cli(["vehicle", "diff", "-f", file("same.ndjson", base)]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(`Plan: 0 to create, 0 to change, 0 to remove, ${base.length} unchanged.\n`);
    expect(r.code).toBe(0);
    // every format of `vehicle export`, --exact too (a value with a space at its end survives csv)
    for (const ext of ["csv", "json", "yaml", "ndjson"]) {
      const f = join(dir, `own.${ext}`);
      expect((await cli(["vehicle", "export", f])).code).toBe(0);
      const d = await cli(["vehicle", "diff", "-f", f, "--exact"]);
      expect(d.code, `${ext}: ${d.stdout}${d.stderr}`).toBe(0);
    }
  });

  it("create / change / unchanged: the exact lines, exit 8; -v lists the unchanged; --prune lists removals", async () => {
    const f = file(
      "drift.ndjson",
      edited({ "DF-1": { price_per_day: 55, vehicle_benefits_id: [2, 3] }, "DF-2": { drop: true } }, [
        vehicleRow("DF-NEW", { price_per_day: 45 }),
      ]),
    );
    const r = await cli(["vehicle", "diff", "-f", f]);
    expect(r.code).toBe(8);
    expect(r.stderr).toBe("");
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^\+ DF-NEW \(row \d+\): vehicle_model_id \d+/);
    expect(lines[0]).toContain("price_per_day 45");
    expect(lines.slice(1)).toEqual([
      `~ DF-1 (vehicle ${ids.get("DF-1")})`,
      "    price_per_day: 51 → 55",
      "    vehicle_benefits_id: +3 -1",
      `Plan: 1 to create, 1 to change, 0 to remove, ${base.length - 2} unchanged.`,
    ]);

    const v = await cli(["vehicle", "diff", "-f", f, "-v"]);
    expect(v.code).toBe(8);
    expect(v.stdout).toContain(`= DF-0 (vehicle ${ids.get("DF-0")})\n`);
    expect(v.stdout).not.toContain("= DF-1");

    const p = await cli(["vehicle", "diff", "-f", f, "--prune"]);
    expect(p.code).toBe(8);
    expect(p.stdout).toContain(`- DF-2 (vehicle ${ids.get("DF-2")})\n`);
    expect(p.stdout).toContain(`Plan: 1 to create, 1 to change, 1 to remove, ${base.length - 2} unchanged.`);
  });

  it("reads stdin with -f - --format, and csv (empty cells are absent)", async () => {
    const piped = await cli(
      ["vehicle", "diff", "-f", "-", "--format", "ndjson"],
      ndjson(edited({ "DF-0": { price_per_day: 1 } })),
    );
    expect(piped.code).toBe(8);
    expect(piped.stdout).toContain("    price_per_day: 50 → 1\n");
    const csv = join(dir, "fleet.csv");
    writeFileSync(csv, "vehicle_reg_number,price_per_day,vehicle_description,vehicle_benefits_id\nDF-1,51,,2|1\n");
    const r = await cli(["vehicle", "diff", "-f", csv]);
    expect(r.stdout).toBe("Plan: 0 to create, 0 to change, 0 to remove, 1 unchanged.\n");
    expect(r.code).toBe(0);
  });

  it("colour only when stdout is a terminal", async () => {
    const { NO_COLOR: _n, ...env } = sandbox.env;
    const f = file("colour.ndjson", edited({ "DF-1": { price_per_day: 56 } }));
    const tty = await runMain(["vehicle", "diff", "-f", f, "--user", USER], env, { tty: { stdout: true } });
    expect(tty.code).toBe(8);
    expect(tty.stdout).toContain("\u001b[33m~ DF-1");
    const piped = await runMain(["vehicle", "diff", "-f", f, "--user", USER], env, { tty: { stderr: true } });
    expect(piped.code).toBe(8);
    expect(piped.stdout).toContain("~ DF-1");
    expect(piped.stdout).not.toContain("\u001b[");
  });

  it("-o json: the plan as data", async () => {
    const f = file("json.ndjson", edited({ "DF-3": { price_per_day: "60" } }));
    const r = await cli(["vehicle", "diff", "-f", f, "-o", "json"]);
    expect(r.code).toBe(8);
    expect(json(r.stdout)).toEqual({
      create: [],
      change: [
        {
          vehicle_id: ids.get("DF-3"),
          reg: "DF-3",
          row: base.findIndex((x) => x.vehicle_reg_number === "DF-3") + 1,
          fields: { price_per_day: { from: 53, to: 60 } },
        },
      ],
      remove: [],
      unchanged: base.length - 1,
    });
  });

  it("a row manages only its fields; values compare as typed; sets ignore order; --exact clears the rest", async () => {
    const row = { vehicle_reg_number: "df-0 ", price_per_day: "50", vehicle_benefits_id: [2, 1] };
    const f = file("partial.ndjson", [row]);
    const r = await cli(["vehicle", "diff", "-f", f]);
    expect(r.stdout).toBe("Plan: 0 to create, 0 to change, 0 to remove, 1 unchanged.\n");
    expect(r.code).toBe(0);
    const exact = await cli(["vehicle", "diff", "-f", f, "--exact"]);
    expect(exact.code).toBe(8);
    expect(exact.stdout).toContain('    vehicle_description: "car 0" → (empty)\n');
    expect(exact.stdout).not.toMatch(/vehicle_model_id:/); // required fields are never cleared
  });

  it("an invalid file: exit 2, the problems listed by row, no plan", async () => {
    const f = file("bad.ndjson", [
      { ...base[0], price_per_dya: 3 },
      { vehicle_reg_number: "X", price_per_day: "many" },
    ]);
    const r = await cli(["vehicle", "diff", "-f", f]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/row 1 \(.+\) price_per_dya: unknown key \(did you mean price_per_day\?\)/);
    const dup = await cli(["vehicle", "diff", "-f", file("dup.ndjson", [base[0]!, base[0]!])]);
    expect(dup.code).toBe(2);
    expect(dup.stderr).toMatch(/the same vehicle as row 1/);
  });
});
