import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, sandboxEnv } from "../helpers/cli.js";
import { ndjson, vehicleRow } from "./helpers.js";

// Runs argv[2:] on a pty (stdin, stderr) with stdout sent to the file argv[1]; prints what the pty showed.
const RELAY = `
import os, pty, sys
out, argv = sys.argv[1], sys.argv[2:]
pid, fd = pty.fork()
if pid == 0:
    o = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(o, 1)
    os.execvp(argv[0], argv)
while True:
    try:
        data = os.read(fd, 65536)
    except OSError:
        break
    if not data:
        break
    os.write(1, data)
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status))
`;

let sandbox: Awaited<ReturnType<typeof sandboxEnv>>;
const dir = mkdtempSync(join(tmpdir(), "fleet-tty-"));
beforeAll(async () => {
  sandbox = await sandboxEnv();
});
afterAll(async () => {
  await sandbox.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

describe("import progress", () => {
  it("shows a progress bar on a terminal (stderr) and keeps stdout for results", async () => {
    const f = join(dir, "p.ndjson");
    writeFileSync(f, ndjson(Array.from({ length: 300 }, (_, i) => vehicleRow(`PG-${i}`))));
    const relay = join(dir, "relay.py");
    writeFileSync(relay, RELAY);
    const out = join(dir, "stdout.txt");
    const r = await promisify(execFile)(
      "python3",
      [relay, out, process.execPath, BIN, "vehicle", "import", f, "--user", "1003", "-o", "ndjson"],
      { env: sandbox.env, timeout: 60_000 },
    );
    expect(r.stdout).toMatch(/importing .* \d+\/300 · [\d.]+\/s · ETA/);
    expect(r.stdout).toMatch(/created 300, exists 0, failed 0, invalid 0/);
    const results = readFileSync(out, "utf8").trim().split("\n");
    expect(results).toHaveLength(300);
    expect(results.every((l) => JSON.parse(l).status === "created")).toBe(true);
  }, 60_000);

  it("Ctrl-C clears the progress bar before it says it is stopping, and the bar does not come back before the summary", async () => {
    const { startSandbox } = await import("../../src/sandbox/server.js");
    const slow = await startSandbox({ host: "127.0.0.1", port: 0, dataFile: null, latencyMs: 40 });
    try {
      const f = join(dir, "ctrlc.ndjson");
      writeFileSync(f, ndjson(Array.from({ length: 400 }, (_, i) => vehicleRow(`CC-${i}`))));
      // the relay of above, but it presses Ctrl-C once the bar has drawn a few rows
      const relay = join(dir, "relay-ctrlc.py");
      writeFileSync(
        relay,
        RELAY.replace("import os, pty, sys", "import os, pty, re, sys").replace(
          "    os.write(1, data)",
          // after the first row is done (the bar starts at 0/400 before the job's Ctrl-C handler is installed)
          "    os.write(1, data)\n    if re.search(rb' [1-9][0-9]*/400', data) and not globals().get('sent'):\n        sent = True\n        os.write(fd, b'\\x03')",
        ),
      );
      const out = join(dir, "stdout-ctrlc.txt");
      const r = await promisify(execFile)(
        "python3",
        [relay, out, process.execPath, BIN, "vehicle", "import", f, "--user", "1003", "--concurrency", "2"],
        { env: { ...sandbox.env, RENTCTL_BASE_URL: slow.url }, timeout: 60_000 },
      ).catch((e: { stdout: string; code: number }) => e);
      const screen = r.stdout;
      const stop = screen.indexOf("stopping: waiting for the requests in flight");
      expect(stop, screen).toBeGreaterThan(0);
      // the bar's line is cleared (cursor to column 1, erase line) right before the message
      expect(screen.slice(Math.max(0, stop - 40), stop)).toMatch(/\x1b\[2K\r?\n?$/);
      // and never drawn again: no bar between the message and the summary
      const after = screen.slice(stop);
      expect(after).not.toMatch(/importing .*\/400/);
      expect(after).toMatch(/created \d+/);
    } finally {
      await slow.close();
    }
  }, 60_000);
});
