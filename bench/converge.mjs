// Exactly once, two at a time: what the lock and the identity check cost, and
// how fast a rerun after SIGKILL resumes. Prints figures; asserts nothing.
//   npm run build && node bench/converge.mjs [rows=1000] [concurrency=8] [killRows=300]
// 1. import ROWS rows into an empty owner of a fresh `sandbox serve`: rentctl
//    as shipped (row-log lock + identity check) vs `--no-dedupe` (the import
//    of before the check) vs a bare undici Pool script; 3 alternating rounds,
//    medians, each run on its own fresh sandbox.
// 2. the rerun after a SIGKILL at half of a KILL_ROWS-row import: on
//    `sandbox serve` with --timeout 2 (the rerun waits only for rows whose
//    request had started, never for rows only queued) and on the embedded
//    sandbox (its server died with the run: no wait at all).
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bin, median, root, sampleVehicle, serveSandbox, time } from "./lib.mjs";

const ROWS = Number(process.argv[2] ?? 1000);
const CONC = Number(process.argv[3] ?? 8);
const KILL_ROWS = Number(process.argv[4] ?? 300);
const home = mkdtempSync(join(tmpdir(), "rentctl-converge-bench-"));
const SAMPLE = await sampleVehicle(home);
const rowsFile = (prefix, n) => {
  const f = join(home, `${prefix}.ndjson`);
  let text = "";
  for (let i = 0; i < n; i++) text += `${JSON.stringify({ ...SAMPLE, vehicle_reg_number: `${prefix}-${i}` })}\n`;
  writeFileSync(f, text);
  return f;
};
const envFor = (dir, extra = {}) => ({
  ...process.env,
  RENTCTL_CONFIG_DIR: join(dir, "c"),
  RENTCTL_DATA_DIR: join(dir, "d"),
  RENTCTL_ENV: "sandbox",
  RENTCTL_USER_ID: "1003",
  NO_COLOR: "1",
  ...extra,
});
const check = (r, what) => {
  if (r.status !== 0) {
    console.error(`${what} failed (${r.status}): ${String(r.stderr).slice(-500)}`);
    process.exit(1);
  }
};

const bare = join(home, "bare.mjs");
writeFileSync(
  bare,
  `import { readFileSync } from "node:fs";
import { Pool } from ${JSON.stringify(join(root, "node_modules/undici/index.js"))};
const [base, file, conc, user] = process.argv.slice(2);
const bodies = readFileSync(file, "utf8").split("\\n").filter(Boolean).map((l) => new URLSearchParams({ user_id: user, locale_id: "40", ...JSON.parse(l) }).toString());
const pool = new Pool(base, { connections: Number(conc) });
let next = 0;
async function worker() {
  while (next < bodies.length) {
    const body = bodies[next++];
    const r = await pool.request({ method: "POST", path: "/api/v302/vehicles/create", body,
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: "Bearer sandbox-key-" + user, accept: "application/json" } });
    const text = await r.body.text();
    if (r.statusCode !== 200) throw new Error(r.statusCode + " " + text);
  }
}
await Promise.all(Array.from({ length: Number(conc) }, worker));
await pool.close();
`,
);

// 1. the cost of the lock and the identity check
const file = rowsFile("C", ROWS);
const warm = rowsFile("W", 300);
const figures = { shipped: [], noDedupe: [], bare: [] };
for (let round = 0; round < 3; round++) {
  for (const side of Object.keys(figures)) {
    const dir = mkdtempSync(join(home, "fresh-"));
    const s = await serveSandbox(dir);
    // the same warm-up for every side, into another owner (1003 stays empty)
    check(spawnSync(process.execPath, [bare, s.url, warm, String(CONC), "1002"], { encoding: "utf8" }), "warm-up");
    const r =
      side === "bare"
        ? time(() => spawnSync(process.execPath, [bare, s.url, file, String(CONC), "1003"], { encoding: "utf8" }))
        : time(() =>
            spawnSync(
              process.execPath,
              [
                bin,
                "vehicle",
                "import",
                file,
                "--concurrency",
                String(CONC),
                ...(side === "noDedupe" ? ["--no-dedupe"] : []),
              ],
              { env: envFor(dir, { RENTCTL_BASE_URL: s.url }), encoding: "utf8" },
            ),
          );
    check(r.r, side);
    figures[side].push(r.ms);
    await s.stop();
  }
}
const m = Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, median(v)]));
console.log(`import ${ROWS} rows, concurrency ${CONC}, a fresh sandbox serve each run, medians of 3`);
console.log(`rentctl (lock + identity check) ${(m.shipped / 1000).toFixed(2)} s`);
console.log(
  `rentctl --no-dedupe              ${(m.noDedupe / 1000).toFixed(2)} s   ratio shipped/no-dedupe ${(m.shipped / m.noDedupe).toFixed(3)}x (target <= 1.05x)`,
);
console.log(
  `bare undici Pool script          ${(m.bare / 1000).toFixed(2)} s   ratio shipped/bare ${(m.shipped / m.bare).toFixed(2)}x (target <= 1.2x)`,
);

// 2. the rerun after SIGKILL
/** Rows the running import has noted done in its row log. */
function doneRows(dir) {
  let n = 0;
  try {
    for (const f of readdirSync(join(dir, "d", "bulk")))
      if (f.endsWith(".jsonl"))
        n += (readFileSync(join(dir, "d", "bulk", f), "utf8").match(/"state":"done"/g) ?? []).length;
  } catch {
    // not there yet
  }
  return n;
}
async function killHalfway(args, env, dir) {
  const child = spawn(process.execPath, [bin, ...args], { env, stdio: ["ignore", "ignore", "ignore"] });
  const exited = new Promise((r) => child.once("exit", r));
  while (doneRows(dir) < KILL_ROWS / 2) await new Promise((r) => setTimeout(r, 2));
  child.kill("SIGKILL");
  await exited;
}
const killFile = rowsFile("K", KILL_ROWS);
const countOf = (env) => {
  const r = spawnSync(process.execPath, [bin, "vehicle", "list", "--all", "-q"], { env, encoding: "utf8" });
  return r.stdout.split("\n").filter(Boolean).length;
};

for (const where of ["serve", "embedded"]) {
  const dir = mkdtempSync(join(home, `kill-${where}-`));
  const s = where === "serve" ? await serveSandbox(dir) : undefined;
  const env = envFor(dir, s ? { RENTCTL_BASE_URL: s.url } : {});
  const args = ["vehicle", "import", killFile, "--concurrency", String(CONC), ...(s ? ["--timeout", "2"] : [])];
  await killHalfway(args, env, dir);
  const r = time(() => spawnSync(process.execPath, [bin, ...args], { env, encoding: "utf8" }));
  check(r.r, `rerun (${where})`);
  const waited = /waiting ([\d.]+) s/.exec(r.r.stderr)?.[1] ?? "0";
  console.log(
    `rerun after SIGKILL at half of ${KILL_ROWS} rows, ${where === "serve" ? "sandbox serve, --timeout 2" : "embedded sandbox, default timeout 30 s"}: ${(r.ms / 1000).toFixed(2)} s (settle wait ${waited} s), ${countOf(env)} vehicles (target ${KILL_ROWS} in < 5 s)`,
  );
  await s?.stop();
}
rmSync(home, { recursive: true, force: true });
