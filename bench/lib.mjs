// What the benches share: a `rentctl sandbox serve` of their own, the
// sandbox's sample vehicle, and timing helpers.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

export const root = fileURLToPath(new URL("..", import.meta.url));
/** The CLI under test (RENTCTL_BENCH_BIN compares another build). */
export const bin = process.env.RENTCTL_BENCH_BIN || join(root, "bin", "rentctl.js");

/**
 * Start `rentctl sandbox serve` in memory, in its own process, with config and
 * data under `dir` (`extraArgs`: e.g. `--latency MS`). Resolves with its address (no trailing slash), owners and a
 * stop() that resolves once the process is gone.
 */
export async function serveSandbox(dir, extraArgs = []) {
  const srv = spawn(
    process.execPath,
    [bin, "sandbox", "serve", "--port", "0", "--memory", "-o", "json", ...extraArgs],
    {
      env: { ...process.env, RENTCTL_CONFIG_DIR: join(dir, "c"), RENTCTL_DATA_DIR: join(dir, "d") },
      stdio: ["ignore", "pipe", "ignore"],
    },
  );
  const exited = new Promise((r) => srv.once("exit", r));
  const info = await new Promise((resolve, reject) => {
    let buf = "";
    srv.stdout.on("data", (d) => {
      buf += d;
      const nl = buf.indexOf("\n");
      if (nl >= 0) resolve(JSON.parse(buf.slice(0, nl)));
    });
    srv.once("exit", (c) => reject(new Error(`sandbox serve exited ${c}`)));
  });
  return {
    url: info.url.replace(/\/$/, ""),
    owners: info.owners,
    stop: () => {
      srv.kill();
      return exited;
    },
  };
}

/** The sandbox's own sample vehicle input (src/sandbox/seed.ts), every field a scalar, without owner and plate. */
export async function sampleVehicle(work) {
  const dir = mkdtempSync(join(work, "seed-"));
  await build({
    stdin: { contents: 'export { sampleVehicleInput } from "./src/sandbox/seed.ts";', resolveDir: root, loader: "ts" },
    bundle: true,
    format: "esm",
    platform: "node",
    outfile: join(dir, "seed.mjs"),
    logLevel: "warning",
  });
  const { sampleVehicleInput } = await import(pathToFileURL(join(dir, "seed.mjs")).href);
  const { user_id: _user, vehicle_reg_number: _reg, ...rest } = sampleVehicleInput(0);
  return rest;
}

/** Wall time of a synchronous call: { ms, r }. */
export function time(fn) {
  const t = process.hrtime.bigint();
  const r = fn();
  return { ms: Number(process.hrtime.bigint() - t) / 1e6, r };
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
