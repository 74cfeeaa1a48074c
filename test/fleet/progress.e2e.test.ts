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
});
