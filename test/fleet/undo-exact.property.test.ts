import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { activeOf } from "../../src/contract/extra-fields.js";
import type { JsonObject } from "../../src/contract/records.js";
import { startSandbox } from "../../src/sandbox/server.js";
import { extraCreateArgs, ROOT, runMain, tempHome } from "../helpers/cli.js";
import { ndjson, vehicleRow } from "./helpers.js";

/**
 * Issue 41 item 2, as one property over every write verb, in-process against
 * the in-process sandbox (no spawned CLI): for a random sequence of verbs,
 * each followed by `rentctl undo OP` of the entry it left, `account export`
 * equals the export taken before, apart from the ids the server assigns anew
 * (the export carries none; an undo that re-creates a record says which id
 * it got, and records come back in the order of their new ids, so both
 * documents are compared with their lists sorted).
 */

const dir = mkdtempSync(join(tmpdir(), "undo-exact-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const PNG = join(ROOT, "examples/images/corolla-front.png");

const VERBS = [
  "edit",
  "edit-many",
  "calendar",
  "remove",
  "activate",
  "deactivate",
  "vehicle-create",
  "extra-create",
  "extra-update",
  "extra-switch",
  "extra-enable",
  "extra-disable",
  "extra-delete",
  "image-attach",
  "vehicle-apply",
  "account-apply",
  "import",
] as const;
type Verb = (typeof VERBS)[number];

const stepGen = fc.record({
  verb: fc.constantFrom(...VERBS),
  pick: fc.nat({ max: 10 }),
  price: fc.integer({ min: 1, max: 900 }),
});

/** An export with its lists in a fixed order (ids are not in it: only their order can differ). */
function canonical(doc: string): unknown {
  const d = parse(doc) as Record<string, unknown>;
  const sorted = (v: unknown) => (Array.isArray(v) ? v.map((x) => JSON.stringify(x)).sort() : v);
  return { extras: sorted(d.extras), vehicles: sorted(d.vehicles) };
}

describe("every write verb leaves an exact undo (fast-check, in-process)", () => {
  it("verb then undo: account export as before, for random sequences of verbs", async () => {
    const seen = new Set<Verb>();
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(stepGen, { minLength: 1, maxLength: 3 }), async (steps) => {
        const sb = await startSandbox({ host: "127.0.0.1", port: 0, dataFile: null });
        const home = tempHome();
        const env = { ...home.env, RENTCTL_ENV: "sandbox", RENTCTL_BASE_URL: sb.url };
        const log: string[] = [];
        const run = async (args: string[], ok = true) => {
          const r = await runMain([...args, "--user", "1003"], env);
          log.push(`$ ${args.join(" ")} -> ${r.code}\n${r.stderr}`);
          if (ok && r.code !== 0) throw new Error(`${log.join("\n")}\n${r.stdout}`);
          return r;
        };
        const file = (name: string, text: string) => {
          const f = join(dir, `${++n}-${name}`);
          writeFileSync(f, text);
          return f;
        };
        try {
          // The account: two extras (the second used by a vehicle), three vehicles, one with blocked days.
          const extra = async (option: number) =>
            Number(
              (
                await run([...extraCreateArgs({ option, price: 8, currency: "EUR", period: 1, quantity: 2 }), "-q"])
              ).stdout.trim(),
            );
          await extra(1);
          const used = await extra(2);
          await run(["extra", "disable", String(used)]);
          await run([
            "vehicle",
            "import",
            file(
              "seed.ndjson",
              ndjson([
                vehicleRow("UX-1", { vehicle_extras: [used], vehicle_benefits_id: [1, 4] }),
                vehicleRow("UX-2", { vehicle_activity: 0 }),
                vehicleRow("UX-3", { vehicle_availability_calendar: ["2027-03-01", "2027-03-02"] }),
              ]),
            ),
          ]);
          const exportNow = async () => (await run(["account", "export"])).stdout;
          for (const step of steps) {
            const before = await exportNow();
            const listed = JSON.parse((await run(["vehicle", "list", "-o", "json"])).stdout) as {
              id: number;
              vehicle_activity?: number;
            }[];
            const vehicles = listed.map((r) => String(r.id));
            // activate an inactive vehicle, deactivate an active one (a verb that changes nothing sends nothing)
            const inState = (on: boolean) =>
              listed.filter((r) => Boolean(r.vehicle_activity) === on).map((r) => String(r.id));
            const listedExtras = JSON.parse((await run(["extra", "list", "-o", "json"])).stdout) as JsonObject[];
            const extras = listedExtras.map((e) => String(e.id));
            const extrasInState = (on: boolean) =>
              listedExtras.filter((e) => activeOf(e) === on).map((e) => String(e.id));
            const v = vehicles[step.pick % vehicles.length]!;
            const x = extras[step.pick % extras.length]!;
            const lastOp = async () => (await run(["undo", "-q"])).stdout.split("\n")[0] ?? "";
            const opBefore = await lastOp();
            const p = String(step.price);
            switch (step.verb) {
              case "edit":
                await run(["vehicle", "edit", v, "--set", `price_per_day=${p}`, "--set", "vehicle_benefits_id=2"]);
                break;
              case "edit-many":
                await run(["vehicle", "edit", "--where", "price_per_day>0", "--price-per-day", p, "--yes"]);
                break;
              case "calendar":
                await run(["vehicle", "calendar", v, "--block", "2027-06-01..2027-06-03", "--unblock", "2027-03-01"]);
                break;
              case "remove":
                await run(["vehicle", "remove", v, "--yes"]);
                break;
              case "activate":
              case "deactivate": {
                const some = inState(step.verb === "deactivate");
                await run(["vehicle", step.verb, some[step.pick % some.length]!]);
                break;
              }
              case "vehicle-create":
                await run([
                  "vehicle",
                  "create",
                  "--from-file",
                  file("new.json", JSON.stringify(vehicleRow(`UX-N${p}`, { vehicle_extras: [Number(x)] }))),
                ]);
                break;
              case "extra-create":
                await run(extraCreateArgs({ option: 3, price: p, currency: "EUR", period: 1, quantity: 1 }));
                break;
              case "extra-update":
                await run(["extra", "update", x, "--set", `price=${p}`]);
                break;
              case "extra-switch":
                await run(["extra", "switch", x]);
                break;
              case "extra-enable":
              case "extra-disable": {
                const some = extrasInState(step.verb === "extra-disable");
                await run(["extra", step.verb.slice("extra-".length), some[step.pick % some.length]!]);
                break;
              }
              case "extra-delete":
                await run(["extra", "delete", x, "--yes"]);
                break;
              case "image-attach": {
                const img = join(dir, `${++n}.png`);
                copyFileSync(PNG, img);
                await run(["image", "upload", img, "--attach", v]);
                break;
              }
              case "vehicle-apply":
                await run([
                  "vehicle",
                  "apply",
                  "-f",
                  file(
                    "fleet.ndjson",
                    ndjson([vehicleRow("UX-1", { price_per_day: step.price }), vehicleRow(`UX-A${p}`)]),
                  ),
                  "--prune",
                  "--allow-mass-delete",
                  "--yes",
                ]);
                break;
              case "account-apply": {
                // The account as exported, less the extra in use (deleted: its vehicle drops it) and one price changed.
                const doc = parse(before) as { extras: Record<string, unknown>[]; vehicles: Record<string, unknown>[] };
                doc.extras = doc.extras.filter((e) => e.option !== 2);
                for (const veh of doc.vehicles) {
                  veh.price_per_day = step.price;
                  if (Array.isArray(veh.extras)) veh.extras = veh.extras.filter((e) => e !== 2 && e !== "Booster seat");
                  delete veh.vehicle_extras;
                }
                await run([
                  "account",
                  "apply",
                  "-f",
                  file("account.json", JSON.stringify(doc)),
                  "--prune",
                  "--allow-mass-delete",
                  "--yes",
                ]);
                break;
              }
              case "import":
                await run(["vehicle", "import", file("more.ndjson", ndjson([vehicleRow(`UX-I${p}`)]))]);
                break;
            }
            const op = await lastOp();
            // Every write verb leaves an entry of its own.
            expect(op, `${step.verb} left no undo entry\n${log.join("\n")}`).not.toBe(opBefore);
            const undo = await run(["undo", op]);
            expect(undo.code).toBe(0);
            const after = await exportNow();
            if (JSON.stringify(canonical(after)) !== JSON.stringify(canonical(before)))
              expect(`${step.verb}:\n${after}`, log.join("\n")).toBe(`${step.verb}:\n${before}`);
            seen.add(step.verb);
          }
        } finally {
          await sb.close();
          home.cleanup();
        }
      }),
      // Every verb at least once, in one sequence; then random sequences.
      { numRuns: 10, examples: [[VERBS.map((verb, i) => ({ verb, pick: i, price: 100 + i }))]] },
    );
    // The property held over every verb of the list.
    expect([...seen].sort()).toEqual([...VERBS].sort());
  }, 300_000);
});
