import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { json, runMain, sandboxEnv } from "../helpers/cli.js";

// Issue 17 item 12: `vehicle create` with nothing given says what a vehicle
// needs and how to give it at once; the shipped example is valid.

let ctx: Awaited<ReturnType<typeof sandboxEnv>>;
beforeEach(async () => {
  ctx = await sandboxEnv();
});
afterEach(async () => ctx.cleanup());

const example = fileURLToPath(new URL("../../examples/vehicle.yaml", import.meta.url));

describe("vehicle create: first steps", () => {
  it("with nothing given lists the missing fields and points to the wizard, the example and a copy", async () => {
    const r = await runMain(["vehicle", "create"], ctx.env);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^error: nothing to create: a vehicle needs \d+ fields/);
    for (const f of ["pickup_location", "vehicle_model_id", "vehicle_reg_number", "vehicle_fuel_policy"])
      expect(r.stderr).toContain(`${f}: is required`);
    expect(r.stderr).toContain("rentctl vehicle wizard");
    expect(r.stderr).toContain("--from-file examples/vehicle.yaml");
    expect(r.stderr).toContain("rentctl vehicle get ID -o json > car.json");
    expect(r.stderr).not.toMatch(/ at .*\.js:\d+/);
  }, 120_000);

  it("examples/vehicle.yaml creates a vehicle on the sandbox through the CLI", async () => {
    const r = await runMain(["vehicle", "create", "--from-file", example, "-o", "json"], ctx.env);
    expect(r.code, r.stderr).toBe(0);
    const created = json<Record<string, unknown>>(r.stdout);
    expect(created).toMatchObject({ vehicle_reg_number: "B-EX 2027", vehicle_model_id: 1003, user_id: 1001 });
    expect(typeof created.id).toBe("number");
  }, 120_000);
});
