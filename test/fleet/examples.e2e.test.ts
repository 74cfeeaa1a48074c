import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, ROOT, runMain, sandboxEnv } from "../helpers/cli.js";

let sandbox: Awaited<ReturnType<typeof sandboxEnv>>;
beforeAll(async () => {
  sandbox = await sandboxEnv();
});
afterAll(async () => {
  await sandbox.cleanup();
});

describe("examples/fleet.yaml and examples/fleet.csv", () => {
  for (const name of ["fleet.yaml", "fleet.csv"]) {
    it(`${name} imports cleanly into the sandbox (names resolved, images uploaded and attached)`, async () => {
      const file = join(ROOT, "examples", name);
      const dry = await runMain(["vehicle", "import", file, "--user", "1003", "--dry-run"], sandbox.env);
      expect(dry.code).toBe(0);
      const r = await runMain(["vehicle", "import", file, "--user", "1003", "-o", "json"], sandbox.env);
      expect(r.stderr).toMatch(/created 3, exists 0, failed 0, invalid 0/);
      expect(r.code).toBe(0);
      const row1 = json<Array<{ row: number; vehicle_id: number }>>(r.stdout).find((x) => x.row === 1)!;
      const first = await runMain(
        ["vehicle", "get", String(row1.vehicle_id), "-o", "json", "--user", "1003"],
        sandbox.env,
      );
      const v = json<Record<string, unknown>>(first.stdout);
      expect(v.vehicle_class_id).toBe(2); // "Compact"
      expect(v.vehicle_currency_id).toBe(1); // "EUR"
      expect(v.vehicle_images as unknown[]).toHaveLength(2);
    }, 60_000);
  }
});
