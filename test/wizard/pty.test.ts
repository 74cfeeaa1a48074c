import { type ChildProcessWithoutNullStreams, execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

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

// Runs argv[2:] on a new pty (120x40) with stdout sent to argv[1]; relays our stdin to it
// and its output to our stdout; exits with the child's exit code.
const RELAY = `
import fcntl, os, pty, select, struct, sys, termios
out, argv = sys.argv[1], sys.argv[2:]
pid, fd = pty.fork()
if pid == 0:
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    o = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(o, 1)
    os.execvp(argv[0], argv)
fds = [fd, 0]
while True:
    r, _, _ = select.select(fds, [], [])
    if fd in r:
        try:
            data = os.read(fd, 65536)
        except OSError:
            break
        if not data:
            break
        os.write(1, data)
    if 0 in r:
        data = os.read(0, 65536)
        if data:
            os.write(fd, data)
        else:
            fds = [fd]
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status))
`;

const STEP_MS = 15_000;

class Terminal {
  readonly child: ChildProcessWithoutNullStreams;
  #raw = "";
  #pos = 0;
  #waiters: Array<() => void> = [];
  readonly exit: Promise<number>;

  constructor(args: string[], env: NodeJS.ProcessEnv, stdoutFile: string) {
    this.child = spawn("python3", ["-c", RELAY, stdoutFile, process.execPath, BIN, ...args], {
      env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const onData = (d: Buffer) => {
      this.#raw += d.toString("utf8");
      for (const w of this.#waiters.splice(0)) w();
    };
    this.child.stdout.on("data", onData);
    this.child.stderr.on("data", onData);
    this.exit = new Promise((res) => this.child.on("exit", (code) => res(code ?? -1)));
    this.exit.then(() => {
      for (const w of this.#waiters.splice(0)) w();
    });
  }

  get screen(): string {
    return stripVTControlCharacters(this.#raw);
  }

  /** Wait until `re` appears after what was already matched; move past it. */
  async waitFor(re: RegExp, what = String(re)): Promise<RegExpExecArray> {
    const deadline = Date.now() + STEP_MS;
    let exited = false;
    this.exit.then(() => {
      exited = true;
    });
    for (;;) {
      const text = this.screen;
      const g = new RegExp(re.source, re.flags.includes("g") ? re.flags : `${re.flags}g`);
      g.lastIndex = this.#pos;
      const m = g.exec(text);
      if (m) {
        this.#pos = m.index + m[0].length;
        return m;
      }
      if (exited) throw new Error(`the CLI exited while waiting for ${what}; screen:\n${text.slice(-3000)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}; screen:\n${text.slice(-3000)}`);
      await new Promise<void>((res) => {
        const t = setTimeout(res, left);
        this.#waiters.push(() => {
          clearTimeout(t);
          res();
        });
      });
    }
  }

  send(keys: string): void {
    this.child.stdin.write(keys);
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill("SIGKILL");
  }
}

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
    expect(t.screen).toMatch(/vehicle_segment_id\s+1\s+Cars/);
    expect(t.screen).toMatch(/vehicle_currency_id\s+1\s+Euro \(EUR\)/);
    t.send("\x03");
    expect(await t.exit).toBe(130);
    expect(t.screen).toMatch(/cancelled, nothing was created/);
    expect(readFileSync(out, "utf8")).toBe("");
    const after = await runCli(["vehicle", "list", "--all", "-o", "json"], env);
    expect(JSON.parse(after.stdout)).toHaveLength(JSON.parse(before.stdout).length);
  }, 120_000);
});
