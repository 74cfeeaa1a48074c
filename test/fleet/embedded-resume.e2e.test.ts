import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runBuilt, tempHome } from "../helpers/cli.js";
import { spawnBuilt, stopWhen } from "../helpers/kill.js";
import { accountRegs, ndjson, vehicleRow } from "./helpers.js";

/**
 * The embedded sandbox (`--env sandbox`, no address) listens on a new port
 * each run, so a bulk job's row log is keyed by its data file, not by its
 * address: a rerun after SIGKILL resumes (import, and undo of an apply, which
 * would otherwise re-create vehicles it had re-created already). Also:
 * `undo OP --dry-run` of an apply sends nothing and leaves the entry to undo.
 */

const home = tempHome();
const env = { ...home.env, RENTCTL_ENV: "sandbox" };
const USER = "1003";
afterAll(() => home.cleanup());

/** `done` lines in the row logs of the data dir. */
function doneLines(): number {
  const dir = join(home.dir, "data", "bulk");
  if (!existsSync(dir)) return 0;
  let n = 0;
  for (const f of readdirSync(dir))
    if (f.endsWith(".jsonl")) n += readFileSync(join(dir, f), "utf8").split('"state":"done"').length - 1;
  return n;
}

/** Start the command, SIGKILL it once `doneLines()` reached `after`, and return what it printed. */
async function killAfter(args: string[], after: number): Promise<void> {
  const start = doneLines();
  const r = await stopWhen(spawnBuilt(args, env), () => doneLines() - start >= after);
  expect(r.signal).toBe("SIGKILL");
}

const counts = (regs: string[]) => {
  const m = new Map<string, number>();
  for (const r of regs) m.set(r, (m.get(r) ?? 0) + 1);
  return m;
};

describe("bulk jobs on the embedded sandbox (built CLI)", () => {
  it("an import killed midway resumes on the rerun (same data file, new port): each row once", async () => {
    const rows = Array.from({ length: 200 }, (_, i) => vehicleRow(`EM-${String(i).padStart(3, "0")}`));
    const file = join(home.dir, "fleet.ndjson");
    writeFileSync(file, ndjson(rows));
    await killAfter(["vehicle", "import", file, "--user", USER, "--concurrency", "2", "--timeout", "2"], 30);
    const again = await runBuilt(["vehicle", "import", file, "--user", USER, "--timeout", "2"], env);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/resuming an interrupted import of/);
    expect(again.stderr).toMatch(/resumed an interrupted run: \d+ rows done earlier/);
    const regs = await accountRegs(env, Number(USER));
    expect(regs).toHaveLength(200);
    expect([...counts(regs).values()].every((n) => n === 1)).toBe(true);
  }, 120_000);

  it("undo of an apply: --dry-run sends nothing; killed midway, the rerun resumes and re-creates each vehicle once", async () => {
    const before = (await accountRegs(env, Number(USER))).sort();
    // An apply that removes all but 20 vehicles: its undo re-creates 180.
    const keep = before.slice(0, 20).map((reg) => vehicleRow(reg));
    const file = join(home.dir, "keep.ndjson");
    writeFileSync(file, ndjson(keep));
    const applied = await runBuilt(
      ["vehicle", "apply", "-f", file, "--prune", "--allow-mass-delete", "--yes", "--user", USER],
      env,
    );
    expect(applied.code).toBe(0);
    const op = /undo with: rentctl undo (\S+)/.exec(applied.stderr)?.[1];
    expect(op).toBeDefined();
    expect(await accountRegs(env, Number(USER))).toHaveLength(20);

    const dry = await runBuilt(["undo", op!, "--dry-run", "--user", USER], env);
    expect(dry.code).toBe(0);
    expect(dry.stdout.split("\n").filter((l) => l.includes("create it again"))).toHaveLength(180);
    expect(dry.stderr).toMatch(/dry run: would undo apply .*nothing was sent/);
    expect(await accountRegs(env, Number(USER))).toHaveLength(20);

    await killAfter(["undo", op!, "--user", USER, "--timeout", "2"], 40);
    const again = await runBuilt(["undo", op!, "--user", USER, "--timeout", "2"], env);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/resuming an interrupted undo of apply/);
    const regs = await accountRegs(env, Number(USER));
    expect(regs.sort()).toEqual(before);
  }, 180_000);
});
