import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { Chalk } from "chalk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApiValidationError, AuthError } from "../../src/api/errors.js";
import { type BulkJobRun, bulkJobKey, openBulkJob } from "../../src/bulk/job.js";
import { RowLog } from "../../src/bulk/row-log.js";
import type { BulkRow, TaskContext, TaskOutcome } from "../../src/bulk/runner.js";
import type { Deps } from "../../src/deps.js";
import { ConflictError, EXIT, exitCodeOf, PartialFailureError, type RentctlError } from "../../src/errors.js";
import { createMessages } from "../../src/output/messages.js";

// The one bulk job shell (src/bulk/job.ts), driven with a fake sender. Every
// job kind (import, apply, changes to many vehicles, undo of an apply) runs
// in this shell, so resume, settle, Ctrl-C, report and exit codes are tested
// here once for all of them; each kind's own e2e tests cover its rows.

interface Fake {
  deps: Deps;
  stdout: () => string;
  stderr: () => string;
  connections: number[];
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "rentctl-job-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function fakeDeps(opts: { output?: string; quiet?: boolean; timeoutMs?: number; embedded?: boolean } = {}): Fake {
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = "";
  let stderr = "";
  out.on("data", (b) => {
    stdout += String(b);
  });
  err.on("data", (b) => {
    stderr += String(b);
  });
  const connections: number[] = [];
  const target = {
    env: "sandbox",
    baseUrl: "http://127.0.0.1:1",
    userId: 1001,
    embeddedSandbox: Boolean(opts.embedded),
  };
  const deps = {
    io: { stdout: out, stderr: err, stdin: new PassThrough(), stdoutTTY: false, stderrTTY: false, stdinTTY: false },
    env: {},
    paths: { dataDir: dir, configDir: dir, cacheDir: dir },
    flags: { quiet: opts.quiet },
    color: new Chalk({ level: 0 }),
    outColor: new Chalk({ level: 0 }),
    settings: () => ({ output: opts.output ?? "table", timeoutMs: opts.timeoutMs ?? 50 }),
    target: async () => target,
    client: async () => ({ limitConnections: (n: number) => connections.push(n) }),
    msg: createMessages(err, new Chalk({ level: 0 }), Boolean(opts.quiet)),
    now: Date.now,
  } as unknown as Deps;
  return { deps, stdout: () => stdout, stderr: () => stderr, connections };
}

const ROWS = ["A-1", "A-2", "A-3", "A-4", "A-5"];
async function* rowsOf(keys = ROWS): AsyncGenerator<BulkRow<string>> {
  let row = 0;
  for (const key of keys) yield { row: ++row, key, item: key };
}

/** A fake server: a set of created keys, and a sender that writes to it through `ctx.beforeWrite`. */
function fakeServer() {
  const created = new Map<string, number>();
  const sent: string[] = [];
  let next = 100;
  const send =
    (fail: (key: string) => Error | undefined = () => undefined) =>
    async (row: BulkRow<string>, ctx: TaskContext): Promise<TaskOutcome> => {
      const have = created.get(row.item);
      if (have !== undefined) return { status: "exists", id: have };
      await ctx.beforeWrite();
      sent.push(row.item);
      const e = fail(row.item);
      if (e) throw e;
      const id = next++;
      created.set(row.item, id);
      return { status: "created", id };
    };
  return { created, sent, send };
}

const KEY = { job: "test.job", contentHash: "h1", what: "test job" };
const spec = (send: BulkJobRun<string>["send"], extra: Partial<BulkJobRun<string>> = {}): BulkJobRun<string> => ({
  rows: rowsOf(),
  total: ROWS.length,
  concurrency: 2,
  label: "testing",
  acting: "testing 5 rows",
  order: ["created", "exists", "failed"],
  quietIds: ["created"],
  send,
  ...extra,
});

async function runJob(f: Fake, s: BulkJobRun<string>, key = KEY): Promise<RentctlError | undefined> {
  const job = await openBulkJob(f.deps, key);
  try {
    await job.run(s);
    return undefined;
  } catch (e) {
    return e as RentctlError;
  } finally {
    await job.close();
  }
}

