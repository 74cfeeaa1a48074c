import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBuilt, sandboxEnv } from "../helpers/cli.js";
import { type FaultProxy, killAndRerun, ndjson, startProxy, vehicleRow } from "./helpers.js";

/**
 * Undo of a `vehicle apply` runs in the one bulk job (src/bulk/job.ts), so it
 * has a row log: killed at random moments (SIGKILL, while the server commits
 * writes late or drops the connection after committing), the rerun of the
 * same `rentctl undo OP` reconciles the row that was in flight instead of
 * sending it again. After the last rerun the account is what it was before
 * the apply: no vehicle twice, none missing, every price back.
 */

let sandbox: Awaited<ReturnType<typeof sandboxEnv>>;
let proxy: FaultProxy;
let env: NodeJS.ProcessEnv;
const dir = mkdtempSync(join(tmpdir(), "fleet-undo-kill-"));
const USER = "1003";

beforeAll(async () => {
  sandbox = await sandboxEnv();
  proxy = await startProxy(sandbox.sb.url);
  env = { ...sandbox.env, RENTCTL_BASE_URL: proxy.url };
});
afterAll(async () => {
  await proxy.close();
  await sandbox.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

const WRITES = ["create", "edit", "remove"].map((w) => `POST /api/v302/vehicles/${w}`);
const writes = () => WRITES.reduce((n, k) => n + (proxy.counts.get(k) ?? 0), 0);

/** The account as rows without ids (a re-created vehicle gets a new id), sorted. */
async function accountRows(): Promise<string[]> {
  const r = await runBuilt(["vehicle", "export", "--format", "ndjson", "--user", USER], sandbox.env);
  expect(r.code).toBe(0);
  return r.stdout
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.stringify(JSON.parse(l)))
    .sort();
}

describe("undo of an apply, crash safety (built CLI)", () => {
  it("random SIGKILLs over `undo OP` of an apply (creates, changes, removals): converges to the fleet before the apply, each vehicle once", async () => {
    const existing = Array.from({ length: 40 }, (_, i) => vehicleRow(`UK-${String(i).padStart(3, "0")}`));
    writeFileSync(join(dir, "seed.ndjson"), ndjson(existing));
    expect((await runBuilt(["vehicle", "import", join(dir, "seed.ndjson"), "--user", USER], sandbox.env)).code).toBe(0);
    const before = await accountRows();

    // The apply: 25 price changes, 20 creates, 15 removals (--prune).
    const kept = existing.slice(0, 25).map((r, i) => ({ ...r, price_per_day: 200 + i }));
    const created = Array.from({ length: 20 }, (_, i) => vehicleRow(`UN-${String(i).padStart(3, "0")}`));
    writeFileSync(join(dir, "apply.ndjson"), ndjson([...kept, ...created]));
    const applied = await runBuilt(
      ["vehicle", "apply", "-f", join(dir, "apply.ndjson"), "--prune", "--allow-mass-delete", "--yes", "--user", USER],
      env, // through the proxy: an undo runs only against the address its entry was taken on
    );
    expect(applied.stderr).toMatch(/created 20, changed 25, removed 15, conflict 0, failed 0/);
    const op = /undo with: rentctl undo (\S+)/.exec(applied.stderr)?.[1];
    expect(op).toBeDefined();

    proxy.counts.clear();
    proxy.decide = ({ method }) => {
      if (method !== "POST") return { kind: "pass" };
      const r = Math.random();
      if (r < 0.2) return { kind: "late", delayMs: 400 + Math.random() * 600 };
      if (r < 0.3) return { kind: "drop" };
      return { kind: "late", delayMs: 60 };
    };
    const { kills, last } = await killAndRerun({
      args: ["undo", op!, "--user", USER, "--timeout", "1"],
      env,
      writes,
      maxWritesPerRun: 8,
      maxMs: 2500,
      minKills: 8,
      clearFaults: () => {
        proxy.decide = () => ({ kind: "pass" });
      },
    });
    expect(kills).toBeGreaterThanOrEqual(8);
    expect(last.code).toBe(0);
    expect(last.stderr).toMatch(new RegExp(`apply ${op} undone`));

    // Exactly the fleet before the apply: nothing twice, nothing missing, every price back.
    expect(await accountRows()).toEqual(before);
    // And the undo is recorded as done: a further undo refuses.
    const again = await runBuilt(["undo", op!, "--user", USER], sandbox.env);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already undone/);
  }, 240_000);
});
