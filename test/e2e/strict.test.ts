import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBuilt, sandboxEnv } from "../helpers/cli.js";

// Issue 16 item 10: a member that is not a contract field is treated alike
// from --from-file and from --set: a warning naming it, or --strict refuses.
let ctx: Awaited<ReturnType<typeof sandboxEnv>>;
beforeAll(async () => {
  ctx = await sandboxEnv();
});
afterAll(() => ctx.cleanup());

describe("members outside the contract", () => {
  it("--from-file warns and names the member, like --set", async () => {
    const r = await runBuilt(
      ["vehicle", "edit", "1", "--from-file", "-", "--dry-run"],
      ctx.env,
      '{"price_per_day": 51, "turbo": 1}',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/warning: stdin: turbo: not a field of the v302 contract/);
    const s = await runBuilt(["vehicle", "edit", "1", "--set", "turbo=1", "--dry-run"], ctx.env);
    expect(s.stderr).toMatch(/warning: --set turbo: not a field of the v302 contract/);
  });

  it("--strict refuses them with exit 2 and sends nothing", async () => {
    const r = await runBuilt(
      ["vehicle", "edit", "1", "--from-file", "-", "--strict"],
      ctx.env,
      '{"price_per_day": 51, "turbo": 1}',
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("stdin: turbo");
    const after = JSON.parse((await runBuilt(["vehicle", "get", "1", "-o", "json"], ctx.env)).stdout);
    expect(after.price_per_day).not.toBe(51);
  });
});
