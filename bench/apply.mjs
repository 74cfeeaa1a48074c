// Fleet-as-code figures: `vehicle diff` against a plain `vehicle list --all`, and
// `vehicle apply` of price changes against a bare undici script sending the same
// GET + POST pairs. Prints ratios; asserts nothing. Runs against `rentctl
// sandbox serve` (a separate process, in memory).
//   npm run build && node bench/apply.mjs [vehicles=1000] [changes=100] [concurrency=8]
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bin, median, root, sampleVehicle, serveSandbox, time } from "./lib.mjs";

const VEHICLES = Number(process.argv[2] ?? 1000);
const CHANGES = Number(process.argv[3] ?? 100);
const CONC = Number(process.argv[4] ?? 8);
const USER = 1003;
const home = mkdtempSync(join(tmpdir(), "rentctl-apply-bench-"));

const serve = await serveSandbox(home);
const base = serve.url;
const env = {
  ...process.env,
  RENTCTL_CONFIG_DIR: join(home, "c"),
  RENTCTL_DATA_DIR: join(home, "d"),
  RENTCTL_ENV: "sandbox",
  RENTCTL_BASE_URL: base,
  RENTCTL_USER_ID: String(USER),
  NO_COLOR: "1",
};
const cli = (args) => spawnSync(process.execPath, [bin, ...args], { env, encoding: "utf8", maxBuffer: 1 << 28 });
const check = (r, what, ok = [0]) => {
  if (!ok.includes(r.status)) {
    console.error(`${what} failed (${r.status}): ${String(r.stderr).slice(-500)}`);
    serve.stop();
    process.exit(1);
  }
  return r;
};

// The sandbox's sample vehicle (scalars only, so the bare script can encode the record with URLSearchParams).
const SAMPLE = await sampleVehicle(home);

// The account: VEHICLES vehicles.
const seedFile = join(home, "seed.ndjson");
let text = "";
for (let i = 0; i < VEHICLES; i++) text += `${JSON.stringify({ ...SAMPLE, vehicle_reg_number: `BA-${i}` })}\n`;
writeFileSync(seedFile, text);
check(cli(["vehicle", "import", seedFile, "--concurrency", String(CONC)]), "seed import");
const exported = check(cli(["vehicle", "export", "-", "--with-ids"]), "export")
  .stdout.split("\n")
  .filter(Boolean)
  .map((l) => JSON.parse(l));
const changedFile = (bump) => {
  const f = join(home, `fleet-${bump}.ndjson`);
  writeFileSync(
    f,
    exported
      .map(({ vehicle_id: _v, vehicle_images: _i, vehicle_extras: _e, ...r }, i) =>
        JSON.stringify(i < CHANGES ? { ...r, price_per_day: Number(r.price_per_day) + bump } : r),
      )
      .join("\n") + "\n",
  );
  return f;
};

// 1. diff vs a plain listing of every vehicle (3 runs each, medians).
const fleet1 = changedFile(1);
const lists = [];
const diffs = [];
for (let i = 0; i < 3; i++) {
  lists.push(time(() => check(cli(["vehicle", "list", "--all", "-o", "ndjson"]), "list")).ms);
  const d = time(() => check(cli(["vehicle", "diff", "-f", fleet1]), "diff", [8]));
  if (!d.r.stdout.includes(`Plan: 0 to create, ${CHANGES} to change`)) throw new Error(d.r.stdout.slice(-300));
  diffs.push(d.ms);
}

// 2. apply of the changes at concurrency CONC vs a bare undici script doing GET + full-record POST per vehicle.
const applied = time(() =>
  check(cli(["vehicle", "apply", "-f", fleet1, "--yes", "--concurrency", String(CONC)]), "apply"),
);
const bare = join(home, "bare.mjs");
writeFileSync(
  bare,
  `import { readFileSync } from "node:fs";
import { Pool } from ${JSON.stringify(join(root, "node_modules/undici/index.js"))};
const [base, file, conc, n] = process.argv.slice(2);
const rows = readFileSync(file, "utf8").split("\\n").filter(Boolean).map((l) => JSON.parse(l)).slice(0, Number(n));
const pool = new Pool(base, { connections: Number(conc) });
const headers = { authorization: "Bearer sandbox-key-${USER}", accept: "application/json" };
let next = 0;
async function worker() {
  while (next < rows.length) {
    const { vehicle_id, vehicle_images: _i, vehicle_extras: _e, ...row } = rows[next++];
    const g = await pool.request({ method: "GET", path: "/api/v302/vehicles/list/id?vehicle_id=" + vehicle_id + "&locale_id=40", headers });
    await g.body.text();
    if (g.statusCode !== 200) throw new Error("get " + g.statusCode);
    const body = new URLSearchParams({ ...row, price_per_day: String(Number(row.price_per_day) + 2), vehicle_id: String(vehicle_id), user_id: "${USER}", locale_id: "40" }).toString();
    const r = await pool.request({ method: "POST", path: "/api/v302/vehicles/edit", body, headers: { ...headers, "content-type": "application/x-www-form-urlencoded" } });
    const text = await r.body.text();
    if (r.statusCode !== 200) throw new Error(r.statusCode + " " + text);
  }
}
await Promise.all(Array.from({ length: Number(conc) }, worker));
await pool.close();
`,
);
const withIds = join(home, "with-ids.ndjson");
writeFileSync(withIds, exported.map((r) => JSON.stringify(r)).join("\n") + "\n");
const b = time(() =>
  check(
    spawnSync(process.execPath, [bare, base, withIds, String(CONC), String(CHANGES)], { encoding: "utf8" }),
    "bare",
  ),
);

const l = median(lists);
const d = median(diffs);
console.log(`vehicles ${VEHICLES}, changes ${CHANGES}, concurrency ${CONC}, sandbox ${base}`);
console.log(`rentctl vehicle list --all -o ndjson  ${(l / 1000).toFixed(2)} s (median of 3)`);
console.log(
  `rentctl vehicle diff -f FILE          ${(d / 1000).toFixed(2)} s (median of 3)   ratio diff/list ${(d / l).toFixed(2)}x (target < 2x)`,
);
console.log(`rentctl vehicle apply (${CHANGES} changes)    ${(applied.ms / 1000).toFixed(2)} s`);
console.log(
  `bare undici GET+POST script           ${(b.ms / 1000).toFixed(2)} s   ratio apply/bare ${(applied.ms / b.ms).toFixed(2)}x (target <= 1.5x)`,
);
// apply first makes the plan (list the whole account, read the file) as diff does; the bare script knows the ids.
console.log(
  `apply minus its plan (apply - diff)   ${((applied.ms - d) / 1000).toFixed(2)} s   ratio (apply-diff)/bare ${((applied.ms - d) / b.ms).toFixed(2)}x`,
);

await serve.stop();
rmSync(home, { recursive: true, force: true });
