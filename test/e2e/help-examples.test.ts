import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEMO_OWNERS } from "../../src/sandbox/owners.js";
import { BIN, ROOT, tempHome } from "../helpers/cli.js";
import { Terminal } from "../helpers/pty.js";

/**
 * The examples of every help page (dist/help, rendered at build time), read
 * as a person copies them: continuation lines joined. Every one is well
 * formed (no dangling `\`, a catalog that needs a brand names one), and every
 * one runs as written, in a shell, through the built CLI, against the
 * embedded sandbox (issue 26, part 8):
 * - the examples that read (catalogs, lists, cards, the board, completion
 *   scripts) share one data dir;
 * - every other one runs in a fresh config dir, data dir and so a fresh
 *   sandbox (the embedded sandbox keeps its store in the data dir), with what
 *   it names made first, as a person would have it (see `fixtures`): the
 *   files (fleet.yaml, fleet.csv, account.yaml from an export of the fresh
 *   sandbox; car.yaml/car.json from vehicle 1 with a new registration; images
 *   from examples/images), the profiles `staging` and `production` (both on
 *   the sandbox, owner 1001, logged in with its demo key), `$KEY` /
 *   `$RENTAL_KEY` / `…` as the demo key, an operation for `undo 1` to undo, a saved plan for `apply --plan` (made on that fresh
 *   sandbox: a plan is bound to the account it read);
 * - the ones that need a terminal (the wizard, a confirmation) run in a
 *   pseudo-terminal: the wizard is left with Ctrl-C (exit 130), a
 *   confirmation is answered yes;
 * - `sandbox serve` runs until its address is printed, the example that
 *   talks to it runs meanwhile, then Ctrl-C ends it;
 * - NOT_RUN: only the logins to the marketplace's own addresses (production
 *   and test are issued to partners; test/e2e/login-safety covers login).
 */

function examples(): Array<{ page: string; line: string }> {
  const dir = join(ROOT, "dist", "help");
  const out: Array<{ page: string; line: string }> = [];
  for (const page of readdirSync(dir)) {
    const m = /\nExamples:\n((?: {2}.*\n)+)/.exec(readFileSync(join(dir, page), "utf8"));
    if (!m) continue;
    let cur = "";
    for (const l of m[1]!.split("\n").filter(Boolean)) {
      if (l.startsWith("      ")) cur = `${cur.replace(/ \\$/, "")} ${l.trim()}`;
      else {
        if (cur) out.push({ page, line: cur });
        cur = l.trim();
      }
    }
    if (cur) out.push({ page, line: cur });
  }
  return out;
}

/** Read-only examples: run as written. */
const RUNS = [
  /^rentctl catalog \S+( --(segment|brand|model|locale) \S+)*( -o json)?$/,
  /^rentctl vehicle list( |$)/,
  /^rentctl vehicle get /,
  /^rentctl vehicle calendar --board/,
  /^rentctl extra (list|options)( |$)/,
  /^rentctl (profile list|sandbox info|api --list|api vehicles\/brands)/,
  /^rentctl completion (bash|zsh|fish)$/,
];

const home = tempHome();
afterAll(() => home.cleanup());

