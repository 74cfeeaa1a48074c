import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VERSION } from "../../src/version.js";
import { BIN, ROOT, sandboxEnv } from "../helpers/cli.js";

// Guards of issue 15 (no timings): what each fast command may load. The built
// CLI runs under test/helpers/load-trace.mjs, which records every ES module it
// loads; esbuild's metafile (.build/metafile.json, written by scripts/build.mjs)
// says which sources and packages each dist chunk holds.

interface Loaded {
  code: number;
  stdout: string;
  /** npm packages whose code was loaded */
  packages: Set<string>;
  /** node: builtins and files outside dist/ */
  other: string[];
}

const TRACE_HOOK = join(ROOT, "test", "helpers", "load-trace.mjs");
const work = mkdtempSync(join(tmpdir(), "rentctl-trace-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function metafile(): { outputs: Record<string, { inputs: Record<string, unknown> }> } {
  const file = join(ROOT, ".build", "metafile.json");
  if (!existsSync(file)) throw new Error(".build/metafile.json is missing: run `npm run build` (npm test does)");
  return JSON.parse(readFileSync(file, "utf8"));
}

let n = 0;
async function traced(args: string[], env: NodeJS.ProcessEnv): Promise<Loaded> {
  const trace = join(work, `trace-${n++}.txt`);
  const child = spawn(process.execPath, ["--import", TRACE_HOOK, BIN, ...args], {
    env: { ...env, RENTCTL_LOAD_TRACE: trace },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  child.stdout.on("data", (d) => {
    stdout += d;
  });
  const code = await new Promise<number>((r) => child.on("close", (c) => r(c ?? -1)));
  const meta = metafile();
  const packages = new Set<string>();
  const other: string[] = [];
  const urls = existsSync(trace) ? readFileSync(trace, "utf8").trim().split("\n") : [];
  for (const url of urls) {
    const m = /\/(dist\/.+)$/.exec(url);
    if (!m) {
      other.push(url.startsWith("file:") ? url.slice(url.indexOf(ROOT) + ROOT.length + 1) : url);
      continue;
    }
    const out = meta.outputs[m[1] as string];
    if (!out) throw new Error(`${m[1]} is not in the metafile: rebuild`);
    for (const input of Object.keys(out.inputs)) {
      const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
      if (pkg) packages.add(pkg[1] as string);
    }
  }
  return { code, stdout, packages, other };
}

describe("module-load guards (built CLI)", () => {
  let sb: Awaited<ReturnType<typeof sandboxEnv>>;
  beforeAll(async () => {
    sb = await sandboxEnv();
  });
  afterAll(async () => {
    await sb.cleanup();
  });

  it("bin/rentctl.js, src/version.ts and package.json agree on the version", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
    expect(VERSION).toBe(pkg.version);
    expect(readFileSync(BIN, "utf8")).toContain(`const VERSION = "${pkg.version}";`);
  });

  it("--version loads nothing but bin/rentctl.js", { timeout: 60_000 }, async () => {
    const r = await traced(["--version"], sb.env);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${VERSION}\n`);
    expect(r.other).toEqual(["bin/rentctl.js"]);
    expect([...r.packages]).toEqual([]);
  });

  it("--help loads commander and no other package", { timeout: 60_000 }, async () => {
    for (const args of [["--help"], ["vehicle", "create", "--help"], ["catalog", "--help"]]) {
      const r = await traced(args, sb.env);
      expect(r.code, args.join(" ")).toBe(0);
      expect(r.stdout).toContain("Usage: rentctl");
      expect([...r.packages], args.join(" ")).toEqual(["commander"]);
    }
  });

  it("catalog currencies -o json loads undici but no table, yaml or prompt code", { timeout: 60_000 }, async () => {
    const r = await traced(["catalog", "currencies", "-o", "json"], sb.env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toBeTruthy();
    expect(r.packages).toContain("undici");
    const allowed = new Set(["commander", "undici", "chalk"]);
    expect([...r.packages].filter((p) => !allowed.has(p))).toEqual([]);
  });
});
