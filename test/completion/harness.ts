import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { buildProgram } from "../../src/cli/program.js";
import type { CliContext } from "../../src/cli/shared.js";
import { completionScript, SHELLS, type Shell } from "../../src/completion/generate.js";

/** Shared set-up of the completion tests: fresh scripts, a `rentctl` on PATH, a config with profiles. */

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

const dummyCtx: CliContext = {
  makeDeps() {
    throw new Error("completion generation must not build deps");
  },
};

// buildProgram imports each noun's module on demand, so it is async: build the whole tree once.
const wholeTree = await buildProgram(dummyCtx);

export function program(): Command {
  return wholeTree;
}

export function hasCommand(...path: string[]): boolean {
  let cmd: Command | undefined = program();
  for (const name of path) cmd = cmd?.commands.find((c) => c.name() === name);
  return cmd !== undefined;
}

export function hasShell(name: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${name}`], { stdio: "ignore" }).status === 0;
}

/** dist/ is what the scripts call back into; `npm test` builds it, a bare `vitest run` may not have. */
export function ensureBuilt(): void {
  if (existsSync(join(ROOT, "dist", "rentctl.cjs"))) return;
  const res = spawnSync(process.execPath, [join(ROOT, "scripts", "build.mjs")], { cwd: ROOT, encoding: "utf8" });
  if (res.status !== 0) throw new Error(`build failed:\n${res.stderr}`);
}

export interface Sandbox {
  dir: string;
  /** Scripts generated from the current sources. */
  scripts: Record<Shell, string>;
  /** Environment for the shells: the `rentctl` wrapper first on PATH, config and data dirs with test content. */
  env: NodeJS.ProcessEnv;
}

export const PROFILES = ["dev", "staging"];

export function setup(): Sandbox {
  ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), "rentctl-completion-"));
  const bin = join(dir, "bin");
  const config = join(dir, "config");
  const data = join(dir, "data");
  for (const d of [bin, config, join(data, "cache")]) mkdirSync(d, { recursive: true });
  writeFileSync(
    join(bin, "rentctl"),
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(ROOT, "bin", "rentctl.js"))} "$@"\n`,
    { mode: 0o755 },
  );
  writeFileSync(
    join(config, "config.json"),
    JSON.stringify({ current: "dev", profiles: { dev: { env: "sandbox" }, staging: { env: "test" } } }),
  );
  const scripts = {} as Record<Shell, string>;
  const names: Record<Shell, string> = { bash: "rentctl.bash", zsh: "_rentctl", fish: "rentctl.fish" };
  mkdirSync(join(dir, "scripts"));
  for (const shell of SHELLS) {
    scripts[shell] = join(dir, "scripts", names[shell]);
    writeFileSync(scripts[shell], completionScript(program(), shell));
  }
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${bin}:${process.env.PATH ?? ""}`,
    RENTCTL_CONFIG_DIR: config,
    RENTCTL_DATA_DIR: data,
    HOME: dir,
    NO_COLOR: "1",
  };
  for (const k of ["RENTCTL_PROFILE", "RENTCTL_ENV", "RENTCTL_COMPLETE_FETCH", "ZDOTDIR"]) delete env[k];
  return { dir, scripts, env };
}

/** Drop the items a test cache offers for `--brand` into the data dir. */
export function writeBrandsCache(sb: Sandbox): void {
  writeFileSync(
    join(sb.env.RENTCTL_DATA_DIR!, "cache", "catalog-brands.json"),
    JSON.stringify({
      version: 1,
      catalog: "brands",
      fetchedAt: "2026-01-01T00:00:00.000Z",
      items: [
        { id: 1, name: "Toyota" },
        { id: 2, name: "Land Rover" },
        { id: 3, title: "BMW" },
      ],
    }),
  );
}

/** Caches a person's earlier commands leave: segments, boat brands, currencies, listed vehicles. */
export function writeRecognisableCaches(sb: Sandbox): void {
  const dir = join(sb.env.RENTCTL_DATA_DIR!, "cache");
  const put = (file: string, body: object) => writeFileSync(join(dir, file), JSON.stringify(body));
  const at = "2026-01-01T00:00:00.000Z";
  put("catalog-segments.json", {
    version: 1,
    catalog: "segments",
    fetchedAt: at,
    items: [
      { id: 1, name: "Cars" },
      { id: 2, name: "Motorcycles" },
      { id: 3, name: "Boats" },
    ],
  });
  put("catalog-brands.segment_id-3.json", {
    version: 1,
    catalog: "brands",
    fetchedAt: at,
    params: { segment_id: 3 },
    items: [
      { id: 13, name: "Beneteau", segment_id: 3 },
      { id: 14, name: "Bayliner", segment_id: 3 },
    ],
  });
  put("catalog-currencies.json", {
    version: 1,
    catalog: "currencies",
    fetchedAt: at,
    items: [
      { id: 1, code: "EUR", symbol: "€", name: "Euro" },
      { id: 2, code: "USD", symbol: "$", name: "US Dollar" },
    ],
  });
  put("catalog-fuel-policies.json", {
    version: 1,
    catalog: "fuel-policies",
    fetchedAt: at,
    items: [
      { id: 1, name: "Full to full" },
      { id: 2, name: "Same to same" },
    ],
  });
  put("vehicles.json", {
    version: 1,
    vehicles: [
      { id: 42, reg: "B-SC 1001", scope: "sandbox" },
      { id: 43, reg: "M-XY 77", scope: "sandbox" },
    ],
  });
}
