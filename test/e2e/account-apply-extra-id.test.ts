import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { json, sandboxCli } from "../helpers/cli.js";

/** `account apply -o json`: an extra's row names its id `extra_id` (vehicle_id null), a vehicle's `vehicle_id`. */

const { cli, dir, cleanup } = sandboxCli();
afterEach(cleanup);

describe("account apply per-row results", () => {
  it("extras rows carry extra_id, vehicle rows vehicle_id, in json and in a csv --report", async () => {
    const file = join(dir(), "account.yaml");
    expect((await cli("account", "export", file)).code).toBe(0);
    // one extra's price and one vehicle's price changed
    const text = readFileSync(file, "utf8")
      .replace(/price: 5\n/, "price: 6\n")
      .replace(/price_per_day: 45\n/, "price_per_day: 46\n");
    writeFileSync(file, text);
    const report = join(dir(), "report.csv");
    const r = await cli("account", "apply", "-f", file, "--yes", "-o", "json", "--report", report);
    expect(r.code, r.stderr).toBe(0);
    const rows = json<Array<Record<string, unknown>>>(r.stdout);
    const extra = rows.find((x) => String(x.identity).startsWith("extra "));
    const vehicle = rows.find((x) => !String(x.identity).startsWith("extra "));
    expect(extra).toMatchObject({ status: "updated", extra_id: 1, vehicle_id: null });
    expect(vehicle).toMatchObject({ status: "changed", vehicle_id: 1, extra_id: null });
    const csv = readFileSync(report, "utf8").split("\n");
    expect(csv[0]).toBe("row,identity,status,vehicle_id,extra_id,error,images");
  });
});
