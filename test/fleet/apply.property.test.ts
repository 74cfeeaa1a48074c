import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.js";
import { runMain, tempHome } from "../helpers/cli.js";
import { ndjson, vehicleRow } from "./helpers.js";

/**
 * The property of fleet as code, through the whole engine in-process
 * (reader, resolver, plan, bulk runner, safe edit, sandbox over HTTP): for
 * random accounts and random files (full rows, partial rows, typed values as
 * text, sets in any order, fields given empty, --exact, --prune), after a
 * successful `vehicle apply`, `vehicle diff` on the same file reports nothing.
 */

const dir = mkdtempSync(join(tmpdir(), "fleet-prop-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const REGS = Array.from({ length: 8 }, (_, i) => `PP-${i}`);
const benefits = fc.uniqueArray(fc.integer({ min: 1, max: 5 }), { maxLength: 4 });
const price = fc.integer({ min: 1, max: 900 });

const accountGen = fc.uniqueArray(
  fc.record({ reg: fc.constantFrom(...REGS), price, benefits, text: fc.option(fc.string({ maxLength: 12 })) }),
  { selector: (v) => v.reg, maxLength: 6 },
);

/** A row: full (any reg) or partial (only for regs the account has, so creates stay valid). */
const rowGen = fc.record({
  reg: fc.constantFrom(...REGS),
  full: fc.boolean(),
  price: fc.option(price),
  priceAsText: fc.boolean(),
  benefits: fc.option(benefits),
  description: fc.option(fc.oneof(fc.constant(""), fc.string({ minLength: 1, maxLength: 12 }))),
  regSpelling: fc.constantFrom("same", "lower", "spaced"),
});
const fileGen = fc.record({
  rows: fc.uniqueArray(rowGen, { selector: (r) => r.reg, maxLength: 7 }),
  exact: fc.boolean(),
  prune: fc.boolean(),
});

describe("apply then diff reports nothing (fast-check, in-process)", () => {
  it("for random fleets and random files", async () => {
    let n = 0;
    const did = { created: 0, changed: 0, removed: 0 };
    await fc.assert(
      fc.asyncProperty(accountGen, fileGen, async (account, f) => {
        const sb = await startSandbox({ host: "127.0.0.1", port: 0, dataFile: null });
        const home = tempHome();
        const env = { ...home.env, RENTCTL_ENV: "sandbox", RENTCTL_BASE_URL: sb.url };
        const run = (args: string[]) => runMain([...args, "--user", "1003"], env);
        try {
          n++;
          const seedFile = join(dir, `seed-${n}.ndjson`);
          writeFileSync(
            seedFile,
            ndjson(
              account.map((a) =>
                vehicleRow(a.reg, {
                  price_per_day: a.price,
                  vehicle_benefits_id: a.benefits,
                  ...(a.text ? { vehicle_description: a.text } : {}),
                }),
              ),
            ),
          );
          if (account.length) expect((await run(["vehicle", "import", seedFile])).code).toBe(0);
          const have = new Set(account.map((a) => a.reg));
          const rows = f.rows.map((r) => {
            const reg =
              r.regSpelling === "lower" ? r.reg.toLowerCase() : r.regSpelling === "spaced" ? ` ${r.reg} ` : r.reg;
            const fields: Record<string, unknown> = {};
            if (r.price !== null) fields.price_per_day = r.priceAsText ? String(r.price) : r.price;
            if (r.benefits !== null) fields.vehicle_benefits_id = [...r.benefits].reverse();
            if (r.description !== null) fields.vehicle_description = r.description;
            return r.full || !have.has(r.reg) ? vehicleRow(reg, fields) : { vehicle_reg_number: reg, ...fields };
          });
          const file = join(dir, `file-${n}.ndjson`);
          writeFileSync(file, ndjson(rows));
          const opts = [...(f.exact ? ["--exact"] : []), ...(f.prune ? ["--prune", "--allow-mass-delete"] : [])];
          const apply = await run(["vehicle", "apply", "-f", file, "--yes", ...opts]);
          expect(apply.stderr).not.toMatch(/failed [1-9]|conflict [1-9]/);
          expect(apply.code).toBe(0);
          for (const k of ["created", "changed", "removed"] as const)
            did[k] += Number(new RegExp(`${k} (\\d+)`).exec(apply.stderr)?.[1] ?? 0);
          const diff = await run(["vehicle", "diff", "-f", file, ...opts.filter((o) => o !== "--allow-mass-delete")]);
          expect(diff.stdout).toMatch(/^Plan: 0 to create, 0 to change, 0 to remove, \d+ unchanged\.\n$/);
          expect(diff.code).toBe(0);
        } finally {
          await sb.close();
          home.cleanup();
        }
      }),
      { numRuns: 40 },
    );
    // The property held over real work, not only over empty plans.
    expect(did.created).toBeGreaterThan(0);
    expect(did.changed).toBeGreaterThan(0);
    expect(did.removed).toBeGreaterThan(0);
  }, 300_000);
});
