import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FaultProxy, ndjson, spawnBuilt, startProxy, vehicleRow, waitFor } from "../fleet/helpers.js";
import { runBuilt, sandboxEnv } from "../helpers/cli.js";

/**
 * A write that lands later than the settle window (issue "exactly once, even
 * two at a time", §5): the server applies a queued create after the client
 * gave up on it (timeout). The rerun, not finding the vehicle, sends the row
 * again; the stopped run's request then lands too. The proxy makes that order
 * certain (no sleeps): the rerun waits until the row's own deadline (its
 * send time + the bound), sends it again, and that request is held until the
 * late create has landed. The rerun's identity check must find the late copy (a
 * newer twin of a row it sent again) and remove it; with --settle long enough,
 * the rerun finds the late vehicle instead of sending the row again.
 */

const CREATE = "POST /api/v302/vehicles/create";
let sandbox: Awaited<ReturnType<typeof sandboxEnv>>;
let proxy: FaultProxy;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  sandbox = await sandboxEnv();
  proxy = await startProxy(sandbox.sb.url);
  env = { ...sandbox.env, RENTCTL_BASE_URL: proxy.url, RENTCTL_USER_ID: "1003" };
});
afterAll(async () => {
  await proxy.close();
  await sandbox.cleanup();
});

/** How many vehicles of owner 1003 carry this registration number, straight from the server. */
async function count(reg: string): Promise<number> {
  const res = await fetch(`${sandbox.sb.url}/api/v302/vehicles/list?user_id=1003&locale_id=40&limit=100&offset=0`, {
    headers: { authorization: "Bearer sandbox-key-1003" },
  });
  const body = (await res.json()) as { data: Array<{ vehicle_reg_number: string }> };
  return body.data.filter((v) => v.vehicle_reg_number === reg).length;
}

/** Poll an async condition (bounded). */
async function until(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}

const regOf = (body: Buffer) => decodeURIComponent(/vehicle_reg_number=([^&]+)/.exec(body.toString())?.[1] ?? "");

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Run 1 of a 3-row import: X's create is held by the proxy until `late` (the client gives up after 1 s); Z is refused. */
async function firstRun(file: string, prefix: string, late: Promise<void>): Promise<void> {
  writeFileSync(file, ndjson([vehicleRow(`${prefix}-X`), vehicleRow(`${prefix}-Y`), vehicleRow(`${prefix}-Z`)]));
  proxy.decide = (req) => {
    if (`${req.method} ${req.path}` !== CREATE) return { kind: "pass" };
    const reg = regOf(req.body);
    if (reg === `${prefix}-X`) return { kind: "wait", until: late };
    if (reg === `${prefix}-Z`) return { kind: "fail", status: 503 };
    return { kind: "pass" };
  };
  const first = await runBuilt(["vehicle", "import", file, "--timeout", "1"], env);
  expect(first.code, first.stderr).toBe(7);
  expect(await count(`${prefix}-X`)).toBe(0);
}

describe("a create that lands after the client gave up (built CLI)", () => {
  it("the rerun sends the row again, the late copy lands meanwhile, the identity check removes it: one vehicle, exit 0", async () => {
    const file = join(env.HOME!, "late.ndjson");
    const late = deferred();
    await firstRun(file, "LW", late.promise);

    // Run 2 waits until X's own deadline, then sends X again: that request is held until run 1's
    // late create of X has landed, so the late copy is there before run 2's identity check.
    const landed = deferred();
    proxy.decide = (req) => {
      if (`${req.method} ${req.path}` !== CREATE) return { kind: "pass" };
      if (regOf(req.body) === "LW-X") {
        void (async () => {
          late.resolve();
          await until(async () => (await count("LW-X")) === 1);
          landed.resolve();
        })();
        return { kind: "wait", until: landed.promise };
      }
      return { kind: "pass" };
    };
    const rerun = await runBuilt(["vehicle", "import", file, "--timeout", "1"], env);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toMatch(/deduplicated 1/);
    expect(rerun.stderr).toMatch(/an interrupted run's request landed late/);
    for (const reg of ["LW-X", "LW-Y", "LW-Z"]) expect(await count(reg), reg).toBe(1);
  }, 60_000);

  it("with --settle long enough, the rerun waits for the late create and finds it: nothing sent twice", async () => {
    const file = join(env.HOME!, "settle.ndjson");
    const late = deferred();
    await firstRun(file, "LS", late.promise);
    proxy.decide = () => ({ kind: "pass" });
    const creates = proxy.creates();
    const rerun = spawnBuilt(["vehicle", "import", file, "--timeout", "1", "--settle", "4"], env);
    await waitFor(() => /waiting .* to settle/.test(rerun.stderr()));
    late.resolve(); // run 1's create lands while the rerun waits
    const done = await rerun.done;
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).toMatch(/1 reconciled/);
    expect(done.stderr).not.toMatch(/deduplicated/);
    // the rerun sent only Z (X was found, Y was done)
    expect(proxy.creates() - creates).toBe(1); // Z only (run 1's held X was counted when it arrived)
    for (const reg of ["LS-X", "LS-Y", "LS-Z"]) expect(await count(reg), reg).toBe(1);
  }, 60_000);
});
