import { afterEach, describe, expect, it } from "vitest";
import { EXIT } from "../../src/base/errors.js";
import { runMain, sandboxEnv } from "../helpers/cli.js";

/** A 401 on one record of another owner says so, not "check the API key" (issue 41 item 11). */
describe("another owner's record", () => {
  let sandbox: Awaited<ReturnType<typeof sandboxEnv>>;
  afterEach(async () => sandbox?.cleanup());

  it("get, edit and an extra of another owner name the cause; a bad key still says check the key", async () => {
    sandbox = await sandboxEnv();
    // vehicle 4 and extra 4 are owner 1002's; the demo key in use is owner 1001's
    for (const args of [
      ["vehicle", "get", "4"],
      ["vehicle", "edit", "4", "--price-per-day", "3"],
      ["extra", "get", "4"],
    ]) {
      const r = await runMain(args, sandbox.env);
      expect(r.code, args.join(" ")).toBe(EXIT.auth);
      expect(r.stderr).toMatch(/^error: (vehicle|extra) 4 is another owner's/);
      expect(r.stderr).not.toMatch(/check the API key/);
      expect(r.stdout).toBe("");
    }
    const json = await runMain(["vehicle", "get", "4", "-o", "json"], sandbox.env);
    expect(JSON.parse(json.stderr)).toMatchObject({
      error: { kind: "unauthorized", status: 401, exit_code: EXIT.auth },
    });
    const badKey = await runMain(["vehicle", "get", "1"], { ...sandbox.env, RENTCTL_API_KEY: "not-a-key" });
    expect(badKey.code).toBe(EXIT.auth);
    expect(badKey.stderr).toMatch(/check the API key/);
  });
});
