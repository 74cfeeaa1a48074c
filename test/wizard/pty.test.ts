import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STEP_MS, Terminal } from "../helpers/pty.js";

/**
 * End to end: the built CLI (`node bin/rentctl.js`, built by `npm test` /
 * `npm run build`) in a real pseudo-terminal, against the sandbox. Python's
 * `pty` gives the wizard a terminal on stdin and stderr; stdout goes to a
 * file, so the test also sees that stdout carries only the new id.
 * Every step waits for the prompt's text (bounded), never for time.
 */

const ROOT = resolve(import.meta.dirname, "../..");
const BIN = join(ROOT, "bin/rentctl.js");
const BUILT = existsSync(join(ROOT, "dist/rentctl.cjs"));
const HAVE_SANDBOX = existsSync(join(ROOT, "src/sandbox/server.ts"));

type Answer = string | ((t: Terminal) => Promise<void>);

/**
 * Answer prompts as they come: the next "? message" line is matched against
 * `answers` (first match wins, each used once); anything else gets Enter
 * (its default, here from the pre-fill file). Stops after `last` is answered.
 */
async function drive(t: Terminal, answers: Array<[RegExp, Answer]>, last: RegExp): Promise<string[]> {
  const asked: string[] = [];
  const pending = [...answers];
  for (let i = 0; i < 200; i++) {
    const m = await t.waitFor(/(?:^|[\r\n])\s*\? ([^\r\n]+)/, "the next prompt");
    const message = m[1]!.trim();
    asked.push(message);
    const k = pending.findIndex(([re]) => re.test(message));
    const answer = k >= 0 ? pending.splice(k, 1)[0]![1] : "\r";
    if (typeof answer === "string") t.send(answer);
    else await answer(t);
    if (last.test(message)) return asked;
    await t.waitFor(/✔/, `the answer to ${JSON.stringify(message)}`);
  }
  throw new Error("too many prompts");
}

