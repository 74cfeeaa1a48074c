// Account-as-code figures (issue 25): `account diff` of a 1,000-vehicle, 20-extra account against
// `vehicle list --all -o ndjson` of the same account, measured side by side in each round (targets,
// issue 42: json <= 1.5x, yaml <= 2.0x; min / median / max), and the peak RSS of `account diff` of
// a 10,000-vehicle account (target: <= 200 MiB, absolute). Prints the figures and PASS / FAIL; asserts nothing. Runs against
// `rentctl sandbox serve` (a separate process, in memory).
// yaml, json and ndjson inputs are measured in the same rounds as the baseline.
//   npm run build && node bench/account.mjs [small=1000] [large=10000] [runs=3]
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dump } from "js-yaml";
import { bin, median, sampleVehicle, serveSandbox, time } from "./lib.mjs";

const SMALL = Number(process.argv[2] ?? 1000);
const LARGE = Number(process.argv[3] ?? 10000);
const RUNS = Number(process.argv[4] ?? 3);
const EXTRAS = 20;
const home = mkdtempSync(join(tmpdir(), "rentctl-account-bench-"));
const serve = await serveSandbox(home);
const env = (user) => ({
  ...process.env,
  RENTCTL_CONFIG_DIR: join(home, "c"),
  RENTCTL_DATA_DIR: join(home, "d"),
  RENTCTL_ENV: "sandbox",
  RENTCTL_BASE_URL: serve.url,
  RENTCTL_USER_ID: String(user),
  NO_COLOR: "1",
});
const cli = (user, args) =>
  spawnSync(process.execPath, [bin, ...args], { env: env(user), encoding: "utf8", maxBuffer: 1 << 30 });
const check = (r, what, ok = [0]) => {
  if (!ok.includes(r.status)) {
    console.error(`${what} failed (${r.status}): ${String(r.stderr).slice(-800)}`);
    serve.stop();
    process.exit(1);
  }
  return r;
};
/** Peak RSS (MiB) of one CLI run, from /usr/bin/time -v. */
const rssOf = (user, args, ok = [0]) => {
  const r = spawnSync("/usr/bin/time", ["-v", process.execPath, bin, ...args], { env: env(user), encoding: "utf8" });
  check(r, args.join(" "), ok);
  const kb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)?.[1]);
  return kb / 1024;
};

const SAMPLE = await sampleVehicle(home);

/** An account of `n` vehicles and 20 extras (11 options × 2 periods), every vehicle using two of them. */
function buildAccount(user, n, prefix) {
  const extras = [];
  for (let o = 1; o <= 11 && extras.length < EXTRAS; o++)
    for (const period of [1, 2])
      if (extras.length < EXTRAS) extras.push({ option: o, price: 2 + o, currency: 1, period, quantity: 3 });
  const ef = join(home, `extras-${user}.yaml`);
  writeFileSync(ef, dump({ extras }));
  check(cli(user, ["account", "apply", "-f", ef, "--yes"]), "extras apply");
  const ids = JSON.parse(check(cli(user, ["extra", "list", "--all", "-o", "json"]), "extra list").stdout)
    .filter((e) => extras.some((x) => x.option === e.option_id && x.period === e.period))
    .map((e) => e.id);
  let text = "";
  for (let i = 0; i < n; i++)
    text += `${JSON.stringify({ ...SAMPLE, vehicle_reg_number: `${prefix}-${i}`, vehicle_extras: [ids[i % ids.length], ids[(i + 7) % ids.length]] })}\n`;
  const seed = join(home, `seed-${user}.ndjson`);
  writeFileSync(seed, text);
  check(cli(user, ["vehicle", "import", seed, "--concurrency", "8"]), "seed import");
  const file = join(home, `account-${user}.yaml`);
  check(cli(user, ["account", "export", file]), "account export");
  check(cli(user, ["account", "export", file.replace(/yaml$/, "json")]), "account export json");
  // ndjson: a fleet file (vehicles only; their extras as they are), streamed row by row
  check(cli(user, ["vehicle", "export", file.replace(/yaml$/, "ndjson")]), "vehicle export ndjson");
  return file;
}

const t0 = Date.now();
const small = buildAccount(1003, SMALL, "AS");
const large = buildAccount(1002, LARGE, "AL");
console.log(
  `setup: ${SMALL} + ${LARGE} vehicles, ${EXTRAS} extras each, in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
);

// 1. time: account diff (an export of the account: no changes, exit 0) vs vehicle list --all -o ndjson.
// Each round runs the baseline and the three diffs one after the other, so that every figure is taken
// under the same conditions (this machine's speed drifts from one minute to the next).
const FORMATS = ["yaml", "json", "ndjson"];
const lists = [];
const diffs = Object.fromEntries(FORMATS.map((ext) => [ext, []]));
for (let i = 0; i < RUNS; i++) {
  lists.push(time(() => check(cli(1003, ["vehicle", "list", "--all", "-o", "ndjson"]), "list")).ms);
  for (const ext of FORMATS) {
    const d = time(() => check(cli(1003, ["account", "diff", "-f", small.replace(/yaml$/, ext)]), "diff"));
    // an ndjson file manages vehicles only: its plan has no extras section
    if (!d.r.stdout.includes(`0 to create, 0 to change, 0 to remove, ${SMALL} unchanged`)) throw new Error(d.r.stdout);
    diffs[ext].push(d.ms);
  }
}
const TARGET = { yaml: 2.0, json: 1.5, ndjson: 1.5 };
const mmm = (xs, digits = 2) => {
  const s = [...xs].sort((x, y) => x - y);
  return `min ${s[0].toFixed(digits)} / median ${median(s).toFixed(digits)} / max ${s.at(-1).toFixed(digits)}`;
};
console.log(`vehicle list --all -o ndjson: ${mmm(lists.map((x) => x / 1000))} s`);
for (const ext of FORMATS) {
  // each round's diff against the same round's listing (the machine is shared: side by side)
  const ratios = diffs[ext].map((d, i) => d / lists[i]);
  const ratio = median(ratios);
  console.log(
    `account diff of the .${ext} export (${SMALL} vehicles, ${EXTRAS} extras): ${mmm(diffs[ext].map((x) => x / 1000))} s; ratio to the listing, per round: ${mmm(ratios)} (target <= ${TARGET[ext]}x) ${ratio <= TARGET[ext] ? "PASS" : "FAIL"}`,
  );
}

// 2. memory: peak RSS of account diff at LARGE vehicles (absolute target), and at SMALL beside it.
for (const ext of FORMATS) {
  const rs = Array.from({ length: RUNS }, () => rssOf(1003, ["account", "diff", "-f", small.replace(/yaml$/, ext)]));
  const rl = Array.from({ length: RUNS }, () => rssOf(1002, ["account", "diff", "-f", large.replace(/yaml$/, ext)]));
  console.log(
    `peak RSS of account diff (.${ext}): ${LARGE} vehicles ${mmm(rl, 0)} MiB (target <= 200 MiB) ${Math.max(...rl) <= 200 ? "PASS" : "FAIL"}; ${SMALL} vehicles ${mmm(rs, 0)} MiB`,
  );
}
serve.stop();
rmSync(home, { recursive: true, force: true });
