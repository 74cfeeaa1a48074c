import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { sandboxCli } from "../helpers/cli.js";

// A CI step parses an apply's per-row results (-o, --report) whatever the plan held: an apply
// with nothing to do still writes them, empty, and never leaves an earlier run's report in place.
const sb = sandboxCli();
afterEach(() => sb.cleanup());

describe("an apply with nothing to do", () => {
  test("vehicle apply: -o json prints [] and --report is rewritten", async () => {
    const fleet = join(sb.dir(), "fleet.yaml");
    expect((await sb.cli("vehicle", "export", fleet)).code).toBe(0);
    const report = join(sb.dir(), "result.csv");
    writeFileSync(report, "stale\n");
    const r = await sb.cli("vehicle", "apply", "-f", fleet, "--yes", "-o", "json", "--report", report);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
    expect(readFileSync(report, "utf8")).toBe("row,identity,status,vehicle_id,error,images\n");
    const q = await sb.cli("vehicle", "apply", "-f", fleet, "--yes", "-q");
    expect(q.stdout).toBe("");
    // yaml too: the empty list, not nothing (a yaml reader would get null)
    const y = await sb.cli("vehicle", "apply", "-f", fleet, "--yes", "-o", "yaml");
    expect(y.stdout).toBe("[]\n");
  });

  test("account apply: -o ndjson prints nothing, -o csv the header, --report is rewritten", async () => {
    const file = join(sb.dir(), "account.yaml");
    expect((await sb.cli("account", "export", file)).code).toBe(0);
    const nd = await sb.cli("account", "apply", "-f", file, "--yes", "-o", "ndjson");
    expect(nd.code).toBe(0);
    expect(nd.stdout).toBe("");
    const report = join(sb.dir(), "result.json");
    writeFileSync(report, "stale\n");
    const csv = await sb.cli("account", "apply", "-f", file, "--yes", "-o", "csv", "--report", report);
    expect(csv.code).toBe(0);
    expect(csv.stdout).toBe("row,identity,status,vehicle_id,extra_id,error,images\n");
    expect(JSON.parse(readFileSync(report, "utf8"))).toEqual([]);
  });

  test("vehicle edit / remove / calendar --where: -o json prints [] and --report is rewritten", async () => {
    const report = join(sb.dir(), "result.ndjson");
    for (const args of [
      ["vehicle", "edit", "--where", "id=1", "--price-per-day", "45"],
      ["vehicle", "remove", "--where", "reg=NO-SUCH-1"],
      ["vehicle", "calendar", "--where", "id=1", "--unblock", "2031-01-01"],
    ]) {
      writeFileSync(report, "stale\n");
      const r = await sb.cli(...args, "--yes", "-o", "json", "--report", report);
      expect(r.code, args.join(" ")).toBe(0);
      expect(JSON.parse(r.stdout), args.join(" ")).toEqual([]);
      expect(readFileSync(report, "utf8"), args.join(" ")).toBe("");
    }
  });

  test("one named vehicle's or extra's edit with nothing to change prints its record with no changes", async () => {
    const v = await sb.cli("vehicle", "edit", "1", "--price-per-day", "45", "-o", "json");
    expect(v.code).toBe(0);
    expect(JSON.parse(v.stdout)).toEqual({ id: 1, changes: [], undo: null });
    const e = await sb.cli("extra", "update", "1", "--price", "5", "-o", "json");
    expect(e.code).toBe(0);
    expect(JSON.parse(e.stdout)).toEqual({ id: 1, changes: [], undo: null });
    const q = await sb.cli("vehicle", "edit", "1", "--price-per-day", "45", "-q");
    expect(q.stdout).toBe("");
  });

  test("one named vehicle's edit honours --report, changed or not", async () => {
    const report = join(sb.dir(), "edit.csv");
    const changed = await sb.cli("vehicle", "edit", "1", "--price-per-day", "46", "-o", "json", "--report", report);
    expect(changed.code).toBe(0);
    expect(JSON.parse(changed.stdout)).toMatchObject({ id: 1, changes: [{ field: "price_per_day", after: 46 }] });
    expect(readFileSync(report, "utf8")).toBe("row,identity,status,vehicle_id,error,images\n1,B-SC 1001,changed,1,,\n");
    const same = await sb.cli("vehicle", "edit", "1", "--price-per-day", "46", "--report", report);
    expect(same.code).toBe(0);
    expect(readFileSync(report, "utf8")).toBe("row,identity,status,vehicle_id,error,images\n");
  });
});