function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((res) => {
    execFile(process.execPath, [BIN, ...args], { env, timeout: STEP_MS }, (err, stdout, stderr) => {
      res({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe.skipIf(!BUILT || !HAVE_SANDBOX)("vehicle wizard in a real terminal (built CLI, sandbox)", () => {
  let sandbox: { url: string; close(): Promise<void> };
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const terminals: Terminal[] = [];

  beforeAll(async () => {
    const { startSandbox } = await import("../../src/sandbox/server.js");
    sandbox = await startSandbox({ port: 0, dataFile: null });
    dir = mkdtempSync(join(tmpdir(), "rentctl-wizard-pty-"));
    env = {
      PATH: process.env.PATH,
      HOME: dir,
      TERM: "xterm-256color",
      RENTCTL_ENV: "sandbox",
      RENTCTL_BASE_URL: sandbox.url,
      RENTCTL_CONFIG_DIR: join(dir, "config"),
      RENTCTL_DATA_DIR: join(dir, "data"),
    };
  });

  afterAll(async () => {
    for (const t of terminals) t.kill();
    await sandbox?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("creates a vehicle through the wizard; `vehicle get ID -o json` shows it", async () => {
    // Pre-fill most answers; brand, model, configuration and the registration number are asked for real.
    const prefill = {
      vehicle_segment_id: 1,
      vehicle_year_of_issue_id: 16,
      vehicle_class_id: 1,
      vehicle_reg_number_country: 1,
      pickup_location: "Berlin, Alexanderplatz 1",
      price_per_day: 45,
      price_per_3days: 42,
      price_per_week: 39,
      price_per_14days: 35,
      vehicle_currency_id: 1,
      vehicle_protection_plans_no_deposit: 1,
      vehicle_protection_plans_deposit_price: 300,
      vehicle_protection_plans_third_party_insurance: 1,
      vehicle_distance_included: 250,
      vehicle_surcharge_for_excess: 1,
      price_surcharge_over_time: 900,
      vehicle_minimal_renting_period: 1,
      vehicle_minimal_age_to_rent: 21,
      vehicle_drivers_experience: 2,
      vehicle_activity: 1,
      vehicle_passenger_capacity: 5,
      vehicle_luggage_capacity: 3,
      vehicle_fuel_policy: 1,
    };
    const file = join(dir, "prefill.json");
    writeFileSync(file, JSON.stringify(prefill));
    const out = join(dir, "stdout.txt");
    const t = new Terminal(["vehicle", "wizard", "--from-file", file], env, out);
    terminals.push(t);

    const asked = await drive(
      t,
      [
        [
          /^Brand/,
          async (term) => {
            term.send("Toyo");
            await term.waitFor(/❯ Toyota/, "the search result");
            term.send("\r");
          },
        ],
        [/^Registration number/, "E2E-4242\r"],
        // a refused answer is re-asked with the reason shown
        [
          /^Price per day \(1-2 days\)/,
          async (term) => {
            term.send("\x7f\x7f\x7f-1\r");
            await term.waitFor(/price_per_day must be at least 0, got -1/, "the validation message");
            term.send("\x7f\x7f55\r");
          },
        ],
      ],
      /^What now\?/,
    );
    expect(asked[0]).toMatch(/^Segment/);
    expect(asked).toContainEqual(expect.stringMatching(/^Configuration \(equipment\)/));
    await t.waitFor(/vehicle (\d+) created/, "the success message");
    expect(await t.exit).toBe(0);

    const stdout = readFileSync(out, "utf8");
    expect(stdout).toMatch(/^\d+\n$/);
    const id = stdout.trim();

    const got = await runCli(["vehicle", "get", id, "-o", "json"], env);
    expect(got.code).toBe(0);
    const record = JSON.parse(got.stdout);
    expect(String(record.id ?? record.vehicle_id)).toBe(id);
    expect(record.vehicle_reg_number).toBe("E2E-4242");
    expect(Number(record.price_per_day)).toBe(55);
    expect(Number(record.vehicle_model_id)).toBeGreaterThan(0);
  });

  it("Ctrl-C at a prompt exits 130 and creates nothing", async () => {
    const before = await runCli(["vehicle", "list", "--all", "-o", "json"], env);
    expect(before.code).toBe(0);
    const out = join(dir, "stdout-ctrl-c.txt");
    const t = new Terminal(["vehicle", "wizard"], env, out);
    terminals.push(t);
    await t.waitFor(/\? Segment/, "the first prompt");
    expect(t.screen).toMatch(/New vehicle on \S*sandbox\S* as owner 1001/);
    t.send("\x03");
    expect(await t.exit).toBe(130);
    expect(t.screen).toMatch(/cancelled, nothing was created/);
    expect(readFileSync(out, "utf8")).toBe("");
    const after = await runCli(["vehicle", "list", "--all", "-o", "json"], env);
    expect(JSON.parse(after.stdout)).toHaveLength(JSON.parse(before.stdout).length);
  });

  it("--from-file with every answer goes straight to the review, names its target, and Ctrl-C creates nothing", async () => {
    const got = await runCli(["vehicle", "get", "1", "-o", "json"], env);
    expect(got.code).toBe(0);
    const { id: _id, vehicle_id: _vid, ...record } = JSON.parse(got.stdout);
    const file = join(dir, "wiz.json");
    writeFileSync(file, JSON.stringify({ ...record, vehicle_reg_number: "E2E-REVIEW" }));
    const before = await runCli(["vehicle", "list", "--all", "-o", "json"], env);
    const out = join(dir, "stdout-review.txt");
    const t = new Terminal(["vehicle", "wizard", "--from-file", file], env, out);
    terminals.push(t);
    await t.waitFor(/\? What now\?/, "the review's question");
    expect(t.screen).toMatch(/New vehicle on sandbox as owner 1001/);
    expect(t.screen).toMatch(/every answer is known from \S*wiz\.json: straight to the review/);
    expect(t.screen).not.toMatch(/\? Segment/);
    expect(t.screen).toMatch(/Segment\s+Cars\s+id 1/);
    expect(t.screen).toMatch(/Model\s+Toyota Corolla · 1\.8 Hybrid Comfort\s+id 1003/);
    expect(t.screen).toMatch(/Currency\s+Euro \(EUR\)\s+id 1/);
    t.send("\x03");
    expect(await t.exit).toBe(130);
    expect(t.screen).toMatch(/cancelled, nothing was created/);
    expect(readFileSync(out, "utf8")).toBe("");
    const after = await runCli(["vehicle", "list", "--all", "-o", "json"], env);
    expect(JSON.parse(after.stdout)).toHaveLength(JSON.parse(before.stdout).length);
  }, 120_000);

  it("the Ctrl-C above kept a draft (0600): the next run offers it, --fresh does not", async () => {
    // Runs after the test above: its Ctrl-C (inquirer's ExitPromptError in a real terminal) kept the answers.
    const draft = join(dir, "data", "drafts", "vehicle-sandbox-1001.json");
    expect(existsSync(draft)).toBe(true);
    expect(statSync(draft).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(draft, "utf8")).answers.vehicle_reg_number).toBe("E2E-REVIEW");

    const t = new Terminal(["vehicle", "wizard"], env, join(dir, "stdout-resume.txt"));
    terminals.push(t);
    await t.waitFor(/\? Resume the draft from \d{4}-\d\d-\d\d \d\d:\d\d \(\d+ answers\)\?/, "the resume question");
    t.send("\r");
    await t.waitFor(/\? What now\?/, "the review (every answer is in the draft)");
    expect(t.screen).toMatch(/Registration\s+E2E-REVIEW/);
    t.send("\x03");
    expect(await t.exit).toBe(130);

    const fresh = new Terminal(["vehicle", "wizard", "--fresh"], env, join(dir, "stdout-fresh.txt"));
    terminals.push(fresh);
    await fresh.waitFor(/\? Segment/, "the first question");
    expect(fresh.screen).not.toMatch(/Resume the draft/);
    expect(existsSync(draft)).toBe(false);
    fresh.send("\x03");
    expect(await fresh.exit).toBe(130);
  }, 120_000);
});
