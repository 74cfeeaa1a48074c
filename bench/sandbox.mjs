// Sandbox benchmark: 8 concurrent clients creating 10,000 vehicles (errors,
// lost writes, rate), latency of create, list and get at 10,000 vehicles, and
// load / compaction times of the data file. Prints figures; asserts nothing.
//
//   node bench/sandbox.mjs [vehicleCount] [clients]
//
// The TypeScript sources are bundled with esbuild into a temp directory first,
// so no build step is needed.
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { Agent, Pool, request } from "undici";

const root = resolve(fileURLToPath(new URL("..", import.meta.url)));
const COUNT = Number(process.argv[2] ?? 10_000);
const CLIENTS = Number(process.argv[3] ?? 8);
const work = mkdtempSync(join(tmpdir(), "rentctl-sandbox-bench-"));
const bundle = join(work, "sandbox.mjs");

await build({
  stdin: {
    contents:
      'export * from "./src/sandbox/server.ts"; export { Store, walPath } from "./src/sandbox/store.ts"; export { sampleVehicleInput } from "./src/sandbox/seed.ts";',
    resolveDir: root,
    loader: "ts",
  },
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20.18",
  outfile: bundle,
  logLevel: "warning",
});
const { startSandbox, Store, walPath, sampleVehicleInput } = await import(pathToFileURL(bundle).href);

const dataFile = join(work, "sandbox.json");
const KEY = "sandbox-key-1001";
const dispatcher = new Agent({ connections: 1, pipelining: 1 });

function pct(samples, p) {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}
function row(label, samples) {
  const f = (n) => n.toFixed(2).padStart(8);
  console.log(
    `${label.padEnd(34)} n=${String(samples.length).padStart(6)}  p50 ${f(pct(samples, 50))}  p90 ${f(pct(samples, 90))}  p99 ${f(pct(samples, 99))}  max ${f(Math.max(...samples))}  (ms)`,
  );
}
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const size = (f) => {
  try {
    return statSync(f).size;
  } catch {
    return 0;
  }
};

async function call(base, method, path, body) {
  const t = performance.now();
  const res = await request(`${base}/api/v302/${path}`, {
    method,
    dispatcher,
    headers: {
      authorization: `Bearer ${KEY}`,
      ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}),
    },
    body,
  });
  const text = await res.body.text();
  const ms = performance.now() - t;
  if (res.statusCode !== 200) throw new Error(`${method} ${path}: ${res.statusCode} ${text.slice(0, 300)}`);
  return { ms, json: JSON.parse(text) };
}

function createBody(i) {
  const form = new URLSearchParams();
  const car = {
    ...sampleVehicleInput(1001),
    vehicle_reg_number: `B-BN ${i}`,
    price_per_day: 30 + (i % 70),
    vehicle_description: `Bench vehicle ${i}. `.repeat(8),
  };
  for (const [k, v] of Object.entries(car)) form.append(k, String(v));
  for (const b of [1, 2, 4]) form.append("vehicle_benefits_id[]", String(b));
  return form.toString();
}

console.log(`rentctl sandbox bench: ${COUNT} vehicles, node ${process.version}, data in ${work}\n`);

