import { afterEach, describe, expect, it } from "vitest";
import { runMain, sandboxEnv } from "../helpers/cli.js";

/** Dynamic completion honours the target flags already on the line (issue 41 item 10). */
describe("completion values follow the line's --env / --profile / --base-url / --user", () => {
  let sandbox: Awaited<ReturnType<typeof sandboxEnv>>;
  afterEach(async () => sandbox?.cleanup());

  it("`rentctl --env sandbox --base-url URL vehicle get <TAB>` offers that server's vehicles", async () => {
    sandbox = await sandboxEnv();
    const line = { ...sandbox.env, RENTCTL_ENV: undefined, RENTCTL_BASE_URL: undefined };
    // a listing remembers the vehicles of that target, for completion
    const listed = await runMain(["--env", "sandbox", "--base-url", sandbox.sb.url, "vehicle", "list"], line);
    expect(listed.code).toBe(0);
    const offered = (words: string[]) =>
      runMain(["completion", "__complete", "vehicles"], { ...line, RENTCTL_COMPLETE_WORDS: words.join("\n") });
    // the shell's environment names no target: without the line's flags nothing is known
    expect((await offered(["vehicle", "get"])).stdout).toBe("");
    const r = await offered(["--env", "sandbox", "--base-url", sandbox.sb.url, "vehicle", "get"]);
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n").filter(Boolean)).toEqual(["1\tB-SC 1001", "2\tM-SC 2002", "3\tHH-SC 3003"]);
    // another owner on the line: that owner's vehicles only (none were listed for 1003)
    const other = await offered(["--env", "sandbox", "--base-url", sandbox.sb.url, "--user", "1003", "vehicle", "get"]);
    expect(other.stdout).toBe("");
  });
});
