// Start-up targets of issues 15 and 42, measured side by side in one run: rentctl
// against bare Node, and one request against a running `rentctl sandbox serve`
// against bare Node scripts doing the same request with node:http and undici.
// Prints min/median/max of each case, and each ratio (of medians) next to its
// target with PASS/MISS; exits 0 either way.
//   npm run build && node bench/startup.mjs [runs]
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bin, root, serveSandbox } from "./lib.mjs";

const runs = Number(process.argv[2] ?? 15);
const node = process.execPath;
const home = mkdtempSync(join(tmpdir(), "rentctl-bench-"));
const baseEnv = {
  ...process.env,
  RENTCTL_CONFIG_DIR: join(home, "c"),
  RENTCTL_DATA_DIR: join(home, "d"),
  NO_COLOR: "1",
};

// The sandbox runs in its own process (spawnSync below blocks this one).
const srv = await serveSandbox(home);
const base = srv.url;
const owner = srv.owners[0];
const env = {
  ...baseEnv,
  RENTCTL_ENV: "sandbox",
  RENTCTL_BASE_URL: base,
  RENTCTL_USER_ID: String(owner.user_id),
  RENTCTL_API_KEY: owner.api_key,
};
const catalogUrl = `${base}/api/v302/currencies`;

// Bare scripts: the least any Node program must do for the same request.
const bareHttp = join(home, "bare-http.mjs");
writeFileSync(
  bareHttp,
  `import http from "node:http";\nconst url = process.argv[2];\nconst headers = process.argv[3] ? { authorization: "Bearer " + process.argv[3] } : {};\n` +
    `http.get(url, { headers }, (res) => { let b = ""; res.setEncoding("utf8"); res.on("data", (d) => (b += d)); res.on("end", () => process.stdout.write(JSON.stringify(JSON.parse(b)) + "\\n")); });\n`,
);
const bareUndici = join(home, "bare-undici.mjs");
writeFileSync(
  bareUndici,
  `import { request } from ${JSON.stringify(join(root, "node_modules/undici/index.js"))};\n` +
    `const r = await request(process.argv[2]);\nprocess.stdout.write(JSON.stringify(await r.body.json()) + "\\n");\n`,
);

/** Paired runs: each round runs every case once, so load on the machine hits all alike. Sorted times per case. */
function measure(cases) {
  const times = cases.map(() => []);
  for (let i = 0; i < runs; i++) {
    cases.forEach(([, args], k) => {
      const t = process.hrtime.bigint();
      const r = spawnSync(node, args, { env, encoding: "utf8" });
      if (r.status !== 0) throw new Error(`${args.join(" ")} failed (${r.status}): ${r.stderr}`);
      times[k].push(Number(process.hrtime.bigint() - t) / 1e6);
    });
  }
  return times.map((t) => t.sort((a, b) => a - b));
}
const median = (t) => t[Math.floor(t.length / 2)];

const cases = [
  ["node -e 0", ["-e", "0"]],
  ["rentctl --version", [bin, "--version"]],
  ["rentctl --help", [bin, "--help"]],
  ["rentctl vehicle create --help", [bin, "vehicle", "create", "--help"]],
  ["bare node:http GET currencies", [bareHttp, catalogUrl]],
  ["bare undici GET currencies", [bareUndici, catalogUrl]],
  ["rentctl catalog currencies -o json", [bin, "catalog", "currencies", "-o", "json"]],
  ["bare node:http GET vehicle 1 (auth)", [bareHttp, `${base}/api/v302/vehicles/1`, owner.api_key]],
  ["rentctl vehicle get 1 -o json", [bin, "vehicle", "get", "1", "-o", "json"]],
];
let ms;
try {
  ms = measure(cases);
} finally {
  await srv.stop();
  rmSync(home, { recursive: true, force: true });
}
const by = Object.fromEntries(cases.map(([name], k) => [name, median(ms[k])]));
console.log(`node ${process.version}, ${runs} paired runs (ms)        min  median     max`);
cases.forEach(([name], k) => {
  const t = ms[k];
  const cell = (v) => v.toFixed(1).padStart(7);
  console.log(`  ${name.padEnd(40)} ${cell(t[0])} ${cell(median(t))} ${cell(t.at(-1))}`);
});
// Issue 42: --version <= 1.10, --help <= 1.15, catalog <= 1.25 x bare node:http; the others kept from issue 15.
const targets = [
  ["--version / node -e 0", "rentctl --version", "node -e 0", 1.1],
  ["--help / node -e 0", "rentctl --help", "node -e 0", 1.15],
  ["vehicle create --help / node -e 0", "rentctl vehicle create --help", "node -e 0", 1.25],
  ["catalog request / bare node:http", "rentctl catalog currencies -o json", "bare node:http GET currencies", 1.25],
  ["catalog request / bare undici", "rentctl catalog currencies -o json", "bare undici GET currencies", 0.8],
  ["vehicle get / bare node:http", "rentctl vehicle get 1 -o json", "bare node:http GET vehicle 1 (auth)", 1.7],
];
console.log("ratio (of medians)                         value  target");
for (const [label, a, b, target] of targets) {
  const r = by[a] / by[b];
  console.log(
    `  ${label.padEnd(38)} ${r.toFixed(2).padStart(5)}  <= ${target.toFixed(2)}  ${r <= target ? "PASS" : "MISS"}`,
  );
}
