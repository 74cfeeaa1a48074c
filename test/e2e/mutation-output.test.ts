import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sampleVehicleInput } from "../../src/sandbox/server.js";
import { type CliResult, extraCreateArgs, json, runBuilt, runMain, sandboxEnv } from "../helpers/cli.js";

// Issue 17 items 5 and 6: mutations print their result on stdout (ids with -q,
// records / per-id results with -o json) and a dry run names where it would act.

let ctx: Awaited<ReturnType<typeof sandboxEnv>>;
let env: NodeJS.ProcessEnv;
const cli = (args: string[]): Promise<CliResult> => runMain(args, env);

beforeEach(async () => {
  ctx = await sandboxEnv();
  env = ctx.env;
});
afterEach(async () => ctx.cleanup());

async function createCar(reg: string): Promise<number> {
  const { user_id: _u, ...fields } = sampleVehicleInput(1001);
  const file = join(env.RENTCTL_DATA_DIR!, "..", `car-${reg}.json`);
  writeFileSync(file, JSON.stringify({ ...fields, vehicle_reg_number: reg }));
  const r = await cli(["vehicle", "create", "--from-file", file, "-q"]);
  expect(r.code, r.stderr).toBe(0);
  return Number(r.stdout.trim());
}

async function createExtra(): Promise<number> {
  const r = await cli([
    ...extraCreateArgs({ option: "child seat", price: 8, currency: "EUR", period: 1, quantity: 2 }),
    "-q",
  ]);
  expect(r.code, r.stderr).toBe(0);
  return Number(r.stdout.trim());
}

describe("vehicle activate / deactivate / remove print their result", () => {
  it("-q prints the affected ids; -o json prints per-id results", async () => {
    const a = await createCar("OUT-1");
    const b = await createCar("OUT-2");
    const q = await cli(["vehicle", "deactivate", String(a), String(b), "-q"]);
    expect(q.code, q.stderr).toBe(0);
    expect(q.stdout.trim().split("\n").map(Number)).toEqual([a, b]);

    const one = await cli(["vehicle", "activate", String(a), "-o", "json"]);
    expect(one.code, one.stderr).toBe(0);
    expect(json<Record<string, unknown>>(one.stdout)).toMatchObject({ id: a, vehicle_activity: 1, changed: true });

    const two = await cli(["vehicle", "activate", String(a), String(b), "-o", "json"]);
    expect(two.code, two.stderr).toBe(0);
    const rows = json<Array<Record<string, unknown>>>(two.stdout);
    expect(rows).toEqual([
      expect.objectContaining({ id: a, changed: false }),
      expect.objectContaining({ id: b, changed: true }),
    ]);

    const rm = await cli(["vehicle", "remove", String(a), "999999", "--yes", "-o", "json"]);
    expect(rm.code).toBe(7);
    const results = json<Array<Record<string, unknown>>>(rm.stdout);
    expect(results[0]).toMatchObject({ id: a, removed: true });
    expect(results[0]!.undo).not.toBeNull();
    expect(results[1]).toMatchObject({ id: 999999, ok: false });
  });

  it("--dry-run names the environment and owner; nothing is sent", async () => {
    const id = await createCar("OUT-DRY");
    const rm = await cli(["vehicle", "remove", String(id), "--dry-run"]);
    expect(rm.code, rm.stderr).toBe(0);
    expect(rm.stderr).toContain(`would remove vehicle ${id} on sandbox as owner 1001`);
    const d = await cli(["vehicle", "deactivate", String(id), "--dry-run"]);
    expect(d.stderr).toContain(`would edit vehicle ${id} on sandbox as owner 1001`);
    const got = json<Record<string, unknown>>((await cli(["vehicle", "get", String(id), "-o", "json"])).stdout);
    expect(got.vehicle_activity).toBe(1);
  });
});

describe("extra switch / delete print their result", () => {
  it("-q prints the id; -o json the result; --dry-run names the target", async () => {
    const id = await createExtra();
    const s = await cli(["extra", "switch", String(id), "-q"]);
    expect(s.stdout.trim()).toBe(String(id));
    const dry = await cli(["extra", "delete", String(id), "--dry-run"]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toContain(`would delete extra ${id} on sandbox as owner 1001`);
    const del = await cli(["extra", "delete", String(id), "--yes", "-o", "json"]);
    expect(del.code, del.stderr).toBe(0);
    expect(json<Record<string, unknown>>(del.stdout)).toMatchObject({ id, deleted: true });
  });

  it("through the built CLI: remove -q prints the id", async () => {
    const id = await createCar("OUT-BUILT");
    const r = await runBuilt(["vehicle", "remove", String(id), "-y", "-q"], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(String(id));
  }, 120_000);
});