// ---- concurrent load: CLIENTS clients (one connection each) share COUNT creates
{
  const loadFile = join(work, "load.json");
  const lsb = await startSandbox({ port: 0, dataFile: loadFile });
  const pool = new Pool(lsb.url, { connections: CLIENTS });
  const before = (await call(lsb.url, "GET", "vehicles/list?user_id=1001&locale_id=40&limit=1")).json.total;
  const ids = new Set();
  const samples = [];
  let errors = 0;
  let nextRow = 0;
  const rss0 = process.memoryUsage().rss;
  const t = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (let i = nextRow++; i < COUNT; i = nextRow++) {
        const s = performance.now();
        const res = await pool.request({
          path: "/api/v302/vehicles/create",
          method: "POST",
          headers: { authorization: `Bearer ${KEY}`, "content-type": "application/x-www-form-urlencoded" },
          body: createBody(i),
        });
        const text = await res.body.text();
        samples.push(performance.now() - s);
        if (res.statusCode !== 200) errors++;
        else ids.add(JSON.parse(text).data.id);
      }
    }),
  );
  const seconds = (performance.now() - t) / 1000;
  const total = (await call(lsb.url, "GET", "vehicles/list?user_id=1001&locale_id=40&limit=1")).json.total;
  await pool.close();
  await lsb.close();
  const reopened = await Store.open(loadFile);
  const persisted = reopened.vehicleCount(1001);
  await reopened.close();
  row(`create, ${CLIENTS} concurrent clients`, samples);
  console.log(
    `  ${COUNT} creates by ${CLIENTS} clients in ${seconds.toFixed(1)} s (${Math.round(COUNT / seconds)}/s); ` +
      `errors ${errors}, distinct ids ${ids.size}, listed ${total - before} new, after restart ${persisted - before} new ` +
      `(lost ${COUNT - (persisted - before)}); bench process RSS +${mb(process.memoryUsage().rss - rss0)}\n`,
  );
}

let sb = await startSandbox({ port: 0, dataFile });
const creates = [];
const t0 = performance.now();
for (let i = 0; i < COUNT; i++) creates.push((await call(sb.url, "POST", "vehicles/create", createBody(i))).ms);
const fillSeconds = (performance.now() - t0) / 1000;
row("create (all)", creates);
row(`create (last 1,000, at ~${COUNT})`, creates.slice(-1000));
console.log(`  ${COUNT} creates in ${fillSeconds.toFixed(1)} s (${Math.round(COUNT / fillSeconds)}/s, sequential)\n`);

const rnd = (n) => Math.floor(Math.random() * n);
const lists = [];
for (let i = 0; i < 1000; i++) {
  lists.push((await call(sb.url, "GET", `vehicles/list?user_id=1001&locale_id=40&limit=15&offset=${rnd(COUNT)}`)).ms);
}
row("list page (limit 15, random offset)", lists);
const bigLists = [];
for (let i = 0; i < 200; i++) {
  bigLists.push(
    (await call(sb.url, "GET", `vehicles/list?user_id=1001&locale_id=40&limit=100&offset=${rnd(COUNT)}`)).ms,
  );
}
row("list page (limit 100)", bigLists);
const gets = [];
for (let i = 0; i < 1000; i++)
  gets.push((await call(sb.url, "GET", `vehicles/list/id?vehicle_id=${6 + rnd(COUNT)}&locale_id=40`)).ms);
row("get by id", gets);
const edits = [];
for (let i = 0; i < 1000; i++) {
  edits.push((await call(sb.url, "POST", "vehicles/edit", `${createBody(i)}&vehicle_id=${6 + rnd(COUNT)}`)).ms);
}
row("edit (full record)", edits);
const catalogs = [];
for (let i = 0; i < 500; i++)
  catalogs.push((await call(sb.url, "GET", "vehicles/classes_or_types?segment_id=1&locale_id=25")).ms);
row("catalog (classes, German)", catalogs);

let t = performance.now();
await sb.close();
console.log(`\nclose: ${(performance.now() - t).toFixed(1)} ms`);
console.log(`snapshot ${mb(size(dataFile))}, journal ${mb(size(walPath(dataFile)))}`);

t = performance.now();
sb = await startSandbox({ port: 0, dataFile });
console.log(`load (snapshot + journal replay) to listening: ${(performance.now() - t).toFixed(1)} ms`);
await sb.close();

const store = await Store.open(dataFile);
t = performance.now();
await store.compact();
console.log(
  `compaction (background, chunked) of ${store.vehicles.size} vehicles: ${(performance.now() - t).toFixed(1)} ms`,
);
await store.close();
console.log(`snapshot ${mb(size(dataFile))}, journal ${mb(size(walPath(dataFile)))}`);
t = performance.now();
sb = await startSandbox({ port: 0, dataFile });
console.log(`load (snapshot only) to listening: ${(performance.now() - t).toFixed(1)} ms`);
await sb.close();

await dispatcher.close();
rmSync(work, { recursive: true, force: true });
