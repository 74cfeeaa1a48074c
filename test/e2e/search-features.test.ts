import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMain, sandboxEnv } from "../helpers/cli.js";

/**
 * Issue 41 item 10: `vehicle list --search` also matches a vehicle's
 * additional features and benefits by their catalog names (the README says
 * so), as it matches the model's name.
 */

let s: Awaited<ReturnType<typeof sandboxEnv>>;
beforeAll(async () => {
  s = await sandboxEnv();
});
afterAll(async () => s?.cleanup());
const ids = async (args: string[]) => {
  const r = await runMain(args, s.env);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim().split("\n").filter(Boolean).map(Number);
};

describe("vehicle list --search: features and benefits", () => {
  it("a feature's name and a benefit's name find the vehicles that have them (any case)", async () => {
    // seeded vehicle 1 has features 1, 2, 5 (Air conditioning, Bluetooth, Rear-view camera) and benefits 1, 4
    expect(await ids(["vehicle", "list", "--search", "bluetooth", "-q"])).toEqual([1]);
    expect(await ids(["vehicle", "list", "--search", "ROADSIDE", "-q"])).toEqual([1]);
    expect(await ids(["vehicle", "list", "--search", "parking sensors", "-q"])).toEqual([]);
    // vehicle export reads the same rule
    const r = await runMain(["vehicle", "export", "--search", "bluetooth", "--with-ids"], s.env);
    expect(
      r.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).vehicle_id),
    ).toEqual([1]);
  });
});
