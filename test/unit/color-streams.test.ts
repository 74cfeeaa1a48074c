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

describe("the --all progress line on a terminal", () => {
  it("is cleared before each page of results, so results never share its line", async () => {
    const sb = await sandboxEnv();
    try {
      const chunks: Array<["out" | "err", string]> = [];
      const { PassThrough, Readable } = await import("node:stream");
      const out = new PassThrough();
      const err = new PassThrough();
      out.on("data", (d) => chunks.push(["out", String(d)]));
      err.on("data", (d) => chunks.push(["err", String(d)]));
      const { main } = await import("../../src/main.js");
      const code = await main(["vehicle", "list", "--all", "--limit", "1", "-o", "ndjson"], {
        io: {
          stdout: out,
          stderr: err,
          stdin: Readable.from([]),
          stdoutTTY: true,
          stderrTTY: true,
          stdinTTY: true,
          columns: 80,
        },
        env: sb.env,
      });
      expect(code).toBe(0);
      // Interleave as one terminal would show it: every stdout write starts on a clean line.
      let line = "";
      for (const [stream, text] of chunks) {
        if (stream === "out") expect(line.replace(/\x1b\[[0-9;]*[A-Za-z]/g, "")).toBe("");
        line = (line + text).split(/[\r\n]/).at(-1) ?? "";
        if (text.endsWith("\r\x1b[K")) line = "";
      }
      expect(chunks.some(([s, t]) => s === "err" && t.includes("fetched"))).toBe(true);
    } finally {
      await sb.cleanup();
    }
  });
});
