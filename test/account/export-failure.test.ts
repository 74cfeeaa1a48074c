import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type FaultProxy, ndjson, startProxy, vehicleRow } from "../fleet/helpers.js";
import { runMain, sandboxEnv } from "../helpers/cli.js";

/**
 * Issue 41 item 3c: nothing on stdout looks complete when a command fails.
 * What can be checked is checked before the first byte; a streamed document
 * cut short ends with a line no reader accepts; path errors are exit 2.
 */

const dir = mkdtempSync(join(tmpdir(), "export-failure-"));
let s: Awaited<ReturnType<typeof sandboxEnv>>;
let proxy: FaultProxy;
let env: NodeJS.ProcessEnv;
const LIST = "/api/v302/vehicles/list";
beforeAll(async () => {
  s = await sandboxEnv();
  // more than one page of vehicles (100 a page)
  const f = join(dir, "many.ndjson");
  writeFileSync(f, ndjson(Array.from({ length: 120 }, (_, i) => vehicleRow(`EF-${i}`))));
  expect((await runMain(["--user", "1003", "vehicle", "import", f], s.env)).code).toBe(0);
  proxy = await startProxy(String(s.env.RENTCTL_BASE_URL));
  env = { ...s.env, RENTCTL_BASE_URL: proxy.url };
}, 60_000);
afterAll(async () => {
  await proxy.close();
  await s.cleanup();
  rmSync(dir, { recursive: true, force: true });
});
const run = (args: string[]) => runMain(["--user", "1003", ...args], env);

describe("account export to stdout that fails", () => {
  it("a 401 on the vehicles listing: nothing on stdout, exit 4", async () => {
    proxy.decide = (r) => (r.path === LIST ? { kind: "fail", status: 401 } : { kind: "pass" });
    const r = await run(["account", "export"]);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe("");
  });

  it("a later page that fails: the document ends with a line no YAML reader accepts, saying why", async () => {
    let n = 0;
    proxy.decide = (r) => (r.path === LIST && ++n >= 2 ? { kind: "fail", status: 401 } : { kind: "pass" });
    const r = await run(["account", "export"]);
    expect(r.code).toBe(4);
    expect(r.stdout).toContain("vehicles:\n- ");
    expect(r.stdout).toMatch(/\n%INCOMPLETE rentctl account export failed: .+\n$/);
    expect(() => parse(r.stdout)).toThrow();
  });
});

describe("vehicle export to stdout that fails", () => {
  it("on its first page prints nothing; on a later one ends with a line no reader takes for a row", async () => {
    proxy.decide = (r) => (r.path === LIST ? { kind: "fail", status: 401 } : { kind: "pass" });
    const first = await run(["vehicle", "export"]);
    expect(first.code).toBe(4);
    expect(first.stdout).toBe("");
    let n = 0;
    proxy.decide = (r) => (r.path === LIST && ++n >= 2 ? { kind: "fail", status: 401 } : { kind: "pass" });
    const later = await run(["vehicle", "export"]);
    expect(later.code).toBe(4);
    const lines = later.stdout.trimEnd().split("\n");
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.at(-1)).toMatch(/^%INCOMPLETE rentctl vehicle export failed: /);
    expect(() => JSON.parse(lines.at(-1)!)).toThrow();
  });
});

describe("path errors are exit 2, before anything is sent", () => {
  it("an empty file name and a 300-character one", async () => {
    proxy.decide = () => ({ kind: "pass" });
    proxy.counts.clear();
    const empty = await run(["account", "export", "--", ""]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("account export: the file name is empty");
    const long = await run(["account", "export", join(dir, "x".repeat(300))]);
    expect(long.code).toBe(2);
    expect(long.stderr).toMatch(/account export: cannot write .*x{300}/);
    expect(long.stderr).not.toContain("this is a bug");
    expect(proxy.counts.size).toBe(0);
  });
});

describe("--raw with a registration number that does not exist", () => {
  it("prints no listing page: stdout is empty, exit 2 (an unknown registration names the nearest)", async () => {
    proxy.decide = () => ({ kind: "pass" });
    for (const args of [
      ["vehicle", "get", "NOPE-1"],
      ["vehicle", "edit", "NOPE-1", "--price-per-day", "5"],
    ]) {
      const r = await run([...args, "--raw"]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
    }
  });
});
