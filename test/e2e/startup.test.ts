import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, ROOT, sandboxEnv } from "../helpers/cli.js";

// Module-load guard (issue 15): runs the BUILT CLI under a load hook that
// records every module file it loads, maps each dist/ file back to the
// packages bundled into it (esbuild's metafile, dist/meta.json), and fails
// when a command loads a package outside its allow-list. No timings.
const HOOK = join(ROOT, "test", "helpers", "trace-loads.mjs");

interface Meta {
  outputs: Record<string, { inputs: Record<string, unknown> }>;
}

function packageOf(input: string): string | undefined {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  return m?.[1];
}

// The sandbox runs in this process: the child must be spawned asynchronously.
async function loadedPackages(args: string[], env: NodeJS.ProcessEnv): Promise<string[]> {
  const meta = JSON.parse(readFileSync(join(ROOT, "dist", "meta.json"), "utf8")) as Meta;
  const trace = join(String(env.RENTCTL_DATA_DIR), `..`, `trace-${args.join("-")}.txt`);
  rmSync(trace, { force: true });
  const child = spawn(process.execPath, ["--import", HOOK, BIN, ...args], {
    env: { ...env, RENTCTL_TRACE_LOADS: trace },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  const code = await new Promise<number | null>((r) => child.on("close", r));
  expect(code, stderr).toBe(0);
  const pkgs = new Set<string>();
  for (const url of readFileSync(trace, "utf8").split("\n")) {
    if (!url.startsWith("file:")) continue;
    const file = relative(ROOT, fileURLToPath(url));
    const direct = packageOf(file);
    if (direct) pkgs.add(direct);
    for (const input of Object.keys(meta.outputs[file]?.inputs ?? {})) {
      const p = packageOf(input);
      if (p) pkgs.add(p);
    }
  }
  return [...pkgs].sort();
}

let sandbox: Awaited<ReturnType<typeof sandboxEnv>>;
beforeAll(async () => {
  sandbox = await sandboxEnv();
});
afterAll(async () => {
  await sandbox.cleanup();
});

function outside(pkgs: string[], allowed: string[]): string[] {
  return pkgs.filter((p) => !allowed.includes(p));
}

describe("module-load guard (built CLI)", () => {
  it("--version loads no package at all", async () => {
    expect(await loadedPackages(["--version"], sandbox.env)).toEqual([]);
  }, 120_000);

  // chalk is allowed: the help path reaches output/color.js today (small, no dependencies).
  it("--help loads only commander and chalk (no undici, inquirer, cli-table3, yaml)", async () => {
    expect(outside(await loadedPackages(["--help"], sandbox.env), ["commander", "chalk"])).toEqual([]);
  }, 120_000);

  it("catalog currencies -o json loads no prompts, tables or yaml", async () => {
    const pkgs = await loadedPackages(["catalog", "currencies", "-o", "json"], sandbox.env);
    expect(pkgs).toContain("undici");
    expect(outside(pkgs, ["commander", "undici", "chalk", "conf"])).toEqual([]);
  }, 120_000);
});
