import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, ROOT, runMain, sandboxEnv } from "../helpers/cli.js";

/** Issue 41 item 3: `--set` on a list field replaces it, and the help, the README and the success line say so. */

let s: Awaited<ReturnType<typeof sandboxEnv>>;
beforeAll(async () => {
  s = await sandboxEnv();
});
afterAll(async () => {
  await s.cleanup();
});
const run = (args: string[]) => runMain([...args, "--user", "1001"], s.env);

describe("--set on a list field replaces the list", () => {
  it("[1, 4] → [2], and the success line shows the list before and after", async () => {
    expect((await run(["vehicle", "edit", "1", "--set", "vehicle_benefits_id=1,4"])).code).toBe(0);
    const r = await run(["vehicle", "edit", "1", "--set", "vehicle_benefits_id=2"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("(1 field changed) · vehicle_benefits_id: [1, 4] → [2]");
    const now = json<Record<string, unknown>>((await run(["vehicle", "get", "1", "-o", "json"])).stdout);
    expect(now.vehicle_benefits_id).toEqual([2]);
  });

  it("the help and the README say replace, not append", async () => {
    const help = await run(["vehicle", "edit", "--help"]);
    expect(help.stdout).not.toContain("arrays append");
    expect(help.stdout.replace(/\s+/g, " ")).toContain("a list field is replaced by the values given");
    const readme = readFileSync(join(ROOT, "README.md"), "utf8").replace(/\s+/g, " ");
    expect(readme).toContain("`vehicle edit 1 --set vehicle_benefits_id=2` turns `[1, 4]` into `[2]`");
  });
});
