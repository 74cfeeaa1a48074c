import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { NetworkError } from "../../src/api/errors.js";
import { InputError, valueProblem } from "../../src/base/errors.js";
import { ROOT, runMain, tempHome } from "../helpers/cli.js";

/**
 * A server that cannot be reached while a file's names are looked up (segments, options) is an
 * outage, not a row's bad value: exit 6, no row reported invalid, nothing skipped by --skip-invalid.
 * (Found by a new-user trial: rows came out "invalid" with exit 2, and --skip-invalid skipped them.)
 */
const home = tempHome();
afterAll(() => home.cleanup());
const env = {
  ...home.env,
  RENTCTL_API_KEY: "test-key",
  RENTCTL_BASE_URL: "http://127.0.0.1:1",
  RENTCTL_USER_ID: "1001",
};
const fleet = join(ROOT, "examples", "fleet.csv");

describe("an outage while names are resolved stops the work (exit 6)", () => {
  it("vehicle import --dry-run and --skip-invalid: exit 6, no row named invalid", async () => {
    for (const extra of [["--dry-run"], ["--skip-invalid", "--yes", "-o", "ndjson"]]) {
      const r = await runMain(["vehicle", "import", fleet, ...extra], env);
      expect(r.code, r.stderr).toBe(6);
      expect(r.stderr).toMatch(/network error/);
      expect(r.stderr).not.toMatch(/row \d|invalid|skipped/);
      expect(r.stdout).toBe("");
    }
  });

  it("account diff of a file naming extra options: exit 6, not a problem of the file", async () => {
    const r = await runMain(["account", "diff", "-f", join(ROOT, "examples", "account.yaml")], env);
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toMatch(/network error/);
  });

  it("the one rule: value errors become the value's problem, others are rethrown", () => {
    expect(
      valueProblem(new InputError("option: no option named gps", { hint: "see extra options" }), /^option: /),
    ).toBe("no option named gps (see extra options)");
    const outage = new NetworkError("network error: connect ECONNREFUSED");
    expect(() => valueProblem(outage)).toThrow(outage);
    expect(() => valueProblem(new TypeError("bug"))).toThrow(TypeError);
  });
});
