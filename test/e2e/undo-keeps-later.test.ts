import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, runMain, sandboxEnv } from "../helpers/cli.js";

/**
 * `rentctl undo OP` puts back what OP changed and nothing else: a later change of
 * another field is kept (found by a trial: the undo of a price edit cleared a
 * description set after it, and put a capacity back).
 */
let sb: Awaited<ReturnType<typeof sandboxEnv>>;
beforeAll(async () => {
  sb = await sandboxEnv();
});
afterAll(async () => sb.cleanup());

const cli = (args: string[]) => runMain(args, sb.env);
const opOf = (stderr: string) => /rentctl undo (\S+)/.exec(stderr)?.[1];
const vehicle = async (id: number) =>
  json<Record<string, unknown>>((await cli(["vehicle", "get", String(id), "-o", "json"])).stdout);

describe("undo of an edit restores only the fields it changed", () => {
  it("a vehicle: the later description and capacity stay", async () => {
    const was = await vehicle(3);
    const edit = await cli(["vehicle", "edit", "3", "--price-per-day", "96"]);
    expect(edit.code, edit.stderr).toBe(0);
    const op = opOf(edit.stderr);
    expect(op).toBeDefined();
    const later = await cli([
      "vehicle",
      "edit",
      "3",
      "--set",
      "vehicle_description=Later change by someone else",
      "--set",
      "vehicle_passenger_capacity=4",
    ]);
    expect(later.code, later.stderr).toBe(0);
    const u = await cli(["undo", op!]);
    expect(u.code, u.stderr).toBe(0);
    const now = await vehicle(3);
    expect(now.price_per_day).toBe(was.price_per_day);
    expect(now.vehicle_description).toBe("Later change by someone else");
    expect(now.vehicle_passenger_capacity).toBe(4);
  });

  it("a change of many vehicles: each one's later change of another field stays", async () => {
    const before = await vehicle(1);
    const many = await cli(["vehicle", "edit", "1", "2", "--price-per-day", "+1", "--yes"]);
    expect(many.code, many.stderr).toBe(0);
    const op = opOf(many.stderr);
    expect(op).toBeDefined();
    expect((await cli(["vehicle", "edit", "1", "--set", "vehicle_passenger_capacity=3"])).code).toBe(0);
    const u = await cli(["undo", op!, "--yes"]);
    expect(u.code, u.stderr).toBe(0);
    const now = await vehicle(1);
    expect(now.price_per_day).toBe(before.price_per_day);
    expect(now.vehicle_passenger_capacity).toBe(3);
  });

  it("an extra: the later quantity stays", async () => {
    const get = async () => json<Record<string, unknown>>((await cli(["extra", "get", "1", "-o", "json"])).stdout);
    const was = await get();
    const up = await cli(["extra", "update", "1", "--price", "9"]);
    expect(up.code, up.stderr).toBe(0);
    const op = opOf(up.stderr);
    expect(op).toBeDefined();
    expect((await cli(["extra", "update", "1", "--quantity", "1"])).code).toBe(0);
    const u = await cli(["undo", op!]);
    expect(u.code, u.stderr).toBe(0);
    const now = await get();
    expect(now.price).toBe(was.price);
    expect(now.quantity).toBe(1);
  });
});
