import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sandboxCli } from "../helpers/cli.js";

/**
 * -q (cli.md: print only identifiers of affected resources, one per line)
 * on dry runs, bulk changes and `account diff`: stdout carries the ids (or
 * nothing), stderr nothing (no plan, request, summary or progress), the exit
 * code says the rest.
 */

const { cli, dir, cleanup } = sandboxCli();
afterEach(cleanup);

describe("-q on dry runs", () => {
  it.each([
    [["vehicle", "edit", "1", "--price-per-day", "51"], "1\n"],
    [["vehicle", "edit", "1", "2", "--price-per-day", "51"], "1\n2\n"],
    [["vehicle", "edit", "1", "--price-per-day", "+20%"], "1\n"],
    [["vehicle", "edit", "--where", "segment=cars", "--price-per-day", "+1"], "1\n2\n3\n"],
    [["vehicle", "remove", "1", "2"], "1\n2\n"],
    [["vehicle", "deactivate", "1"], "1\n"],
    [["vehicle", "calendar", "1", "--block", "2030-01-01..2030-01-02"], "1\n"],
    [["extra", "delete", "1"], "1\n"],
    [["extra", "switch", "2"], "2\n"],
    [["vehicle", "create", "--from-file", "examples/vehicle.yaml"], ""],
    [["image", "upload", "examples/images/corolla-front.png"], ""],
  ])("%j --dry-run -q: the ids only, stderr empty", async (args, ids) => {
    const r = await cli(...args, "--dry-run", "-q");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(ids);
    // warnings would still show (none here); no plan, request or "dry run: ..." line
    expect(r.stderr).toBe("");
  });

  it("without -q the dry run still shows its plan", async () => {
    const r = await cli("vehicle", "edit", "1", "2", "--price-per-day", "51", "--dry-run");
    expect(r.stdout).toMatch(/Plan: 0 to create, 2 to change/);
    expect(r.stderr).toMatch(/dry run: would edit 2 vehicles/);
  });
});

describe("-q on a bulk change and on account diff", () => {
  it("vehicle edit 1 2 --yes -q: the changed ids, no summary line on stderr", async () => {
    const r = await cli("vehicle", "edit", "1", "2", "--price-per-day", "+1", "--yes", "-q");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe("1\n2\n");
    expect(r.stderr).toBe("");
  });

  it("account diff -q: nothing printed, exit 8 with changes and 0 without", async () => {
    const file = join(dir(), "account.yaml");
    expect((await cli("account", "export", file)).code).toBe(0);
    const same = await cli("account", "diff", "-f", file, "-q");
    expect([same.code, same.stdout, same.stderr]).toEqual([0, "", ""]);
    writeFileSync(file, readFileSync(file, "utf8").replace(/price_per_day: 45\n/, "price_per_day: 46\n"));
    const differs = await cli("account", "diff", "-f", file, "-q");
    expect([differs.code, differs.stdout, differs.stderr]).toEqual([8, "", ""]);
    const shown = await cli("account", "diff", "-f", file);
    expect(shown.code).toBe(8);
    expect(shown.stdout).toMatch(/price_per_day: 45 → 46/);
  });
});
