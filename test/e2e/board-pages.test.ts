import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ndjson, vehicleRow } from "../fleet/helpers.js";
import { runMain, sandboxEnv } from "../helpers/cli.js";

/**
 * Issue 41 item 10: the availability board (`vehicle calendar --board`) pages
 * like `vehicle list` (808 rows printed at once before): a page of 15 in a
 * table with the footer on stderr, --limit / --page / --all as the list's; a
 * program reading (-o json) still gets every vehicle.
 */

const dir = mkdtempSync(join(tmpdir(), "board-pages-"));
let s: Awaited<ReturnType<typeof sandboxEnv>>;
beforeAll(async () => {
  s = await sandboxEnv();
  const f = join(dir, "fleet.ndjson");
  writeFileSync(f, ndjson(Array.from({ length: 20 }, (_, i) => vehicleRow(`BP-${i}`))));
  expect((await runMain(["--user", "1003", "vehicle", "import", f], s.env)).code).toBe(0);
}, 60_000);
afterAll(async () => {
  await s?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});
const board = (args: string[]) =>
  runMain(["--user", "1003", "vehicle", "calendar", "--board", "--days", "7", ...args], { ...s.env, COLUMNS: "120" });
const rows = (stdout: string) => stdout.split("\n").filter((l) => /^\d+ BP-/.test(l));

describe("vehicle calendar --board pages like a list", () => {
  it("a page of 15 and a footer naming the next step; --page 2; --limit; --all", async () => {
    const first = await board([]);
    expect(first.code, first.stderr).toBe(0);
    expect(rows(first.stdout)).toHaveLength(15);
    expect(first.stderr).toMatch(/next: --page 2, or --all/);
    const second = await board(["--page", "2"]);
    expect(rows(second.stdout)).toHaveLength(5);
    expect(rows(second.stdout)[0]).not.toBe(rows(first.stdout)[0]);
    expect(rows((await board(["--limit", "4"])).stdout)).toHaveLength(4);
    const all = await board(["--all"]);
    expect(rows(all.stdout)).toHaveLength(20);
    expect(all.stderr).not.toMatch(/next:/);
  });

  it("-o json gets every vehicle; paging flags without --board are refused (exit 2)", async () => {
    const j = await board(["-o", "json"]);
    expect(JSON.parse(j.stdout)).toHaveLength(20);
    const bad = await runMain(["--user", "1003", "vehicle", "calendar", "1", "--limit", "3"], s.env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--limit, --offset and --page page the board/);
  });
});
