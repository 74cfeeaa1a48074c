import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleVehicleInput } from "../../src/sandbox/server.js";
import { runBuilt, sandboxEnv } from "../helpers/cli.js";
import { type FaultProxy, startProxy } from "./helpers.js";

// Issue 16 item 2: a write whose answer was lost may have been applied. The
// CLI says so, looks the vehicle up by registration number, and never sends
// the create twice.

let sandbox: Awaited<ReturnType<typeof sandboxEnv>>;
let proxy: FaultProxy;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  sandbox = await sandboxEnv();
  proxy = await startProxy(sandbox.sb.url);
  env = { ...sandbox.env, RENTCTL_BASE_URL: proxy.url, RENTCTL_USER_ID: "1001", RENTCTL_TIMEOUT: "2" };
});
afterAll(async () => {
  await proxy.close();
  await sandbox.cleanup();
});

const car = (reg: string) => {
  const { user_id: _u, ...f } = sampleVehicleInput(1001);
  return JSON.stringify({ ...f, vehicle_reg_number: reg });
};

describe("a create whose answer was lost", () => {
  for (const kind of ["drop", "hang"] as const) {
    it(`(${kind === "drop" ? "connection reset" : "timeout"}): exit 6, says it may have been created, names the match, sent once`, async () => {
      proxy.counts.clear();
      proxy.decide = (r) => (r.method === "POST" && r.path.endsWith("/vehicles/create") ? { kind } : { kind: "pass" });
      const reg = `LOST-${kind}`;
      const r = await runBuilt(["vehicle", "create", "--from-file", "-", "-v"], env, car(reg));
      proxy.decide = () => ({ kind: "pass" });
      expect(r.code).toBe(6);
      expect(r.stderr).toContain("the server may have created the vehicle");
      expect(r.stderr).toMatch(new RegExp(`${reg} is in the account now: vehicle \\d+`));
      expect(r.stderr).toContain(`checking whether vehicle ${reg} was created`);
      expect(r.stderr).not.toContain("this is a bug");
      expect(proxy.creates()).toBe(1);
    }, 60_000);
  }
});
