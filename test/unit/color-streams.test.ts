import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMain, sandboxEnv } from "../helpers/cli.js";

// Colour is decided per stream: results on stdout are coloured only when
// stdout itself is a terminal, whatever stderr is.
const ESC = "\u001b[";

describe("colour per stream", () => {
  let sb: Awaited<ReturnType<typeof sandboxEnv>>;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    sb = await sandboxEnv();
    const { NO_COLOR: _drop, ...rest } = sb.env;
    env = rest;
  });
  afterAll(() => sb.cleanup());

  it("stdout piped while stderr is a terminal: no escape codes on stdout", async () => {
    const r = await runMain(["vehicle", "list"], env, { tty: { stdout: false, stderr: true } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("REG NUMBER");
    expect(r.stdout).not.toContain(ESC);
    // the footer on stderr (a terminal) is coloured
    expect(r.stderr).toContain(ESC);
  });

  it("stdout a terminal while stderr is piped: the table is coloured, stderr is not", async () => {
    const r = await runMain(["vehicle", "list"], env, { tty: { stdout: true, stderr: false } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(ESC);
    expect(r.stderr).not.toContain(ESC);
  });

  it("NO_COLOR and --no-color win over a terminal on both streams", async () => {
    for (const [args, e] of [
      [["vehicle", "list"], { ...env, NO_COLOR: "1" }],
      [["--no-color", "vehicle", "list"], env],
    ] as const) {
      const r = await runMain([...args], e, { tty: true });
      expect(r.code).toBe(0);
      expect(r.stdout + r.stderr).not.toContain(ESC);
    }
  });
});
