import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleVehicleInput } from "../../src/sandbox/server.js";
import { runMain, sandboxEnv } from "../helpers/cli.js";
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
      const r = await runMain(["vehicle", "create", "--from-file", "-", "-v"], env, { input: car(reg) });
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

describe("image upload --attach (issue 16 item 3)", () => {
  const image = () => {
    const f = join(env.RENTCTL_DATA_DIR!, "..", `img-${Math.random().toString(36).slice(2)}.jpg`);
    writeFileSync(f, Buffer.from([0xff, 0xd8, 0xff, 0xe0]));
    return f;
  };

  it("checks the vehicle exists before uploading: a missing one is exit 5 and nothing is uploaded", async () => {
    proxy.counts.clear();
    const r = await runMain(["image", "upload", image(), "--attach", "99999"], env);
    expect(r.code).toBe(5);
    expect(proxy.counts.get("POST /api/v302/vehicles/upload") ?? 0).toBe(0);
  });

  it("when the attach fails after the upload, the uploaded image ids are printed", async () => {
    proxy.decide = (q) =>
      q.method === "POST" && q.path.endsWith("/vehicles/edit") ? { kind: "fail", status: 400 } : { kind: "pass" };
    const r = await runMain(["image", "upload", image(), "--attach", "1"], env);
    proxy.decide = () => ({ kind: "pass" });
    expect(r.code).toBe(3);
    expect(r.stdout.trim()).toMatch(/^\d+$/);
    expect(r.stderr).toMatch(/the images were uploaded \(ids \d+\) but attaching them to vehicle 1 failed/);
  });
});
