// Start-up and one request: rentctl against bare Node doing the same work,
// measured side by side (paired, interleaved runs; medians) against a running
// `rentctl sandbox serve`. Prints each ratio with its target and PASS/MISS
// (issue 15); exits 0 either way.
//   npm run build && node bench/startup.mjs [runs]
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const runs = Number(process.argv[2] ?? 15);
const node = process.execPath;
const bin = join(root, "bin", "rentctl.js");
const home = mkdtempSync(join(tmpdir(), "rentctl-bench-"));
const baseEnv = {
  ...process.env,
  RENTCTL_CONFIG_DIR: join(home, "c"),
  RENTCTL_DATA_DIR: join(home, "d"),
  NO_COLOR: "1",
};

const srv = spawn(node, [bin, "sandbox", "serve", "--port", "0", "--memory"], {
  env: baseEnv,
  stdio: ["ignore", "pipe", "ignore"],
});
const base = await new Promise((resolve) => {
  let buf = "";
  srv.stdout.on("data", (d) => {
    buf += d;
    const m = /http:\/\/\S+/.exec(buf);
    if (m) resolve(m[0]);
  });
});
const env = { ...baseEnv, RENTCTL_ENV: "sandbox", RENTCTL_BASE_URL: base };
const url = `${base}/api/v302/currencies`;
const bareHttp = join(home, "bare-http.mjs");
writeFileSync(
  bareHttp,
  `import http from "node:http";\nhttp.get(${JSON.stringify(url)}, (res) => { let b = ""; res.on("data", (d) => (b += d)); res.on("end", () => process.stdout.write(JSON.stringify(JSON.parse(b)) + "\\n")); });\n`,
);
const bareUndici = join(home, "bare-undici.mjs");
writeFileSync(
  bareUndici,
  `import { request } from ${JSON.stringify(join(root, "node_modules/undici/index.js"))};\n` +
    `const r = await request(${JSON.stringify(url)});\nprocess.stdout.write(JSON.stringify(await r.body.json()) + "\\n");\n`,
);

const cases = {
  node: [node, ["-e", "0"]],
  version: [node, [bin, "--version"]],
  help: [node, [bin, "--help"]],
  createHelp: [node, [bin, "vehicle", "create", "--help"]],
  bareHttp: [node, [bareHttp]],
  bareUndici: [node, [bareUndici]],
  catalog: [node, [bin, "catalog", "currencies", "-o", "json"]],
  vehicleGet: [node, [bin, "vehicle", "get", "1", "-o", "json"]],
};
const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
function once(cmd, args) {
  const t = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { env, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${args.join(" ")} failed: ${r.stderr}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
}
for (const [k, [c, a]] of Object.entries(cases)) once(c, a); // warm caches
for (let i = 0; i < runs; i++) for (const [k, [c, a]] of Object.entries(cases)) times[k].push(once(c, a));
srv.kill();
const med = (k) => {
  const s = [...times[k]].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
console.log(`median of ${runs} interleaved runs each (ms)`);
for (const k of Object.keys(cases))
  console.log(`  ${`${cases[k][1].join(" ")}`.slice(-60).padEnd(60)} ${med(k).toFixed(1)}`);
const checks = [
  ["rentctl --version / node -e 0", "version", "node", 1.1],
  ["rentctl --help / node -e 0", "help", "node", 1.15],
  ["rentctl vehicle create --help / node -e 0", "createHelp", "node", 1.25],
  ["catalog currencies / bare node:http", "catalog", "bareHttp", 1.6],
  ["catalog currencies / bare undici", "catalog", "bareUndici", 0.8],
  ["vehicle get 1 / bare node:http", "vehicleGet", "bareHttp", 1.7],
];
for (const [name, a, b, target] of checks) {
  const ratio = med(a) / med(b);
  console.log(`${name.padEnd(44)} ${ratio.toFixed(2)}x  target <= ${target}x  ${ratio <= target ? "PASS" : "MISS"}`);
}
