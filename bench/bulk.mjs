// Bulk import/export figures: rentctl against a bare undici Pool script and a
// shell loop of `vehicle create`, plus peak RSS of import and export at two
// sizes. Prints ratios; asserts nothing. Runs against `rentctl sandbox serve`
// (a separate process, in memory).
// Issue 42's absolute figure: import of 50,000 rows at most 150 MiB.
//   npm run build && node bench/bulk.mjs [rows=1000] [concurrency=8] [loopSample=20]
//   RENTCTL_BENCH_RSS_ONLY=1 node bench/bulk.mjs   (the peak RSS figures alone)
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bin, median, root, sampleVehicle, serveSandbox, time } from "./lib.mjs";

const ROWS = Number(process.argv[2] ?? 1000);
const CONC = Number(process.argv[3] ?? 8);
const LOOP_SAMPLE = Number(process.argv[4] ?? 20);
const home = mkdtempSync(join(tmpdir(), "rentctl-bulk-bench-"));

// The sandbox, in its own process.
const serve = await serveSandbox(home);
const base = serve.url;
const env = (user) => ({
  ...process.env,
  RENTCTL_CONFIG_DIR: join(home, "c"),
  RENTCTL_DATA_DIR: join(home, "d"),
  RENTCTL_ENV: "sandbox",
  RENTCTL_BASE_URL: base,
  RENTCTL_USER_ID: String(user),
  NO_COLOR: "1",
});

// The sandbox's sample vehicle (scalars only, so the bare script can encode it with URLSearchParams).
const SAMPLE = await sampleVehicle(home);
const rowsFile = (prefix, n) => {
  const f = join(home, `${prefix}.ndjson`);
  let text = "";
  for (let i = 0; i < n; i++) text += `${JSON.stringify({ ...SAMPLE, vehicle_reg_number: `${prefix}-${i}` })}\n`;
  writeFileSync(f, text);
  return f;
};
const check = (r, what) => {
  if (r.status !== 0) {
    console.error(`${what} failed (${r.status}): ${String(r.stderr).slice(-500)}`);
    process.exit(1);
  }
};
const cli = (args, user) => spawnSync(process.execPath, [bin, ...args], { env: env(user), encoding: "utf8" });
/** Peak RSS (MiB) of one CLI run, from /usr/bin/time -v. */
const rssOf = (args, user) => {
  const r = spawnSync("/usr/bin/time", ["-v", process.execPath, bin, ...args], { env: env(user), encoding: "utf8" });
  check(r, args.join(" "));
  return Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)[1]) / 1024;
};

