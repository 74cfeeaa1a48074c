import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, runMain, sandboxEnv } from "../helpers/cli.js";

/**
 * Issue 41 item 10 (the calendar part): a calendar window is a window in
 * every format. `vehicle calendar 1 --from 2027-06 --months 1 -o json` lists
 * only that window's blocked days, with the window in the answer; without
 * --from and --months, the whole record as before.
 */

let sb: Awaited<ReturnType<typeof sandboxEnv>>;
const cli = (args: string[]) => runMain(args, sb.env);
beforeAll(async () => {
  sb = await sandboxEnv();
  const r = await cli([
    "vehicle",
    "calendar",
    "1",
    "--block",
    "2027-05-31",
    "--block",
    "2027-06-10..2027-06-11",
    "--block",
    "2027-07-01",
  ]);
  expect(r.code, r.stderr).toBe(0);
});
afterAll(() => sb?.cleanup());

describe("vehicle calendar --from / --months in every format", () => {
  it("-o json lists only the window's days and names the window", async () => {
    const r = await cli(["vehicle", "calendar", "1", "--from", "2027-06", "--months", "1", "-o", "json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(json(r.stdout)).toEqual({
      vehicle_id: 1,
      blocked: ["2027-06-10", "2027-06-11"],
      window: { from: "2027-06-01", to: "2027-06-30", months: 1 },
    });
  });

  it("over a selection, each vehicle's answer has the window", async () => {
    const r = await cli(["vehicle", "calendar", "--where", "id=1", "--from", "2027-07", "--months", "2", "-o", "json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(json(r.stdout)).toEqual([
      { vehicle_id: 1, blocked: ["2027-07-01"], window: { from: "2027-07-01", to: "2027-08-31", months: 2 } },
    ]);
  });

  it("without --from and --months: every blocked day, no window", async () => {
    const r = await cli(["vehicle", "calendar", "1", "-o", "json"]);
    expect(json<{ blocked: string[]; window?: unknown }>(r.stdout).blocked).toEqual([
      "2027-05-31",
      "2027-06-10",
      "2027-06-11",
      "2027-07-01",
    ]);
    expect(json<{ window?: unknown }>(r.stdout).window).toBeUndefined();
  });

  it("--months out of range is a usage error before any request", async () => {
    const r = await cli(["vehicle", "calendar", "1", "--months", "25", "-o", "json"]);
    expect(r.code).toBe(2);
  });
});