async function logFile(f: Fake): Promise<string> {
  return RowLog.fileFor(dir, await bulkJobKey(f.deps, KEY));
}

describe("the bulk job shell (src/bulk/job.ts)", () => {
  it("runs every row, caps connections at the concurrency, prints the summary, and finishes the row log", async () => {
    const f = fakeDeps();
    const server = fakeServer();
    expect(await runJob(f, spec(server.send()))).toBeUndefined();
    expect(server.sent.sort()).toEqual(ROWS);
    expect(f.connections).toEqual([2]);
    expect(f.stderr()).toMatch(/testing 5 rows/);
    expect(f.stderr()).toMatch(/created 5, exists 0, failed 0 \(in \d+\.\d s\)/);
    expect(existsSync(await logFile(f))).toBe(false);
  });

  it("failed rows: exit 7 naming them, the row log kept; the rerun says it resumes and sends only those rows", async () => {
    const f = fakeDeps();
    const server = fakeServer();
    const bad = new ApiValidationError("rejected (400): price_per_day: must be positive");
    bad.status = 400;
    const e = await runJob(f, spec(server.send((k) => (k === "A-3" ? bad : undefined))));
    expect(e).toBeInstanceOf(PartialFailureError);
    expect(exitCodeOf(e)).toBe(EXIT.partial);
    expect(e!.details).toEqual([{ field: "row 3 (A-3)", message: "rejected (400): price_per_day: must be positive" }]);
    expect(existsSync(await logFile(f))).toBe(true);

    const again = fakeDeps();
    server.sent.length = 0;
    expect(await runJob(again, spec(server.send()))).toBeUndefined();
    // not "interrupted": the run got through every row
    expect(again.stderr()).toMatch(
      /the last test job finished with 1 row not done \(failed, invalid or in conflict\): running it again \(--restart to start afresh\)/,
    );
    expect(server.sent).toEqual(["A-3"]);
    expect(again.stderr()).toMatch(/continued the earlier run: 4 rows done earlier/);
    expect(again.stderr()).not.toMatch(/interrupted/);
    expect(existsSync(await logFile(again))).toBe(false);
  });

  it("a row a killed run left in flight: the rerun waits for it to settle, then reconciles it instead of sending it", async () => {
    const f = fakeDeps({ timeoutMs: 30 });
    // What a SIGKILL right after the write leaves: the row `sending`, the vehicle on the server.
    const log = await RowLog.open(dir, await bulkJobKey(f.deps, KEY));
    await log.write({ row: 2, key: "A-2", state: "sending" });
    log.started(2, "A-2");
    // row 4 was journaled ahead with its group, but its request never started: sent at once, not reconciled
    await log.write({ row: 4, key: "A-4", state: "sending" });
    await log.close();
    const server = fakeServer();
    server.created.set("A-2", 42);
    const seen: string[] = [];
    const e = await runJob(
      f,
      spec(server.send(), {
        beforeReconcile: async (inFlight) => {
          seen.push(`before ${inFlight.map((r) => r.row).join(",")}`);
        },
        reconcile: async (row) => {
          seen.push(`reconcile ${row.key}`);
          const id = server.created.get(row.item);
          return id === undefined ? undefined : { status: "created", id };
        },
      }),
    );
    expect(e).toBeUndefined();
    expect(f.stderr()).toMatch(/1 row was in flight when the last run stopped: waiting \d+\.\d s/);
    expect(seen).toEqual(["before 2", "reconcile A-2"]);
    expect(server.sent.sort()).toEqual(["A-1", "A-3", "A-4", "A-5"]);
    expect(f.stderr()).toMatch(/1 reconciled/);
  });

  it("on the embedded sandbox a rerun does not wait (its server ended with the stopped run) and still reconciles", async () => {
    const f = fakeDeps({ timeoutMs: 60_000, embedded: true });
    const log = await RowLog.open(dir, await bulkJobKey(f.deps, KEY));
    await log.write({ row: 2, key: "A-2", state: "sending" });
    log.started(2, "A-2");
    await log.close();
    const server = fakeServer();
    server.created.set("A-2", 42);
    const e = await runJob(
      f,
      spec(server.send(), {
        reconcile: async (row) => {
          const id = server.created.get(row.item);
          return id === undefined ? undefined : { status: "created", id };
        },
      }),
    );
    expect(e).toBeUndefined();
    expect(f.stderr()).not.toMatch(/in flight when the last run stopped/);
    expect(server.sent.sort()).toEqual(["A-1", "A-3", "A-4", "A-5"]);
    expect(f.stderr()).toMatch(/1 reconciled/);
  });

  it("Ctrl-C: stops taking rows, waits for the ones in flight, exit 130, the row log kept for the rerun", async () => {
    const f = fakeDeps();
    const server = fakeServer();
    const send = server.send();
    const e = await runJob(
      f,
      spec(
        async (row, ctx) => {
          if (row.row === 1) process.emit("SIGINT");
          return send(row, ctx);
        },
        { concurrency: 1 },
      ),
    );
    expect(exitCodeOf(e)).toBe(EXIT.interrupted);
    expect(f.stderr()).toMatch(/stopping: waiting for the requests in flight/);
    expect(f.stderr()).toMatch(/interrupted: rerun the same command to finish/);
    expect(server.sent).toEqual(["A-1"]);
    expect(existsSync(await logFile(f))).toBe(true);
    // The process's own SIGINT handling is back.
    expect(process.listenerCount("SIGINT")).toBe(0);
  });

  it("an auth error stops the job with exit 4 and the hint to rerun", async () => {
    const f = fakeDeps();
    const server = fakeServer();
    const e = await runJob(
      f,
      spec(
        server.send((k) => (k === "A-2" ? new AuthError("unauthorized (401)") : undefined)),
        { concurrency: 1 },
      ),
    );
    expect(exitCodeOf(e)).toBe(EXIT.auth);
    expect(e!.hint).toMatch(/rerun the same command to resume/);
    expect(server.sent).toEqual(["A-1", "A-2"]);
  });

  it("reports: per-row records on stdout with -o ndjson (rows known invalid first), --report FILE, ids with -q", async () => {
    const f = fakeDeps({ output: "ndjson" });
    const server = fakeServer();
    server.created.set("A-5", 7);
    const report = join(dir, "report.csv");
    const e = await runJob(
      f,
      spec(server.send(), {
        report,
        known: [{ row: 6, key: "BAD", status: "invalid", error: "vehicle_reg_number: is required" }],
      }),
    );
    expect(exitCodeOf(e)).toBe(EXIT.partial);
    const lines = f
      .stdout()
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toEqual({
      row: 6,
      identity: "BAD",
      status: "invalid",
      vehicle_id: null,
      error: "vehicle_reg_number: is required",
      images: null,
    });
    expect(lines.filter((l) => l.status === "created")).toHaveLength(4);
    expect(lines.find((l) => l.identity === "A-5")).toMatchObject({ status: "exists", vehicle_id: 7 });
    expect(readFileSync(report, "utf8").split("\n")[0]).toBe("row,identity,status,vehicle_id,error,images");
    expect(f.stderr()).toMatch(/created 4, exists 1, failed 0, invalid 1/);

    const q = fakeDeps({ quiet: true });
    const server2 = fakeServer();
    server2.created.set("A-1", 9);
    expect(await runJob(q, spec(server2.send()), { ...KEY, contentHash: "h2" })).toBeUndefined();
    expect(q.stdout().trim().split("\n").sort()).toEqual(["100", "101", "102", "103"]);
  });

  it("the job's verdict (e.g. apply's conflicts) is its exit error, said after the summary; the row log is kept", async () => {
    const f = fakeDeps();
    const said: string[] = [];
    const e = await runJob(
      f,
      spec(
        async (row) => (row.row === 2 ? { status: "conflict", error: "moved" } : { status: "created", id: row.row }),
        {
          after: (s) => said.push(`after: conflict ${s.counts.get("conflict")}`),
          verdict: (s) => (s.counts.get("conflict") ? new ConflictError("1 conflict") : undefined),
        },
      ),
    );
    expect(e).toBeInstanceOf(ConflictError);
    expect(said).toEqual(["after: conflict 1"]);
    expect(existsSync(await logFile(f))).toBe(true);
  });
});
