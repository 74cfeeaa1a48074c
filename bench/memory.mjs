// Peak RSS of `vehicle list --all` at two fleet sizes (10,000 and 50,000
// vehicles by default) against a running `rentctl sandbox serve`, for every
// output format, and of `extra list --all` at the same sizes. Prints each
// absolute figure with its target (issue 42: `vehicle list --all -o ndjson`
// of 50,000 at most 120 MiB; the others under 90 MiB and within 1.1x of the
// smaller fleet) and PASS/MISS; exits 0 either way.
//   npm run build && node bench/memory.mjs [small] [large]
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bin, sampleVehicle, serveSandbox } from "./lib.mjs";

const SMALL = Number(process.argv[2] ?? 10_000);
const LARGE = Number(process.argv[3] ?? 50_000);
const LIMIT_MIB = 90;
/** Absolute targets of issue 42, by case (MiB at LARGE). */
const ABSOLUTE = { "vehicle list --all -o ndjson": 120 };
const node = process.execPath;
const work = mkdtempSync(join(tmpdir(), "rentctl-memory-"));

// The sandbox's own sample vehicle, so every seeded vehicle passes its rules.
const sample = await sampleVehicle(work);
// Peak RSS of a child: it writes its own maxRSS (KiB) on exit.
const rssHook = join(work, "rss.mjs");
writeFileSync(
  rssHook,
  `import { writeFileSync } from "node:fs";\nprocess.on("exit", () => writeFileSync(process.env.RENTCTL_BENCH_RSS, String(process.resourceUsage().maxRSS)));\n`,
);

const baseEnv = {
  ...process.env,
  RENTCTL_CONFIG_DIR: join(work, "c"),
  RENTCTL_DATA_DIR: join(work, "d"),
  NO_COLOR: "1",
};
const srv = await serveSandbox(work);
const base = srv.url;
const owner = srv.owners[0];
const env = {
  ...baseEnv,
  RENTCTL_ENV: "sandbox",
  RENTCTL_BASE_URL: base,
  RENTCTL_USER_ID: String(owner.user_id),
  RENTCTL_API_KEY: owner.api_key,
};
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

function post(path, form) {
  const body = new URLSearchParams(form).toString();
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}/api/v302/${path}`,
      {
        method: "POST",
        agent,
        headers: {
          authorization: `Bearer ${owner.api_key}`,
          "content-type": "application/x-www-form-urlencoded",
          "content-length": Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = "";
        res.on("data", (d) => {
          text += d;
        });
        res.on("end", () =>
          res.statusCode === 200 ? resolve() : reject(new Error(`${path}: ${res.statusCode} ${text}`)),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

let vehicles = 0;
let extras = 0;
async function seedTo(n) {
  const jobs = [];
  for (let i = vehicles; i < n; i++) {
    const v = { ...sample, user_id: owner.user_id, vehicle_reg_number: `M-EM ${i}`, price_per_day: 30 + (i % 70) };
    jobs.push(() => post("vehicles/create", Object.fromEntries(Object.entries(v).map(([k, x]) => [k, String(x)]))));
  }
  for (let i = extras; i < n; i++) {
    jobs.push(() =>
      post("vehicles/extras/create", {
        locale_id: "40",
        option_id: "5",
        price: String(i % 50),
        currency_id: "3",
        period: "2",
        quantity: "1",
      }),
    );
  }
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < jobs.length) await jobs[next++]();
    }),
  );
  vehicles = n;
  extras = n;
}

function peakRss(args) {
  const out = join(work, "rss.txt");
  return new Promise((resolve, reject) => {
    const child = spawn(node, ["--import", rssHook, bin, ...args], {
      env: { ...env, RENTCTL_BENCH_RSS: out },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (d) => {
      err += d;
    });
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`${args.join(" ")} exited ${code}: ${err.slice(0, 400)}`));
      else resolve(Number(readFileSync(out, "utf8")) / 1024);
    });
  });
}

const CASES = [
  ...["ndjson", "csv", "json", "yaml", "table"].map((f) => [
    `vehicle list --all -o ${f}`,
    ["vehicle", "list", "--all", "-o", f],
  ]),
  ["extra list --all -o ndjson", ["extra", "list", "--all", "-o", "ndjson"]],
  ["extra list --all -o json", ["extra", "list", "--all", "-o", "json"]],
  // tables name every id (catalogs and the configuration index, once) and fit the width: still one page at a time
  ["extra list --all (table)", ["extra", "list", "--all"]],
  ["vehicle list --all --search", ["vehicle", "list", "--search", "M-EM", "--wide"]],
];
const figures = new Map();
try {
  for (const size of [SMALL, LARGE]) {
    process.stderr.write(`seeding ${size} vehicles and ${size} extras…\n`);
    await seedTo(size);
    for (const [name, args] of CASES) figures.set(`${name}@${size}`, await peakRss(args));
  }
} finally {
  agent.destroy();
  await srv.stop();
  rmSync(work, { recursive: true, force: true });
}
console.log(
  `node ${process.version}, peak RSS (MiB) of one run each; targets: ${Object.entries(ABSOLUTE)
    .map(([k, v]) => `${k} <= ${v} MiB at ${LARGE}`)
    .join(", ")}; the others < ${LIMIT_MIB} MiB at ${LARGE}, <= 1.1x of ${SMALL}`,
);
console.log(`${"command".padEnd(30)} ${String(SMALL).padStart(8)} ${String(LARGE).padStart(8)}  ratio  result`);
for (const [name] of CASES) {
  const a = figures.get(`${name}@${SMALL}`);
  const b = figures.get(`${name}@${LARGE}`);
  const ok = ABSOLUTE[name] !== undefined ? b <= ABSOLUTE[name] : b < LIMIT_MIB && b / a <= 1.1;
  console.log(
    `${name.padEnd(30)} ${a.toFixed(1).padStart(8)} ${b.toFixed(1).padStart(8)}  ${(b / a).toFixed(2)}  ${ok ? "PASS" : "MISS"}`,
  );
}
