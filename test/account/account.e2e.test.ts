import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { expectGolden } from "../fleet/golden.js";
import { type FaultProxy, startProxy } from "../fleet/helpers.js";
import { json, ROOT, runMain, sandboxEnv } from "../helpers/cli.js";

/**
 * The account as a file, through the built CLI against the sandbox (issue 25's fidelity tests):
 * export → diff plans nothing for every seeded owner (with and without --names); a promotion into
 * an empty owner loses nothing (the vehicles keep their extras); an edited file applies and undoes
 * as one op; an inconsistent file is refused before anything is sent.
 */

let sandbox: Awaited<ReturnType<typeof sandboxEnv>>;
let proxy: FaultProxy;
const dir = mkdtempSync(join(tmpdir(), "account-e2e-"));
const OWNERS = ["1001", "1002", "1003"];
const path = (name: string) => join(dir, name);
const cli = (user: string, args: string[]) => runMain([...args, "--user", user], sandbox.env);
const viaProxy = (user: string, args: string[]) =>
  runMain([...args, "--user", user], { ...sandbox.env, RENTCTL_BASE_URL: proxy.url });
const posts = () => [...proxy.counts].filter(([k]) => k.startsWith("POST")).reduce((n, [, c]) => n + c, 0);

type Doc = { extras: Record<string, unknown>[]; vehicles: Record<string, unknown>[] };

