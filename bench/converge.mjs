// Exactly once, two at a time: what the lock and the identity check cost, and
// how fast a rerun after SIGKILL resumes. Prints figures; asserts nothing.
//   npm run build && node bench/converge.mjs [rows=1000] [concurrency=8] [killRows=300]
// 1. import ROWS rows into an empty owner of a fresh `sandbox serve`: rentctl
//    as shipped (row-log lock + identity check) vs `--no-dedupe` (the import
//    of before the check) vs a bare undici Pool script; 3 alternating rounds,
//    medians, each run on its own fresh sandbox.
// 2. rerun after SIGKILL
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