describe("help examples", () => {
  const all = examples();

  it("are well formed: no dangling continuation, no bare catalog that needs a parameter", () => {
    expect(all.length).toBeGreaterThan(80);
    const bad = all.filter(({ line }) => /\\$/.test(line) || /^rentctl catalog (models|equipments)$/.test(line));
    expect(bad).toEqual([]);
    // the promotion example writes the file in its own format, not ndjson into a .yaml name
    expect(all.some(({ line }) => /> fleet\.yaml/.test(line))).toBe(false);
  });

  it("the read-only ones run as written against the sandbox", () => {
    const bin = join(home.dir, "bin");
    mkdirSync(bin, { recursive: true });
    const shim = join(bin, "rentctl");
    writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(shim, 0o755);
    const env = { ...home.env, PATH: `${bin}:${process.env.PATH}`, RENTCTL_ENV: "sandbox", COLUMNS: "80" };
    // the examples name vehicle 1 and "B-SC 1001": the sandbox's first vehicle
    const run = all.filter(({ line }) => RUNS.some((re) => re.test(line)));
    expect(run.length).toBeGreaterThan(30);
    const failed: string[] = [];
    for (const { page, line } of run) {
      const cmd = line;
      const r = spawnSync("bash", ["-o", "pipefail", "-c", cmd], { env, cwd: home.dir, encoding: "utf8" });
      if (r.status !== 0) failed.push(`${page}: ${cmd} -> ${r.status}: ${r.stderr.split("\n")[0]}`);
    }
    expect(failed).toEqual([]);
  }, 240_000);

  it("the root page's key placeholder, copied unfilled: one clear line, exit 4, nothing sent (not three network errors)", () => {
    const r = spawnSync(process.execPath, [BIN, "vehicle", "get", "1"], {
      env: { ...home.env, RENTCTL_ENV: "sandbox", RENTCTL_API_KEY: "…" },
      encoding: "utf8",
    });
    expect(r.status).toBe(4);
    expect(r.stderr).toMatch(/^error: the API key has characters an API key cannot have/);
    expect(r.stderr).not.toMatch(/network|attempts/);
  });

  const KEY = DEMO_OWNERS.find((o) => o.userId === 1001)!.apiKey;
  /** Logins to the marketplace's own addresses: nothing here answers for them. */
  const NOT_RUN = [/^(printf .*\| )?rentctl auth login .*--base-url https:\/\/(partner|test)\.example/];
  /** Need a terminal: [example, what to type at its first prompt, expected exit]. */
  const TERMINAL: Array<[RegExp, string, number]> = [
    [/^rentctl vehicle (wizard|create -i)( |$)/, "\x03", 130],
    [/^rentctl (vehicle remove|extra delete) \d+$/, "y\r", 0],
    [/^rentctl profile remove \S+$/, "y\r", 0],
  ];
  const SERVE = /^rentctl sandbox serve/;
  /** Exit codes that are the example's success: a diff that finds changes says so with 8. */
  const expected = (line: string) => (/ diff /.test(line) && !/&&/.test(line) ? [0, 8] : [0]);

  /** The template every writing example starts from: profiles and the files examples name. */
  const template = mkdtempSync(join(tmpdir(), "rentctl-examples-"));
  afterAll(() => rmSync(template, { recursive: true, force: true }));
  const shim = join(template, "bin", "rentctl");

  function fresh(): { dir: string; work: string; env: NodeJS.ProcessEnv } {
    const dir = mkdtempSync(join(template, "run-"));
    cpSync(join(template, "config"), join(dir, "config"), { recursive: true });
    cpSync(join(template, "keychain.json"), join(dir, "keychain.json"));
    cpSync(join(template, "files"), join(dir, "work"), { recursive: true });
    mkdirSync(join(dir, "home"));
    const env: NodeJS.ProcessEnv = {
      PATH: `${join(template, "bin")}:${process.env.PATH}`,
      HOME: join(dir, "home"),
      TERM: "xterm-256color",
      RENTCTL_ENV: "sandbox",
      RENTCTL_CONFIG_DIR: join(dir, "config"),
      RENTCTL_DATA_DIR: join(dir, "data"),
      RENTCTL_KEYCHAIN: `file:${join(dir, "keychain.json")}`,
      NO_COLOR: "1",
      COLUMNS: "80",
      KEY,
      RENTAL_KEY: KEY,
    };
    return { dir, work: join(dir, "work"), env };
  }
  const sh = (cmd: string, f: { work: string; env: NodeJS.ProcessEnv }, input = "") =>
    spawnSync("bash", ["-o", "pipefail", "-c", cmd], { env: f.env, cwd: f.work, encoding: "utf8", input });

  /** The fixtures, made once from a fresh sandbox through the built CLI (documented above). */
  function fixtures(): void {
    mkdirSync(join(template, "bin"));
    writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(shim, 0o755);
    mkdirSync(join(template, "config"));
    mkdirSync(join(template, "files", "photos"), { recursive: true });
    writeFileSync(join(template, "keychain.json"), "{}");
    const f = {
      work: join(template, "files"),
      env: {
        PATH: `${join(template, "bin")}:${process.env.PATH}`,
        HOME: template,
        RENTCTL_ENV: "sandbox",
        RENTCTL_CONFIG_DIR: join(template, "config"),
        RENTCTL_DATA_DIR: join(template, "data"),
        RENTCTL_KEYCHAIN: `file:${join(template, "keychain.json")}`,
        NO_COLOR: "1",
      },
    };
    const must = (cmd: string, input?: string) => {
      const r = sh(cmd, f, input);
      if (r.status !== 0) throw new Error(`fixture: ${cmd}: ${r.status} ${r.stderr}`);
      return r.stdout;
    };
    for (const p of ["staging", "production"])
      must(`rentctl auth login --with-token --profile ${p} --env sandbox --user 1001`, KEY);
    must(
      "rentctl vehicle export fleet.yaml && rentctl vehicle export fleet.csv && rentctl account export account.yaml",
    );
    const {
      id: _i,
      vehicle_id: _v,
      vehicle_images: _im,
      vehicle_extras: _e,
      ...car
    } = JSON.parse(must("rentctl vehicle get 1 -o json"));
    car.vehicle_reg_number = "B-EX 2026";
    writeFileSync(join(f.work, "car.json"), JSON.stringify(car, null, 2));
    must("rentctl vehicle create --from-file car.json --dry-run > /dev/null");
    copyFileSync(join(f.work, "car.json"), join(f.work, "car.yaml")); // JSON is YAML
    // the shipped examples, as in a clone (`vehicle create --from-file examples/vehicle.yaml`)
    cpSync(join(ROOT, "examples"), join(f.work, "examples"), { recursive: true });
    const png = join(ROOT, "examples/images/corolla-front.png");
    for (const name of ["front.jpg", "back.jpg", "a.jpg", "car.jpg", "photos/1.jpg"])
      copyFileSync(png, join(f.work, name));
    rmSync(join(template, "data"), { recursive: true, force: true });
  }

  it("every other one runs as written, each in a fresh config dir, data dir and sandbox", async () => {
    fixtures();
    const read = (line: string) => RUNS.some((re) => re.test(line));
    const rest = all.filter(({ line }) => !read(line) && !NOT_RUN.some((re) => re.test(line)));
    // the placeholder of the root page's key example
    const placeholders = (line: string) => line.replace(/RENTCTL_API_KEY=…/, `RENTCTL_API_KEY=${KEY}`);
    expect(rest.length).toBeGreaterThan(100);
    const failed: string[] = [];
    const seen = new Set<string>();
    for (const { page, line } of rest) {
      if (seen.has(line)) continue; // aliases repeat their command's examples
      seen.add(line);
      const f = fresh();
      try {
        const cmd = placeholders(line);
        if (/^rentctl undo 1\b/.test(cmd)) {
          // an operation to undo: the first one of a fresh data dir is op 1
          const made = sh("rentctl vehicle edit 1 --price-per-day 50", f);
          expect(made.status, made.stderr).toBe(0);
        }
        if (/--plan plan\.json/.test(cmd) && !/--out plan\.json/.test(cmd)) {
          // a saved plan is bound to the account it was made on: made first, on this fresh sandbox
          const made = sh("rentctl account diff -f account.yaml --out plan.json > /dev/null", f);
          expect([0, 8], made.stderr).toContain(made.status);
        }
        const term = TERMINAL.find(([re]) => re.test(cmd));
        if (term) {
          const t = new Terminal(cmd.split(" ").slice(1), f.env, join(f.dir, "stdout.txt"));
          try {
            await t.waitFor(/\? /, `the first prompt of ${cmd}`);
            t.send(term[1]);
            const code = await t.exit;
            if (code !== term[2]) failed.push(`${page}: ${cmd} -> ${code} in a terminal`);
          } finally {
            t.kill();
          }
          continue;
        }
        if (SERVE.test(cmd)) {
          const code = await serve(
            cmd,
            f,
            rest.map((x) => x.line).filter((l) => /RENTCTL_BASE_URL=http:\/\/127\.0\.0\.1:4010/.test(l)),
          );
          if (code !== "ok") failed.push(`${page}: ${cmd} -> ${code}`);
          continue;
        }
        if (/RENTCTL_BASE_URL=http:\/\/127\.0\.0\.1:4010/.test(cmd)) continue; // run against `sandbox serve`, above
        const r = sh(cmd, f);
        if (!expected(cmd).includes(r.status ?? -1))
          failed.push(`${page}: ${cmd} -> ${r.status}: ${r.stderr.trim().split("\n").slice(-2).join(" | ")}`);
      } finally {
        rmSync(f.dir, { recursive: true, force: true });
      }
    }
    expect(failed).toEqual([]);
  }, 600_000);

  /** `sandbox serve` as written until it prints its address; the examples that talk to it then run; Ctrl-C ends it. */
  async function serve(cmd: string, f: { work: string; env: NodeJS.ProcessEnv }, clients: string[]): Promise<string> {
    const child = spawn("bash", ["-c", `exec ${cmd}`], { env: f.env, cwd: f.work, stdio: ["ignore", "pipe", "pipe"] });
    let err = "";
    const ready = await new Promise<boolean>((res) => {
      child.stderr.on("data", (d) => {
        err += d;
        if (/Ctrl-C stops it/.test(err)) res(true);
      });
      child.on("exit", () => res(false));
    });
    if (!ready) return `did not start: ${err.trim().split("\n").pop()}`;
    const port = /127\.0\.0\.1:(\d+)/.exec(err)?.[1];
    let problem = "";
    if (port === "4010")
      for (const c of clients) {
        const r = sh(c.replace(/^RENTCTL_ENV=sandbox /, "RENTCTL_ENV=sandbox RENTCTL_TIMEOUT=5 "), f);
        // --fail-rate makes a request fail now and then: the client's retries are what it exercises
        if (r.status !== 0 && !/--fail-rate/.test(cmd)) problem += ` ${c} -> ${r.status} ${r.stderr.trim()}`;
      }
    const exit = new Promise<number | null>((res) =>
      child.on("exit", (code, signal) => res(code ?? (signal ? 128 : null))),
    );
    child.kill("SIGINT");
    const code = await exit;
    if (code !== 0 && code !== 130) return `exit ${code} on Ctrl-C`;
    return problem ? `clients failed:${problem}` : "ok";
  }
});
