import { afterAll, describe, expect, it } from "vitest";
import { runMain, tempHome } from "../helpers/cli.js";

/**
 * With the sandbox, a demo owner's key alone selects that owner (found by a new-user trial:
 * `RENTCTL_ENV=sandbox RENTCTL_API_KEY=sandbox-key-1003 rentctl vehicle list` answered 401, the
 * owner left at 1001); --user still wins.
 */
const home = tempHome();
afterAll(() => home.cleanup());
const env = (key: string) => ({
  ...home.env,
  RENTCTL_ENV: "sandbox",
  RENTCTL_SANDBOX_MEMORY: "1",
  RENTCTL_API_KEY: key,
});
const regs = (stdout: string) => (JSON.parse(stdout) as Array<{ user_id?: number; id: number }>).length;

describe("the sandbox's owner from the demo key", () => {
  it("sandbox-key-1003 lists owner 1003's (empty) fleet; sandbox-key-1002 owner 1002's two vehicles", async () => {
    const empty = await runMain(["vehicle", "list", "-o", "json"], env("sandbox-key-1003"));
    expect(empty.code, empty.stderr).toBe(0);
    expect(regs(empty.stdout)).toBe(0);
    const two = await runMain(["vehicle", "list", "-o", "json"], env("sandbox-key-1002"));
    expect(two.code, two.stderr).toBe(0);
    expect(regs(two.stdout)).toBe(2);
  });

  it("--user names the owner whatever the key: another owner's key is refused (exit 4)", async () => {
    const r = await runMain(["--user", "1001", "vehicle", "list", "-o", "json"], env("sandbox-key-1003"));
    expect(r.code).toBe(4);
  });
});
