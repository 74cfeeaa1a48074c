import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VERSION } from "../../src/base/version.js";
import { BIN, ROOT, sandboxEnv } from "../helpers/cli.js";
import { type LoadTrace, readLoadTrace } from "../helpers/load-trace.js";

// Guards of issue 15 (no timings): what each fast command may load. The built
// CLI runs with V8 coverage on (NODE_V8_COVERAGE); test/helpers/load-trace.ts
// turns it into the scripts compiled and the sources (and npm packages) of
// dist/rentctl.cjs whose code ran.

const work = mkdtempSync(join(tmpdir(), "rentctl-trace-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let n = 0;
async function traced(args: string[], env: NodeJS.ProcessEnv): Promise<LoadTrace & { code: number; stdout: string }> {
  const dir = join(work, `cov-${n++}`);
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...env, NODE_V8_COVERAGE: dir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  child.stdout.on("data", (d) => {
    stdout += d;
  });
  const code = await new Promise<number>((r) => child.on("close", (c) => r(c ?? -1)));
  return { code, stdout, ...readLoadTrace(dir, ROOT) };
}

describe("module-load guards (built CLI)", () => {
  let sb: Awaited<ReturnType<typeof sandboxEnv>>;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    sb = await sandboxEnv();
    env = { ...sb.env };
    delete env.COLUMNS;
  });
  afterAll(async () => {
    await sb.cleanup();
  });

  it("bin/rentctl.js, src/base/version.ts and package.json agree on the version", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
    expect(VERSION).toBe(pkg.version);
    expect(readFileSync(BIN, "utf8")).toContain(`const VERSION = "${pkg.version}";`);
  });

  it("--version loads nothing but bin/rentctl.js", { timeout: 60_000 }, async () => {
    const r = await traced(["--version"], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${VERSION}\n`);
    expect(r.scripts).toEqual(["bin/rentctl.js"]);
  });

  it("--help of any command prints its build-time page: no bundle, no package", { timeout: 60_000 }, async () => {
    for (const args of [["--help"], ["vehicle", "create", "--help"], ["catalog", "-h"]]) {
      const r = await traced(args, env);
      expect(r.code, args.join(" ")).toBe(0);
      expect(r.stdout).toContain("Usage: rentctl");
      expect(r.scripts, args.join(" ")).toEqual(["bin/rentctl.js", "dist/boot.cjs"]);
    }
  });

  it("help at another width is rendered by commander, with the verb's module alone", { timeout: 60_000 }, async () => {
    const r = await traced(["vehicle", "create", "--help"], { ...env, COLUMNS: "100" });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Usage: rentctl vehicle create");
    expect(r.scripts).toContain("dist/rentctl.cjs");
    // the verb's module loads (with what a run of it loads: config, the client, the file readers), no other verb's
    expect(r.sources).toContain("src/commands/vehicle/create.ts");
    const others = [...r.sources].filter((s) =>
      /^src\/commands\/vehicle\/(list|get|wizard|edit|remove|activate|calendar|export|import|diff|apply|schema)\.ts$/.test(
        s,
      ),
    );
    expect(others).toEqual([]);
    const allowed = new Set(["commander", "undici", "chalk", "js-yaml"]);
    expect([...r.packages].filter((p) => !allowed.has(p))).toEqual([]);
    // no sandbox server (config reads the demo owners' table, src/sandbox/owners.ts, statically)
    expect([...r.sources].filter((s) => s.startsWith("src/sandbox/") && s !== "src/sandbox/owners.ts")).toEqual([]);
  });

  it("the command table evaluates only light modules (a verb's module loads when it runs)", () => {
    // The static imports of the program (which builds each noun's table of verbs: addVerbTable), from the build's
    // metafile: building the tree for help, for a run of one verb, or for every noun (completion, `help`, a typo)
    // evaluates them all. (A noun that is one verb, `lint` or `api`, imports its verb: it loads when it runs.)
    const meta = JSON.parse(readFileSync(join(ROOT, ".build", "metafile.json"), "utf8")) as {
      inputs: Record<string, { imports: { path: string; kind: string; external?: boolean }[] }>;
    };
    const staticClosure = (start: string): string[] => {
      const seen = new Set<string>();
      const stack = [start];
      while (stack.length > 0) {
        const f = stack.pop() as string;
        if (seen.has(f)) continue;
        seen.add(f);
        for (const i of meta.inputs[f]?.imports ?? []) if (i.kind === "import-statement") stack.push(i.path);
      }
      return [...seen];
    };
    // Node's own modules: only those every run has loaded already (a first require of node:fs/promises costs ~2 ms).
    const BUILTINS = new Set(["node:fs", "node:path", "node:os", "node:v8", "node:vm"]);
    const HEAVY =
      /^src\/(commands\/[a-z]+\/|fleet|bulk|gateway|resources|output\/(?!formats)|sandbox|wizard|history|completion|catalog\/(service|cache)|api\/(client|retry|decode|paginate))|^src\/(deps|prompt)\.ts$|node_modules\/(?!commander\/)/;
    const builders = Object.keys(meta.inputs).filter(
      (f) =>
        f === "src/cli/program.ts" ||
        (/^src\/cli\/[a-z-]+\.ts$/.test(f) && readFileSync(join(ROOT, f), "utf8").includes("addVerbTable(")),
    );
    expect(builders).toEqual(expect.arrayContaining(["src/cli/program.ts"]));
    // the command tables (src/cli/nouns.ts) are built by the program itself
    expect(staticClosure("src/cli/program.ts")).toEqual(
      expect.arrayContaining(["src/cli/nouns.ts", "src/cli/assemble.ts"]),
    );
    const heavy = builders.flatMap((b) =>
      staticClosure(b)
        .filter((f) => HEAVY.test(f) || (f.startsWith("node:") && !BUILTINS.has(f)))
        .map((f) => `${b} -> ${f}`),
    );
    expect(heavy).toEqual([]);
  });

  it("catalog currencies -o json loads undici but no table, yaml or prompt code", { timeout: 60_000 }, async () => {
    const r = await traced(["catalog", "currencies", "-o", "json"], env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toBeTruthy();
    expect(r.packages).toContain("undici");
    const allowed = new Set(["commander", "undici", "chalk"]);
    expect([...r.packages].filter((p) => !allowed.has(p))).toEqual([]);
    // nothing of the other nouns' commands either
    expect([...r.sources].filter((s) => /^src\/(commands\/vehicle|fleet|bulk|wizard)\//.test(s))).toEqual([]);
  });
});
