// `rentctl lint` figures (issue 43): lint of a 10,000-vehicle account against
// `vehicle list --all -o ndjson` of the same account, measured in the same rounds (target: ≤ 1.5×).
// Lint lists the same pages, then runs every rule (contract checks included) and names the
// vehicles with findings. Prints the figures and PASS / FAIL; asserts nothing. Runs against
// `rentctl sandbox serve` (a separate process, in memory).
//   npm run build && node bench/lint.mjs [vehicles=10000] [runs=1]
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bin, median, sampleVehicle, serveSandbox, time } from "./lib.mjs";

const N = Number(process.argv[2] ?? 10000);
const RUNS = Number(process.argv[3] ?? 1);
const USER = 1003;
const home = mkdtempSync(join(tmpdir(), "rentctl-lint-bench-"));
const serve = await serveSandbox(home);
const env = {
  ...process.env,
  RENTCTL_CONFIG_DIR: join(home, "c"),
  RENTCTL_DATA_DIR: join(home, "d"),
  RENTCTL_ENV: "sandbox",
  RENTCTL_BASE_URL: serve.url,
  RENTCTL_USER_ID: String(USER),
  NO_COLOR: "1",
};
// each run also reports its own CPU time (user + system) on exit: on a loaded machine the wall
// time of a run swings with the other sessions, its CPU time much less
const cpuHook = join(home, "cpu.cjs");
writeFileSync(
  cpuHook,
  `process.on("exit", () => { const u = process.cpuUsage(); process.stderr.write("\\nbench-cpu-ms " + ((u.user + u.system) / 1000).toFixed(0) + "\\n"); });`,
);
const cli = (args, withCpu = false) =>
  spawnSync(process.execPath, [...(withCpu ? ["--require", cpuHook] : []), bin, ...args], {
    env,
    encoding: "utf8",
    maxBuffer: 1 << 30,
  });
const cpuOf = (r) => Number(/bench-cpu-ms (\d+)/.exec(String(r.stderr))?.[1] ?? Number.NaN);
const check = (r, what, ok = [0]) => {
  if (!ok.includes(r.status)) {
    console.error(`${what} failed (${r.status}): ${String(r.stderr).slice(-800)}`);
    serve.stop();
    process.exit(1);
  }
  return r;
};

// an account of N vehicles, every tenth with a defect a rule finds (a price that rises, a short description)
const SAMPLE = await sampleVehicle(home);
let text = "";
for (let i = 0; i < N; i++) {
  const defect = i % 10 === 0 ? { price_per_week: SAMPLE.price_per_day + 5, vehicle_description: "Short." } : {};
  const vin = `LBVIN${String(i).padStart(12, "0")}`;
  text += `${JSON.stringify({ ...SAMPLE, vehicle_reg_number: `LB-${i}`, vehicle_vin: vin, ...defect })}\n`;
}
const seed = join(home, "seed.ndjson");
writeFileSync(seed, text);
const t0 = Date.now();
check(cli(["vehicle", "import", seed, "--concurrency", "8"]), "seed import");
console.log(`setup: ${N} vehicles in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
// warm both (code cache, catalog cache, model index)
check(cli(["vehicle", "list", "--all", "-o", "ndjson"]), "list");
check(cli(["lint", "-o", "json"]), "lint");

const list = [];
const lint = [];
const listCpu = [];
const lintCpu = [];
let findings = 0;
let byRule = {};
for (let r = 0; r < RUNS; r++) {
  const v = time(() => check(cli(["vehicle", "list", "--all", "-o", "ndjson"], true), "list"));
  list.push(v.ms);
  listCpu.push(cpuOf(v.r));
  const l = time(() => check(cli(["lint", "-o", "ndjson"], true), "lint"));
  lint.push(l.ms);
  lintCpu.push(cpuOf(l.r));
  const items = l.r.stdout
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((x) => JSON.parse(x));
  findings = items.length;
  byRule = {};
  for (const f of items) byRule[f.rule] = (byRule[f.rule] ?? 0) + 1;
}
const ratio = median(lint) / median(list);
// min / median / max of each side (the machine is shared: the runs of a round are side by side)
const s = (ms) => (ms / 1000).toFixed(2);
const spread = (xs) => `min ${s(Math.min(...xs))} / median ${s(median(xs))} / max ${s(Math.max(...xs))} s`;
console.log(`vehicle list --all -o ndjson: ${spread(list)} (runs: ${list.map(s).join(", ")})`);
console.log(`lint -o ndjson:               ${spread(lint)} (runs: ${lint.map(s).join(", ")}), ${findings} findings`);
console.log(`per round lint / list: ${lint.map((x, i) => (x / list[i]).toFixed(2)).join(", ")}`);
console.log(`cpu (user + system) list: ${spread(listCpu)}; lint: ${spread(lintCpu)}`);
console.log(`cpu lint / list: ${(median(lintCpu) / median(listCpu)).toFixed(2)}×`);
console.log(`lint / list: ${ratio.toFixed(2)}× (target ≤ 1.5×) ${ratio <= 1.5 ? "PASS" : "FAIL"}`);
if (process.env.LINT_BENCH_PROFILE) {
  // one profiled run (node --cpu-prof) into the given directory
  spawnSync(
    process.execPath,
    ["--cpu-prof", "--cpu-prof-dir", process.env.LINT_BENCH_PROFILE, bin, "lint", "-o", "ndjson"],
    {
      env,
      encoding: "utf8",
      maxBuffer: 1 << 30,
    },
  );
}
await serve.stop();
rmSync(home, { recursive: true, force: true });
