import { existsSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { BIN, ROOT, runBuilt, runMain, sandboxEnv } from "../helpers/cli.js";

// The start-up path of src/boot.ts through the built CLI: help pages rendered
// at build time, and the bundle compiled through V8's code cache.

const HELP_DIR = join(ROOT, "dist", "help");

describe("help pages rendered at build time (dist/help/)", () => {
  const columns = process.env.COLUMNS;
  afterEach(() => {
    if (columns === undefined) delete process.env.COLUMNS;
    else process.env.COLUMNS = columns;
  });

  it("every page is what the command tree prints at 80 columns, and every command has one", async () => {
    process.env.COLUMNS = "80";
    const pages = readdirSync(HELP_DIR).filter((f) => f.endsWith(".txt"));
    expect(pages.length).toBeGreaterThan(50);
    for (const page of pages) {
      const path = page === "index.txt" ? [] : page.slice(0, -4).split(".");
      const r = await runMain([...path, "--help"], {});
      expect(r.code, page).toBe(0);
      expect(readFileSync(join(HELP_DIR, page), "utf8"), page).toBe(r.stdout);
    }
    const { buildProgram } = await import("../../src/cli/program.js");
    const tree = await buildProgram({ makeDeps: () => Promise.reject(new Error("no command runs")) });
    const missing: string[] = [];
    const walk = (cmd: typeof tree, path: string[]) => {
      if (!pages.includes(`${path.length ? path.join(".") : "index"}.txt`)) missing.push(path.join(" "));
      for (const sub of cmd.commands) walk(sub, [...path, sub.name()]);
    };
    walk(tree, []);
    expect(missing).toEqual([]);
  });

  it("the built CLI prints the page for --help and -h, and commander's own rendering at another width", async () => {
    const env = { PATH: process.env.PATH, NO_COLOR: "1" };
    const page = readFileSync(join(HELP_DIR, "vehicle.create.txt"), "utf8");
    for (const flag of ["--help", "-h"]) {
      const r = await runBuilt(["vehicle", "create", flag], env);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(page);
    }
    const wide = await runBuilt(["vehicle", "create", "--help"], { ...env, COLUMNS: "120" });
    expect(wide.code).toBe(0);
    expect(wide.stdout).toContain("Usage: rentctl vehicle create");
    expect(wide.stdout).not.toBe(page);
    // an argument or a typo is no page: the command tree answers as before
    const typo = await runBuilt(["vehicle", "craete", "--help"], env);
    expect(typo.stdout + typo.stderr).toContain("vehicle");
  });
});

describe("code cache (<data dir>/code-cache)", () => {
  let sb: Awaited<ReturnType<typeof sandboxEnv>>;
  beforeAll(async () => {
    sb = await sandboxEnv();
  });
  afterAll(async () => {
    await sb.cleanup();
  });

  const cacheDir = () => join(sb.env.RENTCTL_DATA_DIR as string, "code-cache");
  const ARGS = ["catalog", "currencies", "-o", "json"];

  it("is written after a command's first run, read (not rewritten) by the next, and rewritten when unusable", async () => {
    const first = await runBuilt(ARGS, sb.env);
    expect(first.code).toBe(0);
    const files = readdirSync(cacheDir());
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(
      new RegExp(`^[0-9a-f]{16}\\.[0-9a-z]+-${process.version}-${process.arch}-catalog\\.currencies\\.bin$`),
    );
    const file = join(cacheDir(), files[0] as string);
    const written = statSync(file);
    expect(written.size).toBeGreaterThan(10_000);

    const second = await runBuilt(ARGS, sb.env);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(statSync(file).mtimeMs).toBe(written.mtimeMs);

    // garbage (a torn write, a disk error): V8 rejects it; the run is unaffected and the file is made anew
    writeFileSync(file, "not a code cache");
    const third = await runBuilt(ARGS, sb.env);
    expect(third.code).toBe(0);
    expect(third.stdout).toBe(first.stdout);
    expect(statSync(file).size).toBeGreaterThan(10_000);

    // another command gets its own file (its verb found after flags); an old build's file goes when a
    // new one is written; a noun without verbs, or a word no command has, uses the noun's file
    writeFileSync(join(cacheDir(), "0123456789abcdef.1-v0.0.0-x64-vehicle.list.bin"), "old");
    expect((await runBuilt(["vehicle", "-o", "json", "list"], sb.env)).code).toBe(0);
    expect((await runBuilt(["vehicle", "lsit"], sb.env)).code).toBe(2);
    expect((await runBuilt(["undo", "-o", "json"], sb.env)).code).toBe(0);
    const name = (command: string) => files[0]?.replace("-catalog.currencies.bin", `-${command}.bin`);
    expect(readdirSync(cacheDir()).sort()).toEqual(
      [files[0], name("vehicle.list"), name("vehicle"), name("undo")].sort(),
    );
  });

  it("keeps at most 16 files, the newest", async () => {
    const dir = cacheDir();
    const written = (await runBuilt(ARGS, sb.env)).code;
    expect(written).toBe(0);
    const current = readdirSync(dir).find((f) => f.endsWith("-catalog.currencies.bin")) as string;
    // 20 files of this build (other commands'), oldest first; then a command with no file yet
    const others = Array.from({ length: 20 }, (_, i) => current.replace("catalog.currencies", `test.c${i}`));
    others.forEach((f, i) => {
      writeFileSync(join(dir, f), "x");
      utimesSync(join(dir, f), new Date(1_000_000 + i * 1000), new Date(1_000_000 + i * 1000));
    });
    expect((await runBuilt(["catalog", "years", "-o", "json"], sb.env)).code).toBe(0);
    const left = readdirSync(dir).filter((f) => f.endsWith(".bin"));
    expect(left).toHaveLength(16);
    expect(left).toContain(current.replace("catalog.currencies", "catalog.years"));
    expect(left).toContain(others[19]);
    expect(left).not.toContain(others[0]);
  });

  it("is read, not rewritten, by a long bulk command (V8 flags never change mid-run)", async () => {
    // a forced collection once turned V8's --expose-gc on mid-run, so V8 rejected
    // every such command's cache (made at exit, under other flags) and the bundle
    // compiled afresh each time; no code sets a flag after start-up now.
    const sample = await runBuilt(["vehicle", "get", "1", "-o", "json"], sb.env);
    expect(sample.code).toBe(0);
    const file = join(sb.env.RENTCTL_DATA_DIR as string, "fleet.ndjson");
    const { id: _id, ...vehicle } = JSON.parse(sample.stdout) as Record<string, unknown>;
    const rows = Array.from({ length: 150 }, (_, i) => JSON.stringify({ ...vehicle, vehicle_reg_number: `GC-${i}` }));
    writeFileSync(file, `${rows.join("\n")}\n`);
    const dir = cacheDir();
    const vehicleCache = () => readdirSync(dir).filter((f) => f.endsWith("-vehicle.import.bin"));
    for (const f of vehicleCache()) rmSync(join(dir, f));
    const args = ["vehicle", "import", file, "--dry-run", "-q"];
    const first = await runBuilt(args, sb.env);
    expect(first.code, first.stderr).toBe(0);
    expect(vehicleCache()).toHaveLength(1);
    const cache = join(dir, vehicleCache()[0] as string);
    const written = statSync(cache).mtimeMs;
    const second = await runBuilt(args, sb.env);
    expect(second.code, second.stderr).toBe(0);
    expect(statSync(cache).mtimeMs).toBe(written);
  });

  it("belongs to one bundle: a bundle changed in place (new modification time) gets a new cache", async () => {
    const bundle = join(ROOT, "dist", "rentctl.cjs");
    expect((await runBuilt(ARGS, sb.env)).code).toBe(0);
    const before = readdirSync(cacheDir()).filter((f) => f.endsWith("-catalog.currencies.bin"));
    expect(before).toHaveLength(1);
    const t = new Date(statSync(bundle).mtimeMs + 60_000);
    utimesSync(bundle, t, t);
    expect((await runBuilt(ARGS, sb.env)).code).toBe(0);
    const after = readdirSync(cacheDir()).filter((f) => f.endsWith("-catalog.currencies.bin"));
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(before[0]);
  });

  it("is not needed: a data dir that cannot be written, or RENTCTL_NO_CODE_CACHE=1, runs the same", async () => {
    const expected = await runBuilt(ARGS, sb.env);
    // under a regular file: no directory can be made there (whoever runs the test, root included)
    const blocker = join(sb.env.RENTCTL_DATA_DIR as string, "blocker");
    writeFileSync(blocker, "");
    const r = await runBuilt(ARGS, { ...sb.env, RENTCTL_DATA_DIR: join(blocker, "data") });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(expected.stdout);
    expect(r.stderr).toBe("");
    const off = join(sb.env.RENTCTL_DATA_DIR as string, "off");
    const o = await runBuilt(ARGS, { ...sb.env, RENTCTL_DATA_DIR: off, RENTCTL_NO_CODE_CACHE: "1" });
    expect(o.code).toBe(0);
    expect(o.stdout).toBe(expected.stdout);
    expect(existsSync(join(off, "code-cache"))).toBe(false);
  });

  it("bin/rentctl.js is CommonJS (no ES-module loader on the start-up path)", () => {
    expect(JSON.parse(readFileSync(join(ROOT, "bin", "package.json"), "utf8"))).toEqual({ type: "commonjs" });
    expect(readFileSync(BIN, "utf8")).toContain('require("../dist/boot.cjs")');
  });
});
