// The library's figures (issue "rentctl as a library"), measured side by side in one run:
//  1. importing rentctl (time and RSS) against `node -e 0`, each in a fresh process;
//  2. one vehicles.get through the library against the same request with bare undici,
//     both in-process against one `rentctl sandbox serve`, after a warm-up (goal ≤ 1.2×).
// Prints figures and ratios with PASS/MISS; exits 0 either way.
//   npm run build && node bench/library.mjs [runs]
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { request } from "undici";
import { root, serveSandbox } from "./lib.mjs";

const runs = Number(process.argv[2] ?? 15);
const home = mkdtempSync(join(tmpdir(), "rentctl-bench-lib-"));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// 1. import: a script that prints its own figures, in a fresh process each run
const probe = join(home, "probe.mjs");
writeFileSync(
  probe,
  `const t = process.hrtime.bigint();\n` +
    `if (process.argv[2] === "lib") await import(${JSON.stringify(pathToFileURL(join(root, "dist/lib/index.js")).href)});\n` +
    `const ms = Number(process.hrtime.bigint() - t) / 1e6;\n` +
    `console.log(JSON.stringify({ ms, rss: process.memoryUsage().rss }));\n`,
);
const sample = (arg) => {
  const wall = [];
  const rss = [];
  const inner = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const r = spawnSync(process.execPath, [probe, arg], { encoding: "utf8" });
    wall.push(performance.now() - t);
    const o = JSON.parse(r.stdout);
    rss.push(o.rss / 1e6);
    inner.push(o.ms);
  }
  return { wall: median(wall), rss: median(rss), inner: median(inner) };
};
const bare = sample("none");
const lib = sample("lib");
const ratio = (a, b) => (a / b).toFixed(2);
console.log(`import rentctl (${runs} fresh processes, medians)`);
console.log(`  node -e 0:           ${bare.wall.toFixed(1)} ms wall, ${bare.rss.toFixed(1)} MB RSS`);
console.log(
  `  import("rentctl"):   ${lib.wall.toFixed(1)} ms wall (${lib.inner.toFixed(1)} ms in the import), ${lib.rss.toFixed(1)} MB RSS`,
);
console.log(`  ratio: wall ${ratio(lib.wall, bare.wall)}×, RSS ${ratio(lib.rss, bare.rss)}×`);

// 2. vehicles.get through the library vs bare undici, in this process
const srv = await serveSandbox(home);
const owner = srv.owners[0];
const { createClient } = await import(pathToFileURL(join(root, "dist/lib/index.js")).href);
const client = createClient({ baseUrl: srv.url, apiKey: owner.api_key, userId: owner.user_id, locale: 40 });
const url = `${srv.url}/api/v302/vehicles/list/id?vehicle_id=1&user_id=${owner.user_id}&locale_id=40`;
const bareGet = async () => {
  const r = await request(url, { headers: { authorization: `Bearer ${owner.api_key}`, accept: "application/json" } });
  const body = await r.body.json();
  if (r.statusCode !== 200) throw new Error(`status ${r.statusCode}`);
  return body;
};
const libGet = () => client.vehicles.get(1);
const n = runs * 40;
for (let i = 0; i < 50; i++) {
  await bareGet();
  await libGet();
}
const timeIt = async (fn) => {
  const t = performance.now();
  for (let i = 0; i < n; i++) await fn();
  return (performance.now() - t) / n;
};
// alternate the two, three rounds each, and keep each one's best round
const b = [];
const l = [];
for (let round = 0; round < 3; round++) {
  b.push(await timeIt(bareGet));
  l.push(await timeIt(libGet));
}
const bestB = Math.min(...b);
const bestL = Math.min(...l);
const r = bestL / bestB;
console.log(`vehicles.get (${n} calls a round, best of 3 rounds, keep-alive)`);
console.log(`  bare undici request: ${(bestB * 1000).toFixed(0)} µs a call`);
console.log(`  client.vehicles.get: ${(bestL * 1000).toFixed(0)} µs a call`);
console.log(`  ratio ${r.toFixed(2)}× (goal ≤ 1.2×): ${r <= 1.2 ? "PASS" : "MISS"}`);
await client.close();
await srv.stop();
rmSync(home, { recursive: true, force: true });
