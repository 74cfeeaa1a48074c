import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command, Option } from "commander";
import { beforeAll, describe, expect, it } from "vitest";
import { catalogCacheFile, readCatalogCache, writeCatalogCache } from "../../src/catalog/cache.js";
import { completionModel, completionScript, SCRIPT_FILES, SHELLS } from "../../src/completion/generate.js";
import { allCommands } from "../../src/completion/model.js";
import { main } from "../../src/main.js";
import { ensureBuilt, program, ROOT } from "./harness.js";

const REGENERATE = "npm run build && node scripts/gen-completions.mjs";

function memoryIO() {
  let out = "";
  let err = "";
  const sink = (add: (s: string) => void) =>
    ({
      write(chunk: string | Uint8Array, cb?: unknown) {
        add(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
        const done = typeof cb === "function" ? cb : undefined;
        done?.();
        return true;
      },
    }) as unknown as NodeJS.WritableStream;
  return {
    io: {
      stdout: sink((s) => {
        out += s;
      }),
      stderr: sink((s) => {
        err += s;
      }),
      stdin: process.stdin,
      stdoutTTY: false,
      stderrTTY: false,
      stdinTTY: false,
    },
    out: () => out,
    err: () => err,
  };
}

describe("checked-in completion scripts", () => {
  for (const shell of SHELLS) {
    it(`${SCRIPT_FILES[shell]} is up to date`, () => {
      const file = join(ROOT, SCRIPT_FILES[shell]);
      const expected = completionScript(program(), shell);
      const actual = existsSync(file) ? readFileSync(file, "utf8") : "(missing)";
      // Not toEqual on the whole text: a 70 KB diff helps nobody; say what to run.
      expect(
        actual === expected,
        `${SCRIPT_FILES[shell]} differs from what the command tree generates; regenerate with: ${REGENERATE}`,
      ).toBe(true);
    });
  }
});

describe("rentctl completion SHELL", () => {
  beforeAll(() => ensureBuilt());

  for (const shell of SHELLS) {
    it(`prints exactly ${SCRIPT_FILES[shell]} for ${shell}`, () => {
      const res = spawnSync(process.execPath, [join(ROOT, "bin", "rentctl.js"), "completion", shell], {
        encoding: "utf8",
      });
      expect(res.status).toBe(0);
      expect(
        res.stdout === readFileSync(join(ROOT, SCRIPT_FILES[shell]), "utf8"),
        `regenerate with: ${REGENERATE}`,
      ).toBe(true);
    });
  }

  it("rejects an unknown shell as a usage error (exit 2)", async () => {
    const m = memoryIO();
    const code = await main(["completion", "powershell"], { io: m.io, env: { NO_COLOR: "1" } });
    expect(code).toBe(2);
    expect(m.err()).toContain('unknown shell "powershell"');
    expect(m.err()).toContain("bash, zsh, fish");
    expect(m.out()).toBe("");
  });

  it("asks for a shell when none is given (exit 2)", async () => {
    const m = memoryIO();
    const code = await main(["completion"], { io: m.io, env: { NO_COLOR: "1" } });
    expect(code).toBe(2);
    expect(m.err()).toContain("name a shell");
  });

  it("prints the script in process too", async () => {
    const m = memoryIO();
    const code = await main(["completion", "fish"], { io: m.io, env: {} });
    expect(code).toBe(0);
    expect(m.out()).toBe(completionScript(program(), "fish"));
  });
});

describe("the model is read off the command tree", () => {
  it("lists every visible command, the global flags once, and hides __complete", () => {
    const model = completionModel(program());
    const paths = allCommands(model.root).map((c) => c.path.join(" "));
    expect(paths).toContain("catalog brands");
    expect(paths).toContain("completion");
    const hidden = allCommands(model.root)
      .filter((c) => c.hidden)
      .map((c) => c.path.join(" "));
    expect(hidden).toEqual(["completion __complete"]);
    const globals = model.globals.map((o) => o.long);
    expect(globals).toEqual(expect.arrayContaining(["--profile", "--env", "--output", "--fields", "--json"]));
    expect(globals).not.toContain("--version");
    const output = model.globals.find((o) => o.long === "--output")!;
    expect(output).toMatchObject({ short: "-o", takesValue: true, values: { kind: "words" } });
    expect(model.globals.find((o) => o.long === "--json")).toMatchObject({ takesValue: false });
    expect(model.globals.find((o) => o.long === "--profile")?.values).toEqual({ kind: "dynamic", args: ["profiles"] });
  });

  it("picks up a command or flag added to the program, in every shell", () => {
    const prog = program();
    prog.addCommand(
      new Command("garage")
        .description("A noun added later")
        .addCommand(
          new Command("park")
            .addOption(new Option("--bay <n>", "bay").choices(["north", "south"]))
            .option("--valet", "with a valet"),
        ),
    );
    for (const shell of SHELLS) {
      const script = completionScript(prog, shell);
      expect(script, shell).toContain("garage");
      expect(script, shell).toContain("park");
      expect(script, shell).toContain("valet");
      expect(script, shell).toMatch(/north.*south/);
    }
  });

  it("offers catalog names where a flag takes a name, ids where it takes an id", () => {
    const model = completionModel(program());
    const find = (path: string, flag: string) =>
      allCommands(model.root)
        .find((c) => c.path.join(" ") === path)
        ?.options.find((o) => o.long === flag)?.values;
    expect(find("catalog models", "--brand")).toEqual({ kind: "dynamic", args: ["catalog", "brands"] });
    expect(find("catalog brands", "--segment")).toEqual({ kind: "dynamic", args: ["catalog", "segments"] });
    expect(model.globals.find((o) => o.long === "--locale")?.values).toEqual({
      kind: "dynamic",
      args: ["catalog", "locales"],
    });
  });
});

describe("catalog cache and dynamic values", () => {
  const paths = () => {
    const dir = mkdtempSync(join(tmpdir(), "rentctl-cache-"));
    return { configDir: join(dir, "config"), dataDir: join(dir, "data") };
  };

  it("writes <dataDir>/cache/catalog-<name>.json and reads it back", () => {
    const p = paths();
    const when = new Date("2026-01-02T03:04:05.000Z");
    expect(writeCatalogCache(p, "brands", [{ id: 1, name: "Toyota" }], when)).toBe(true);
    expect(catalogCacheFile(p, "brands")).toBe(join(p.dataDir, "cache", "catalog-brands.json"));
    expect(JSON.parse(readFileSync(catalogCacheFile(p, "brands"), "utf8"))).toEqual({
      version: 1,
      catalog: "brands",
      fetchedAt: "2026-01-02T03:04:05.000Z",
      items: [{ id: 1, name: "Toyota" }],
    });
    expect(readCatalogCache(p, "brands")?.items).toEqual([{ id: 1, name: "Toyota" }]);
  });

  it("treats a missing, broken or foreign cache as absent, and never throws on write", () => {
    const p = paths();
    expect(readCatalogCache(p, "segments")).toBeUndefined();
    writeCatalogCache(p, "segments", []);
    writeFileSync(catalogCacheFile(p, "segments"), "{not json");
    expect(readCatalogCache(p, "segments")).toBeUndefined();
    expect(writeCatalogCache(p, "../escape", [])).toBe(false);
    expect(writeCatalogCache({ dataDir: "/dev/null/x" }, "brands", [])).toBe(false);
  });

  it("`completion __complete` prints profiles and cached catalog values, and nothing without a cache", async () => {
    const p = paths();
    mkdirSync(p.configDir, { recursive: true });
    writeFileSync(join(p.configDir, "config.json"), JSON.stringify({ profiles: { b: {}, a: {} } }));
    writeCatalogCache(p, "brands", [
      { id: 7, name: "Toyota" },
      { id: 8, title: "BMW" },
    ]);
    const env = { RENTCTL_CONFIG_DIR: p.configDir, RENTCTL_DATA_DIR: p.dataDir };
    const run = async (...args: string[]) => {
      const m = memoryIO();
      const code = await main(["completion", "__complete", ...args], { io: m.io, env });
      expect(code).toBe(0);
      return m.out();
    };
    expect(await run("profiles")).toBe("a\nb\n");
    expect(await run("catalog", "brands")).toBe("Toyota\t7\nBMW\t8\n");
    expect(await run("catalog", "brands", "--ids")).toBe("7\tToyota\n8\tBMW\n");
    expect(await run("catalog", "segments")).toBe("");
    expect(await run("nonsense")).toBe("");
  });
});
