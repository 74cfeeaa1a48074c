// Resume without the wait (issue 41 item 9): the rerun right after a SIGKILL
// of an import, against a server that answers every request LATENCY ms late.
// The run is killed once all but its last CONC rows are done (the rest are in
// flight). The rerun lists first: a row the listing shows is done at once;
// only a row it does not show (its request never reached the server) waits,
// until its own deadline. Goal: under 5 s for 300 rows at 300 ms when the
// server stored every row in flight ("no wait" rounds). Prints the figures;
// asserts nothing.
//   npm run build && node bench/resume.mjs [rows=300] [latencyMs=300] [runs=5]
// Compare another build with RENTCTL_BENCH_BIN=/path/to/bin/rentctl.js.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bin, median, sampleVehicle } from "./lib.mjs";

const ROWS = Number(process.argv[2] ?? 300);
const LATENCY = Number(process.argv[3] ?? 300);
const RUNS = Number(process.argv[4] ?? 5);
const CONC = 8;
const home = mkdtempSync(join(tmpdir(), "rentctl-resume-bench-"));
const SAMPLE = await sampleVehicle(home);

/** `rentctl sandbox serve --latency` in memory, in its own process. */
async function serve(dir) {
  const srv = spawn(
    process.execPath,
    [bin, "sandbox", "serve", "--port", "0", "--memory", "--latency", String(LATENCY), "-o", "json"],
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
  return { url: info.url.replace(/\/$/, ""), stop: () => (srv.kill(), exited) };
}

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

function run(args, env) {
  const t = process.hrtime.bigint();
  const child = spawn(process.execPath, [bin, ...args], { env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  return new Promise((r) =>
    child.once("exit", (code) => r({ code, stderr, ms: Number(process.hrtime.bigint() - t) / 1e6 })),
  );
}

const times = [];
for (let round = 0; round < RUNS; round++) {
  const dir = mkdtempSync(join(home, `r${round}-`));
  const server = await serve(dir);
  const env = {
    ...process.env,
    RENTCTL_CONFIG_DIR: join(dir, "c"),
    RENTCTL_DATA_DIR: join(dir, "d"),
    RENTCTL_ENV: "sandbox",
    RENTCTL_BASE_URL: server.url,
    RENTCTL_USER_ID: "1003",
    NO_COLOR: "1",
  };
  const file = join(dir, "rows.ndjson");
  let text = "";
  for (let i = 0; i < ROWS; i++) text += `${JSON.stringify({ ...SAMPLE, vehicle_reg_number: `R${round}-${i}` })}\n`;
  writeFileSync(file, text);
  // the import, killed with its last rows in flight (the default timeout: 30 s is what a rerun used to wait)
  const child = spawn(process.execPath, [bin, "vehicle", "import", file, "--concurrency", String(CONC)], {
    env,
    stdio: "ignore",
  });
  const exited = new Promise((r) => child.once("exit", r));
  while (doneRows(dir) < ROWS - CONC) await new Promise((r) => setTimeout(r, 2));
  child.kill("SIGKILL");
  await exited;
  // right after: every request in flight reaches the server within LATENCY ms, before the rerun's listing is answered
  const r = await run(["vehicle", "import", file, "--concurrency", String(CONC)], env);
  const waited = /waiting (\d+\.\d) s/.exec(r.stderr)?.[1];
  const summary = r.stderr.trim().split("\n").at(-1);
  console.log(
    `round ${round + 1}: rerun ${(r.ms / 1000).toFixed(2)} s, exit ${r.code}${waited ? `, waited ${waited} s` : ", no wait"}  (${summary})`,
  );
  times.push({ ms: r.ms, stored: !waited });
  await server.stop();
}
const stored = times.filter((t) => t.stored).map((t) => t.ms);
console.log(
  `rerun right after SIGKILL of a ${ROWS}-row import, server latency ${LATENCY} ms: median ${(median(times.map((t) => t.ms)) / 1000).toFixed(2)} s over ${RUNS} runs; ${stored.length ? `median ${(median(stored) / 1000).toFixed(2)} s over the ${stored.length} where the server stored every row in flight (goal < 5 s)` : "no run where the server stored every row in flight"}`,
);
rmSync(home, { recursive: true, force: true });