beforeAll(async () => {
  sandbox = await sandboxEnv();
  proxy = await startProxy(sandbox.sb.url);
}, 60_000);
afterAll(async () => {
  await proxy.close();
  await sandbox.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

describe("account export → diff (every seeded owner)", () => {
  for (const owner of OWNERS)
    for (const names of [false, true])
      for (const ext of ["yaml", "json"])
        it(`owner ${owner}${names ? " --names" : ""} (.${ext}): no changes, exit 0 (and with --exact)`, async () => {
          const f = path(`own-${owner}-${names}.${ext}`);
          const exp = await cli(owner, ["account", "export", f, ...(names ? ["--names"] : [])]);
          expect(exp.code, exp.stderr).toBe(0);
          for (const exact of [[], ["--exact"]]) {
            const d = await cli(owner, ["account", "diff", "-f", f, ...exact]);
            expect(d.stderr).toBe("");
            expect(d.code, d.stdout).toBe(0);
            expect(d.stdout).toMatch(/0 to create, 0 to change, 0 to remove/);
          }
        });

  it("vehicle export --names (csv, ndjson, json, yaml) → vehicle diff --exact: no changes for 1001 and 1002", async () => {
    for (const owner of ["1001", "1002"])
      for (const ext of ["csv", "ndjson", "json", "yaml"]) {
        const f = path(`veh-${owner}.${ext}`);
        expect((await cli(owner, ["vehicle", "export", f, "--names"])).code).toBe(0);
        expect(readFileSync(f, "utf8")).not.toMatch(/vehicle_model_id"?[:,]\s*"?\d/);
        for (const exact of [[], ["--exact"]]) {
          // --exact leaves the extras ids alone: the export writes them only with --with-ids
          const d = await cli(owner, ["vehicle", "diff", "-f", f, ...exact]);
          expect(d.code, `${owner} .${ext} ${exact}: ${d.stdout}${d.stderr}`).toBe(0);
        }
      }
  });

  it("the export is an account document: extras (names), vehicles referencing them by identity, no ids", async () => {
    const f = path("names-1001.yaml");
    expect((await cli("1001", ["account", "export", f, "--names"])).code).toBe(0);
    const text = readFileSync(f, "utf8");
    expect(text.startsWith("# yaml-language-server: $schema=")).toBe(true);
    const doc = parse(text) as Doc;
    expect(doc.extras.map((e) => e.option)).toEqual(["Child seat", "Additional driver", "Snow chains"]);
    expect(doc.extras[2]).toMatchObject({ period: 2, active: "off", currency: "EUR" });
    const b = doc.vehicles.find((v) => v.vehicle_reg_number === "B-SC 1001")!;
    expect(b.extras).toEqual(["Child seat", "Additional driver"]);
    // every catalog value that has a name is named (issue 25, "Fidelity")
    expect(b).toMatchObject({
      vehicle_model_id: "Toyota Corolla (1.8 Hybrid Comfort)",
      vehicle_segment_id: "Cars",
      vehicle_class_id: "Compact",
      vehicle_year_of_issue_id: 2023,
      vehicle_reg_number_country: "Germany",
      vehicle_currency_id: "Euro",
      vehicle_fuel_policy: "Full to full",
      vehicle_protection_plans_deposit_return_period_card: "Within 3 days",
      vehicle_delivery_address_fixed_place: ["Airport", "Railway station"],
      vehicle_benefits_id: ["Free cancellation", "24/7 roadside assistance"],
      vehicle_options_id: ["Air conditioning", "Bluetooth", "Rear-view camera"],
      vehicle_payment_types: ["Debit card", "Credit card"],
    });
    // no catalog id is left in any vehicle of any seeded owner (a year is a year: >= 1000)
    for (const owner of OWNERS) {
      const d = parse((await cli(owner, ["account", "export", "-", "--names"])).stdout) as Doc;
      for (const v of d.vehicles)
        for (const [k, val] of Object.entries(v)) {
          if (!/_id$|_country$|_fixed_place$|_payment_types$|_return_period_|_fuel_policy$/.test(k)) continue;
          for (const m of Array.isArray(val) ? val : [val])
            expect(
              typeof m === "string" || (k === "vehicle_year_of_issue_id" && Number(m) >= 1000),
              `${owner} ${k}`,
            ).toBe(true);
        }
    }
    expect(text).not.toMatch(/vehicle_extras|vehicle_images|extra_id/);
  });
});

describe("a file over 2 MiB streams (src/files/doc-stream.ts) and plans as a small one does", () => {
  // padded past WHOLE_FILE_BYTES with what both formats ignore (json whitespace, yaml comments)
  const PAD = 2.2 * 1024 * 1024;
  const padded = (ext: string, text: string) =>
    ext === "json" ? `${text}${" ".repeat(PAD)}\n` : `${`# padding\n`.repeat(PAD / 10)}${text}`;
  for (const ext of ["json", "yaml"])
    it(`.${ext}: no changes; an edited price and a reference by name planned; vehicles before extras read too`, async () => {
      const small = path(`stream-1001.${ext}`);
      expect((await cli("1001", ["account", "export", small, "--names"])).code).toBe(0);
      const text = readFileSync(small, "utf8");
      const big = path(`stream-1001-big.${ext}`);
      writeFileSync(big, padded(ext, text));
      const same = await cli("1001", ["account", "diff", "-f", big, "--exact"]);
      expect(same.stderr).toBe("");
      expect(same.code, same.stdout).toBe(0);

      const doc = (ext === "json" ? JSON.parse(text) : parse(text)) as Doc;
      doc.vehicles[1]!.price_per_day = 777;
      // a block scalar in an item: read item by item by the yaml library like every other
      doc.vehicles[2]!.vehicle_description = "two\nlines";
      // vehicles first, extras after: held until the extras are read, then planned alike
      const reordered = { vehicles: doc.vehicles, extras: doc.extras };
      const edited = path(`stream-1001-edited.${ext}`);
      writeFileSync(edited, padded(ext, ext === "json" ? JSON.stringify(reordered, null, 2) : stringify(reordered)));
      const d = await cli("1001", ["account", "diff", "-f", edited, "-o", "json"]);
      expect(d.code, d.stderr).toBe(8);
      const plan = json<{ vehicles: { change: Array<{ fields: Record<string, { to: unknown }> }> } }>(d.stdout);
      expect(plan.vehicles.change.map((c) => c.fields.price_per_day?.to)).toEqual([777, undefined]);
      expect(plan.vehicles.change[1]?.fields.vehicle_description?.to).toBe("two\nlines");
    });
});

describe("-o markdown (the review summary) through the built CLI", () => {
  it("account diff and vehicle diff: golden files; --markdown is the same; other commands refuse it (exit 2)", async () => {
    const f = path("review.yaml");
    expect((await cli("1001", ["account", "export", f, "--names"])).code).toBe(0);
    const doc = parse(readFileSync(f, "utf8")) as Doc;
    doc.extras[0]!.price = 6;
    doc.extras.push({ option: "GPS navigator", price: 3, currency: "EUR", period: 1, quantity: 5, active: "on" });
    doc.vehicles[0]!.price_per_day = 49;
    doc.vehicles[1]!.extras = ["GPS navigator"];
    doc.vehicles = doc.vehicles.filter((v) => v.vehicle_reg_number !== "HH-SC 3003");
    writeFileSync(f, stringify(doc));
    const clean = (s: string) => s.replaceAll(dir, "DIR");
    const acc = await cli("1001", ["account", "diff", "-f", f, "--prune", "-o", "markdown"]);
    expect(acc.code, acc.stderr).toBe(8);
    expectGolden("account-diff-cli.md", clean(acc.stdout));
    expect((await cli("1001", ["account", "diff", "-f", f, "--prune", "--markdown"])).stdout).toBe(acc.stdout);
    // vehicles only: the extras section is not planned, so the new extra is unknown to a vehicle diff
    doc.vehicles[1]!.extras = ["Child seat"];
    writeFileSync(f, stringify(doc));
    const veh = await cli("1001", ["vehicle", "diff", "-f", f, "--prune", "-o", "markdown"]);
    expect(veh.code, veh.stderr).toBe(8);
    expectGolden("vehicle-diff-cli.md", clean(veh.stdout));
    const other = await cli("1001", ["vehicle", "list", "-o", "markdown"]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/markdown is printed by `account diff` and `vehicle diff` only/);
  });
});

describe("a plan printed from a file with names shows names", () => {
  it("text and markdown name the catalog values beside their ids; an id-only file's plan stays ids", async () => {
    for (const names of [true, false]) {
      const f = path(`plan-names-${names}.yaml`);
      expect((await cli("1001", ["account", "export", f, ...(names ? ["--names"] : [])])).code).toBe(0);
      const doc = parse(readFileSync(f, "utf8")) as Doc;
      doc.vehicles[0]!.vehicle_class_id = names ? "SUV" : 4;
      writeFileSync(f, stringify(doc));
      const text = await cli("1001", ["account", "diff", "-f", f]);
      expect(text.code).toBe(8);
      expect(text.stdout).toContain(names ? "vehicle_class_id: 2 (Compact) → 4 (SUV)" : "vehicle_class_id: 2 → 4");
      const md = await cli("1001", ["vehicle", "diff", "-f", f, "-o", "markdown"]);
      expect(md.stdout).toContain(
        names ? "| `vehicle_class_id` | 2 (Compact) | 4 (SUV) |" : "| `vehicle_class_id` | 2 | 4 |",
      );
    }
  });
});

describe("examples/account.yaml", () => {
  it("applies cleanly to the empty owner (3 extras, 4 vehicles using them), then plans nothing; undone as one op", async () => {
    const f = join(ROOT, "examples", "account.yaml");
    const a = await cli("1003", ["account", "apply", "-f", f, "--yes"]);
    expect(a.code, a.stderr).toBe(0);
    expect(a.stderr).toMatch(/created 7,.*failed 0/);
    const d = await cli("1003", ["account", "diff", "-f", f]);
    expect(d.code, d.stdout).toBe(0);
    const op = /rentctl undo (\S+)/.exec(a.stderr)?.[1];
    expect((await cli("1003", ["undo", op!, "--yes"])).code).toBe(0);
    const empty = parse((await cli("1003", ["account", "export", "-"])).stdout) as Doc;
    expect(empty).toEqual({ extras: [], vehicles: [] });
  }, 60_000);

  it("every export validates against `account schema` (ajv, 2020-12)", async () => {
    const schema = await cli("1001", ["account", "schema"]);
    expect(schema.code).toBe(0);
    const validate = new Ajv2020({ strict: false }).compile(json(schema.stdout) as object);
    for (const names of [[], ["--names"]]) {
      const exp = await cli("1001", ["account", "export", "-", ...names]);
      expect(validate(parse(exp.stdout)), JSON.stringify(validate.errors)).toBe(true);
    }
  });
});

describe("promotion into an empty owner", () => {
  it("export --names of 1001 → apply to 1003 → export --names again: identical; vehicles keep their extras", async () => {
    const src = path("promote.yaml");
    expect((await cli("1001", ["account", "export", src, "--names"])).code).toBe(0);
    const a = await cli("1003", ["account", "apply", "-f", src, "--yes"]);
    expect(a.code, a.stderr).toBe(0);
    expect(a.stderr).toMatch(/created 6/);
    const back = path("promoted.yaml");
    expect((await cli("1003", ["account", "export", back, "--names"])).code).toBe(0);
    expect(readFileSync(back, "utf8")).toBe(readFileSync(src, "utf8"));
    const d = await cli("1003", ["account", "diff", "-f", src, "--exact"]);
    expect(d.code, d.stdout).toBe(0);
  }, 60_000);
});

describe("editing the file", () => {
  it("price of 3 vehicles and 1 extra, a new extra used by a new vehicle: diff (markdown, json), apply, undo as one op", async () => {
    const orig = path("edit-orig.yaml");
    expect((await cli("1002", ["account", "export", orig, "--names"])).code).toBe(0);
    // owner 1002 has 2 vehicles: add one more first, through the same apply
    const doc = parse(readFileSync(orig, "utf8")) as Doc;
    doc.extras[0]!.price = 9;
    doc.extras.push({ option: "GPS navigator", price: 3, currency: "EUR", period: 1, quantity: 5, active: "on" });
    for (const v of doc.vehicles) v.price_per_day = Number(v.price_per_day) + 1;
    const fresh: Record<string, unknown> = {
      ...doc.vehicles[0]!,
      vehicle_reg_number: "NEW-25",
      extras: ["GPS navigator"],
    };
    delete fresh.vehicle_vin;
    doc.vehicles.push(fresh);
    const edited = path("edit.yaml");
    writeFileSync(edited, stringify(doc));

    const md = await cli("1002", ["account", "diff", "-f", edited, "--markdown"]);
    expect(md.code).toBe(8);
    expect(md.stdout).toContain("- **Extras:** 1 to create, 1 to update, 0 to switch, 0 to delete, 0 unchanged");
    expect(md.stdout).toContain("- **Vehicles:** 1 to create, 2 to change, 0 to remove, 0 unchanged");
    expect(md.stdout).toContain("| + | GPS navigator (period 1) (row 2) | | | price 3, currency 1, quantity 5 |");
    expect(md.stdout).toMatch(/\| ~ \| Helmet \(period 1\) \(extra \d+\) \| `price` \| 5 \| 9 \|/);
    expect(md.stdout).toMatch(/\| \+ \| NEW-25 \(row 3\) \|.*"GPS navigator \(period 1, new\)"/);

    const js = await cli("1002", ["account", "diff", "-f", edited, "-o", "json"]);
    expect(js.code).toBe(8);
    const plan = json<{ extras: { create: unknown[]; update: unknown[] }; vehicles: { change: unknown[] } }>(js.stdout);
    expect(plan.extras.create).toHaveLength(1);
    expect(plan.vehicles.change).toHaveLength(2);

    const a = await cli("1002", ["account", "apply", "-f", edited, "--yes"]);
    expect(a.code, a.stderr).toBe(0);
    // extras are created and updated, vehicles created and changed: each counted under its own word
    expect(a.stderr).toMatch(
      /created 2, updated 1, changed \d+, switched 0, removed 0, deleted 0, conflict 0, failed 0/,
    );
    const op = /rentctl undo (\S+)/.exec(a.stderr)?.[1];
    expect(op).toBeDefined();
    const again = await cli("1002", ["account", "diff", "-f", edited]);
    expect(again.code, again.stdout).toBe(0);
    // the new vehicle uses the new extra
    const now = parse((await cli("1002", ["account", "export", "-", "--names"])).stdout) as Doc;
    expect(now.vehicles.find((v) => v.vehicle_reg_number === "NEW-25")?.extras).toEqual(["GPS navigator"]);

    // the undo list names it an account apply, and the undo counts its extras apart from its vehicles
    const list = JSON.parse((await cli("1002", ["undo", "-o", "json"])).stdout) as Array<{
      op: string;
      action: string;
    }>;
    expect(list.find((e) => e.op === op)?.action).toBe("account.apply");
    const u = await cli("1002", ["undo", op!, "--yes"]);
    expect(u.code, u.stderr).toBe(0);
    expect(u.stderr).toMatch(/undoing apply \S+ \(2 extras and \d+ vehicles\)/);
    expect(u.stderr).toMatch(
      /restored, 2 created extras and vehicles removed, 0 removed extras and vehicles re-created/,
    );
    const restored = await cli("1002", ["account", "diff", "-f", orig, "--prune"]);
    expect(restored.code, restored.stdout).toBe(0);
  }, 120_000);

  it("--prune of an extra a vehicle still uses: refused before anything is sent (exit 2, no write request)", async () => {
    const f = path("bad.yaml");
    expect((await cli("1001", ["account", "export", f, "--names"])).code).toBe(0);
    const doc = parse(readFileSync(f, "utf8")) as Doc;
    doc.extras = doc.extras.filter((e) => e.option !== "Child seat");
    doc.vehicles[0]!.price_per_day = 1;
    writeFileSync(f, stringify(doc));
    proxy.counts.clear();
    const r = await viaProxy("1001", ["account", "apply", "-f", f, "--prune", "--yes"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/row 1 \(B-SC 1001\) extras: uses Child seat.*--prune removes.*inconsistent/);
    expect(r.stderr).toMatch(/nothing was sent/);
    expect(posts()).toBe(0);
  }, 60_000);

  it("hand edits read as yaml means them: an alias to another vehicle's anchor; false is no price", async () => {
    const f = path("edits.yaml");
    expect((await cli("1001", ["account", "export", f])).code).toBe(0);
    const text = readFileSync(f, "utf8");
    // vehicle 1's price under an anchor of a non-ASCII name, vehicle 2's price an alias of it (found by a trial)
    const first = text.indexOf("  price_per_day: ");
    const second = text.indexOf("  price_per_day: ", first + 1);
    const lineEnd = (i: number) => text.indexOf("\n", i);
    const aliased = [
      text.slice(0, first),
      "  price_per_day: &überall 50",
      text.slice(lineEnd(first), second),
      "  price_per_day: *überall",
      text.slice(lineEnd(second)),
    ].join("");
    writeFileSync(f, aliased);
    const r = await cli("1001", ["account", "diff", "-f", f, "-o", "json"]);
    expect(r.code, r.stderr).toBe(8);
    const changes = (
      JSON.parse(r.stdout) as { vehicles: { change: Array<{ fields: Record<string, { to: unknown }> }> } }
    ).vehicles.change;
    expect(changes.map((c) => c.fields.price_per_day?.to)).toEqual([50, 50]);
    // a boolean where a price goes: refused, not read as 0
    writeFileSync(f, text.replace(/price_per_day: \d+/, "price_per_day: false"));
    const b = await cli("1001", ["account", "diff", "-f", f]);
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/row 1 \(B-SC 1001\) price_per_day: must be a whole number, got false/);
    // a key given twice in the second vehicle: the file and its line are named
    const lines = text.split("\n");
    const prices = lines.flatMap((l, n) => (l.startsWith("  price_per_day: ") ? [n] : []));
    const at = prices[1]!; // the second vehicle's price line (0-based)
    lines.splice(at + 1, 0, "  price_per_day: 51");
    writeFileSync(f, lines.join("\n"));
    const d = await cli("1001", ["account", "diff", "-f", f]);
    expect(d.code).toBe(2);
    expect(d.stderr).toContain(`${f}: not valid yaml: duplicated mapping key at line ${at + 2}, column 3:`);
  });

  it("two extras of the same identity: the diff names both ids and asks for extra_id", async () => {
    const f = path("dup.yaml");
    writeFileSync(
      f,
      stringify({
        extras: [
          { option: "Child seat", price: 5, currency: "EUR", period: 1, quantity: 4 },
          { option: "Child seat", price: 6, currency: "EUR", period: 1, quantity: 4 },
        ],
      }),
    );
    const r = await cli("1001", ["account", "diff", "-f", f]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/extras row 2: the same extra as extras row 1 \(Child seat \(period 1\)\).*extra_id/);
  });

  it("a fleet file (a plain list) manages vehicles only: extras are neither planned nor pruned", async () => {
    const f = path("fleet.json");
    writeFileSync(f, "[]");
    const r = await cli("1001", ["account", "diff", "-f", f]);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/Extras/);
  });
});

describe("vehicle diff / apply of an account file (vehicles only)", () => {
  it("the vehicles' extras: references resolve against the account's extras; the extras section is not planned", async () => {
    for (const names of [[], ["--names"]]) {
      const f = path(`vehicles-only${names.length}.yaml`);
      expect((await cli("1001", ["account", "export", f, ...names])).code).toBe(0);
      const same = await cli("1001", ["vehicle", "diff", "-f", f, "--exact"]);
      expect(same.stderr).toBe("");
      expect(same.code, same.stdout).toBe(0);
    }
    const f = path("vehicles-only.yaml");
    expect((await cli("1001", ["account", "export", f, "--names"])).code).toBe(0);
    const doc = parse(readFileSync(f, "utf8")) as Doc;
    // B-SC 1001 swaps Additional driver for Snow chains; the extras section's edit is ignored (vehicles only)
    doc.vehicles[0]!.extras = ["Child seat", "Snow chains"];
    doc.extras[0]!.price = 99;
    writeFileSync(f, stringify(doc));
    const d = await cli("1001", ["vehicle", "diff", "-f", f, "-o", "json"]);
    expect(d.code, d.stderr).toBe(8);
    const plan = json<{ change: Array<{ reg: string; fields: Record<string, { from: unknown; to: unknown }> }> }>(
      d.stdout,
    );
    expect(plan.change).toHaveLength(1);
    expect(plan.change[0]!.fields.vehicle_extras).toEqual({ from: [1, 2], to: [1, 3] });
    const a = await cli("1001", ["vehicle", "apply", "-f", f, "--yes"]);
    expect(a.code, a.stderr).toBe(0);
    expect((await cli("1001", ["vehicle", "diff", "-f", f])).code).toBe(0);
    expect(json<{ price: number }>((await cli("1001", ["extra", "get", "1", "-o", "json"])).stdout).price).toBe(5);
    const op = /rentctl undo (\S+)/.exec(a.stderr)?.[1];
    expect((await cli("1001", ["undo", op!, "--yes"])).code).toBe(0);

    // an extra only the file has: refused, pointing at account diff; nothing sent
    doc.vehicles[0]!.extras = ["GPS navigator"];
    writeFileSync(f, stringify(doc));
    proxy.counts.clear();
    const bad = await viaProxy("1001", ["vehicle", "apply", "-f", f, "--yes"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/row 1 \(B-SC 1001\) extras: no extra GPS navigator in the account.*account diff/);
    expect(posts()).toBe(0);
  }, 60_000);
});

describe("extras as managed links", () => {
  it("extra get names the vehicles that use it; extra delete lists them, and its undo re-creates and re-attaches", async () => {
    const got = await cli("1001", ["extra", "get", "2"]);
    expect(got.code).toBe(0);
    // the card has a "Used by" section (stdout); -o json keeps the server's record and says it on stderr
    expect(got.stdout).toMatch(/\nUsed by\n\s+vehicle 1\s+B-SC 1001\n/);
    expect((await cli("1001", ["extra", "get", "3"])).stdout).toMatch(/\nUsed by\n\s+Vehicles\s+none\n/);
    const gotJson = await cli("1001", ["extra", "get", "2", "-o", "json"]);
    expect(json<Record<string, unknown>>(gotJson.stdout)).not.toHaveProperty("used_by");
    expect(gotJson.stderr).toMatch(/used by 1 vehicle: 1 \(B-SC 1001\)/);
    // no terminal, neither --yes nor --force: the vehicles listed, exit 2, nothing sent
    proxy.counts.clear();
    const refused = await viaProxy("1001", ["extra", "delete", "2"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/extra 2 is used by 1 vehicle: 1 \(B-SC 1001\)/);
    expect(refused.stderr).toMatch(/refusing to delete an extra without confirmation/);
    expect(posts()).toBe(0);
    const del = await cli("1001", ["extra", "delete", "2", "--force"]);
    expect(del.code, del.stderr).toBe(0);
    expect(del.stderr).toMatch(/extra 2 is used by 1 vehicle: 1 \(B-SC 1001\); deleting it takes it off them/);
    const op = /rentctl undo (\S+)/.exec(del.stderr)?.[1];
    const u = await cli("1001", ["undo", op!]);
    expect(u.code, u.stderr).toBe(0);
    const made = /re-created as extra (\d+)/.exec(u.stderr)?.[1];
    expect(u.stderr).toMatch(new RegExp(`extra ${made} re-attached to vehicle 1, which used extra 2`));
    const v = json<{ vehicle_extras: number[] }>((await cli("1001", ["vehicle", "get", "1", "-o", "json"])).stdout);
    expect(v.vehicle_extras).toContain(Number(made));
  });
});

describe("mass-removal guard", () => {
  it("counts the extras --prune deletes: 2 of 3 is refused (exit 2, nothing sent) unless --allow-mass-delete", async () => {
    const f = path("mass.yaml");
    expect((await cli("1001", ["account", "export", f, "--names"])).code).toBe(0);
    const doc = parse(readFileSync(f, "utf8")) as Doc;
    doc.extras = doc.extras.slice(0, 1);
    for (const v of doc.vehicles) if (v.extras) v.extras = ["Child seat"];
    writeFileSync(f, stringify(doc));
    proxy.counts.clear();
    const r = await viaProxy("1001", ["account", "apply", "-f", f, "--prune", "--yes"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /refusing to apply: --prune would remove 2 of the account's 3 extras \(more than half\); nothing was sent/,
    );
    expect(posts()).toBe(0);
  });
});

describe("extra enable / disable", () => {
  it("idempotent: switches only when the state differs", async () => {
    const off1 = await cli("1001", ["extra", "disable", "3"]);
    expect(off1.code).toBe(0);
    expect(off1.stderr).toMatch(/already off; nothing sent/);
    const on = await cli("1001", ["extra", "enable", "3", "-o", "json"]);
    expect(json<{ switched: boolean; state: string }>(on.stdout)).toMatchObject({ switched: true, state: "on" });
    const on2 = await cli("1001", ["extra", "enable", "3"]);
    expect(on2.stderr).toMatch(/already on; nothing sent/);
    expect((await cli("1001", ["extra", "disable", "3"])).code).toBe(0);
  });
});

describe("saved plans (diff --out, apply --plan)", () => {
  for (const noun of ["vehicle", "account"] as const)
    it(`${noun}: the reviewed plan applies; edited since → "plan is stale" naming it, 0 writes; another owner → refused; no key inside`, async () => {
      const owner = "1001";
      const f = path(`saved-${noun}.yaml`);
      expect((await viaProxy(owner, [noun, "export", f, "--names"])).code).toBe(0);
      const doc = parse(readFileSync(f, "utf8")) as Doc | Record<string, unknown>[];
      const vehicles = Array.isArray(doc) ? doc : doc.vehicles;
      for (const v of vehicles) v.vehicle_description = `reviewed ${noun}`;
      writeFileSync(f, stringify(doc));
      const planFile = path(`plan-${noun}.json`);
      const d = await viaProxy(owner, [noun, "diff", "-f", f, "--out", planFile]);
      expect(d.code, d.stderr).toBe(8);
      const text = readFileSync(planFile, "utf8");
      expect(text).not.toContain("sandbox-key-");
      expect(text).not.toMatch(/api_?key|authorization/i);
      const saved = json<{ target: { owner: number; address: string }; kind: string }>(text);
      expect(saved).toMatchObject({ kind: noun, target: { owner: 1001, address: proxy.url } });

      // someone edits one vehicle behind the plan's back (straight to the sandbox)
      expect((await cli(owner, ["vehicle", "edit", "2", "--set", "price_per_day=81"])).code).toBe(0);
      proxy.counts.clear();
      const stale = await viaProxy(owner, [noun, "apply", "--plan", planFile, "--yes"]);
      expect(stale.code).toBe(8);
      expect(stale.stderr).toMatch(/plan is stale/);
      expect(stale.stderr).toMatch(/vehicle 2 \(M-SC 2002, row 2\): changed since the plan was made/);
      expect(posts()).toBe(0);

      const other = await viaProxy("1002", [noun, "apply", "--plan", planFile, "--yes"]);
      expect(other.code).toBe(2);
      expect(other.stderr).toMatch(/another target[\s\S]*owner: plan: 1001, now: 1002/);
      expect(posts()).toBe(0);

      // a fresh plan applies exactly, and the account then matches the file
      expect((await viaProxy(owner, [noun, "diff", "-f", f, "--out", planFile])).code).toBe(8);
      const ok = await viaProxy(owner, [noun, "apply", "--plan", planFile, "--yes"]);
      expect(ok.code, ok.stderr).toBe(0);
      expect((await viaProxy(owner, [noun, "diff", "-f", f])).code).toBe(0);
      // restore for the next case
      const op = /rentctl undo (\S+)/.exec(ok.stderr)?.[1];
      expect((await viaProxy(owner, ["undo", op!, "--yes"])).code).toBe(0);
      expect((await cli(owner, ["vehicle", "edit", "2", "--set", "price_per_day=79"])).code).toBe(0);
    }, 120_000);
});