if (!process.env.RENTCTL_BENCH_RSS_ONLY) {
  // 1. rentctl import vs a bare undici Pool script posting the same bodies:
  //    the sandbox warmed up first, then 3 alternating rounds, medians (each run
  //    spawns its process: start-up is included on both sides).
  const bare = join(home, "bare.mjs");
  writeFileSync(
    bare,
    `import { readFileSync } from "node:fs";
import { Pool } from ${JSON.stringify(join(root, "node_modules/undici/index.js"))};
const [base, file, conc] = process.argv.slice(2);
const bodies = readFileSync(file, "utf8").split("\\n").filter(Boolean).map((l) => new URLSearchParams({ user_id: process.env.BENCH_USER ?? "1003", locale_id: "40", ...JSON.parse(l) }).toString());
const pool = new Pool(base, { connections: Number(conc) });
let next = 0;
async function worker() {
  while (next < bodies.length) {
    const body = bodies[next++];
    const r = await pool.request({ method: "POST", path: "/api/v302/vehicles/create", body,
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: "Bearer sandbox-key-" + (process.env.BENCH_USER ?? "1003"), accept: "application/json" } });
    const text = await r.body.text();
    if (r.statusCode !== 200) throw new Error(r.statusCode + " " + text);
  }
}
await Promise.all(Array.from({ length: Number(conc) }, worker));
await pool.close();
`,
  );
  check(spawnSync(process.execPath, [bare, base, rowsFile("W", ROWS), String(CONC)], { encoding: "utf8" }), "warm-up");
  const ours = [];
  const theirs = [];
  for (let round = 0; round < 3; round++) {
    const a = time(() => cli(["vehicle", "import", rowsFile(`A${round}`, ROWS), "--concurrency", String(CONC)], 1003));
    check(a.r, "import");
    ours.push(a.ms);
    const b = time(() =>
      spawnSync(process.execPath, [bare, base, rowsFile(`B${round}`, ROWS), String(CONC)], { encoding: "utf8" }),
    );
    check(b.r, "bare undici script");
    theirs.push(b.ms);
  }
  const a = { ms: median(ours) };
  const b = { ms: median(theirs) };

  // 1b. The same, each run against its own fresh sandbox (warmed up by the bare
  //     script into owners 1001 and 1002) importing into the empty owner 1003:
  //     what an owner moving to the marketplace does (in 1. the account to list
  //     grows each round, as both sides import into one owner).
  const freshOurs = [];
  const freshTheirs = [];
  const freshFile = rowsFile("F", ROWS);
  for (let round = 0; round < 3; round++) {
    for (const side of ["bare", "rentctl"]) {
      const s = await serveSandbox(mkdtempSync(join(home, "fresh-")));
      for (const u of [1001, 1002])
        check(
          spawnSync(process.execPath, [bare, s.url, freshFile, String(CONC)], {
            env: { ...process.env, BENCH_USER: String(u) },
            encoding: "utf8",
          }),
          "warm-up",
        );
      if (side === "bare")
        freshTheirs.push(
          time(() => spawnSync(process.execPath, [bare, s.url, freshFile, String(CONC)], { encoding: "utf8" })).ms,
        );
      else {
        const r = time(() =>
          spawnSync(
            process.execPath,
            [bin, "vehicle", "import", freshFile, "--concurrency", String(CONC), "--restart"],
            {
              env: { ...env(1003), RENTCTL_BASE_URL: s.url },
              encoding: "utf8",
            },
          ),
        );
        check(r.r, "import (fresh)");
        freshOurs.push(r.ms);
      }
      await s.stop();
    }
  }

  // 2. A shell loop of `rentctl vehicle create`: a sample, extrapolated.
  const one = join(home, "one.json");
  writeFileSync(one, JSON.stringify(SAMPLE));
  const loop = time(() => {
    for (let i = 0; i < LOOP_SAMPLE; i++)
      check(cli(["vehicle", "create", "--from-file", one, "--reg", `L-${i}`, "-q"], 1003), "create");
  });
  const loopPerRow = loop.ms / LOOP_SAMPLE;

  console.log(`rows ${ROWS}, concurrency ${CONC}, sandbox ${base}`);
  console.log(`rentctl vehicle import        ${(a.ms / 1000).toFixed(2)} s`);
  console.log(
    `bare undici Pool script       ${(b.ms / 1000).toFixed(2)} s   ratio rentctl/bare ${(a.ms / b.ms).toFixed(2)}x (target <= 1.3x)`,
  );
  console.log(
    `fresh sandbox, empty owner     ${(median(freshOurs) / 1000).toFixed(2)} s vs bare ${(median(freshTheirs) / 1000).toFixed(2)} s   ratio ${(median(freshOurs) / median(freshTheirs)).toFixed(2)}x (target <= 1.3x)`,
  );
  console.log(
    `shell loop of vehicle create  ${((loopPerRow * ROWS) / 1000).toFixed(1)} s (EXTRAPOLATED from ${LOOP_SAMPLE} calls, ${loopPerRow.toFixed(0)} ms each)   import is ${((loopPerRow * ROWS) / a.ms).toFixed(1)}x faster (target >= 20x)`,
  );
}

// 3. Peak RSS: import 50,000 vs 5,000 rows (real creates, owners 1002 and 1001);
//    export of 1001 topped up to 10,000 vehicles vs 1002's 50,002 (a stricter pair than 40,000 vs 10,000).
const CONCS = String(CONC);
const imp5 = rssOf(["vehicle", "import", rowsFile("RS", 5000), "--concurrency", CONCS], 1001);
const imp50 = rssOf(["vehicle", "import", rowsFile("RB", 50000), "--concurrency", CONCS], 1002);
console.log(`peak RSS import  5,000 rows   ${imp5.toFixed(1)} MiB`);
console.log(
  `peak RSS import 50,000 rows   ${imp50.toFixed(1)} MiB (target <= 150 MiB) ${imp50 <= 150 ? "PASS" : "FAIL"}   ratio ${(imp50 / imp5).toFixed(2)}x (target <= 1.2x)`,
);
check(cli(["vehicle", "import", rowsFile("RT", 10000 - 5003), "--concurrency", CONCS], 1001), "top up 1001");
const e10 = rssOf(["vehicle", "export", join(home, "e10.csv")], 1001);
const e50 = rssOf(["vehicle", "export", join(home, "e50.csv")], 1002);
console.log(`peak RSS export 10,000 vehicles ${e10.toFixed(1)} MiB`);
console.log(
  `peak RSS export 50,002 vehicles ${e50.toFixed(1)} MiB   ratio ${(e50 / e10).toFixed(2)}x (target <= 1.1x, < 100 MiB)`,
);

await serve.stop();
rmSync(home, { recursive: true, force: true });
