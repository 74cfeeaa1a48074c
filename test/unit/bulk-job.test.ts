import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { Chalk } from "chalk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApiValidationError, AuthError } from "../../src/api/errors.js";
import { ConflictError, EXIT, exitCodeOf, PartialFailureError, type RentctlError } from "../../src/base/errors.js";
import { type BulkJobRun, bulkJobKey, openBulkJob } from "../../src/bulk/job.js";
import { bootId, RowLog, readPrevious } from "../../src/bulk/row-log.js";
import type { BulkRow, TaskContext, TaskOutcome } from "../../src/bulk/runner.js";
import type { Deps } from "../../src/deps.js";
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

/** A clock that never really waits: `until` records the deadline, moves the time there, and runs `onWait`. */
function fakeClock(start: number, onWait: () => void = () => {}) {
  let t = start;
  const waits: number[] = [];
  return {
    waits,
    now: () => t,
    until: async (deadline: number) => {
      waits.push(deadline);
      t = Math.max(t, deadline);
      onWait();
    },
  };
}
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

async function runJob(
  f: Fake,
  s: BulkJobRun<string>,
  key: Parameters<typeof openBulkJob>[1] = KEY,
): Promise<RentctlError | undefined> {
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

  it("a row a killed run left in flight that the listing does not show: the rerun waits until that row's own deadline (injected clock), lists again, then reconciles it instead of sending it", async () => {
    const f = fakeDeps({ timeoutMs: 60_000 });
    // What a SIGKILL right after the write leaves: the row `sending`, the vehicle on the server.
    const log = await RowLog.open(dir, await bulkJobKey(f.deps, KEY));
    await log.write({ row: 2, key: "A-2", state: "sending" });
    log.started(2, "A-2");
    await log.write({ row: 3, key: "A-3", state: "sending" });
    log.started(3, "A-3");
    // row 4 was journaled ahead with its group, but its request never started: sent at once, not reconciled
    await log.write({ row: 4, key: "A-4", state: "sending" });
    await log.close();
    const at3 = readPrevious(readFileSync(await logFile(f), "utf8"), bootId()).get(3)!.at!;
    const server = fakeServer();
    // row 2's write landed before the rerun lists; row 3's is still on its way and lands during the wait
    server.created.set("A-2", 42);
    const clock = fakeClock(at3 + 50_000, () => server.created.set("A-3", 43));
    const seen: string[] = [];
    const e = await runJob(
      f,
      spec(server.send(), {
        beforeReconcile: async (inFlight) => {
          seen.push(`list ${inFlight.map((r) => r.row).join(",")}`);
        },
        reconcile: async (row) => {
          seen.push(`reconcile ${row.key}`);
          const id = server.created.get(row.item);
          return id === undefined ? undefined : { status: "created", id };
        },
      }),
      { ...KEY, clock },
    );
    expect(e).toBeUndefined();
    // listed first; row 2 done at once; row 3 waited for until its request's start + the bound (not now + the bound)
    expect(seen).toEqual(["list 2,3", "reconcile A-2", "reconcile A-3", "list 2,3", "reconcile A-3"]);
    expect(clock.waits).toEqual([at3 + 60_000]);
    expect(f.stderr()).toMatch(
      /row 3 \(A-3\) was in flight when the last run stopped and the account does not show it: waiting 10\.0 s/,
    );
    expect(server.sent.sort()).toEqual(["A-1", "A-4", "A-5"]);
    expect(f.stderr()).toMatch(/2 reconciled/);
  });

  it("rows a killed run left in flight that the listing shows are done at once: no wait at all (issue 41 item 9)", async () => {
    const f = fakeDeps({ timeoutMs: 60_000 });
    const log = await RowLog.open(dir, await bulkJobKey(f.deps, KEY));
    for (const row of [2, 3]) {
      await log.write({ row, key: `A-${row}`, state: "sending" });
      log.started(row, `A-${row}`);
    }
    await log.close();
    const server = fakeServer();
    server.created.set("A-2", 42);
    server.created.set("A-3", 43);
    const clock = fakeClock(Date.now());
    const e = await runJob(
      f,
      spec(server.send(), {
        reconcile: async (row) => {
          const id = server.created.get(row.item);
          return id === undefined ? undefined : { status: "created", id };
        },
      }),
      { ...KEY, clock },
    );
    expect(e).toBeUndefined();
    expect(clock.waits).toEqual([]);
    expect(f.stderr()).not.toMatch(/in flight when the last run stopped/);
    expect(server.sent.sort()).toEqual(["A-1", "A-4", "A-5"]);
    expect(f.stderr()).toMatch(/2 reconciled/);
  });

  it("a row whose deadline passed before the rerun listed is sent again without a wait (the listing is conclusive)", async () => {
    const f = fakeDeps({ timeoutMs: 1_000 });
    const log = await RowLog.open(dir, await bulkJobKey(f.deps, KEY));
    await log.write({ row: 2, key: "A-2", state: "sending" });
    log.started(2, "A-2");
    await log.close();
    const at = readPrevious(readFileSync(await logFile(f), "utf8"), bootId()).get(2)!.at!;
    const server = fakeServer();
    const clock = fakeClock(at + 5_000);
    const e = await runJob(
      f,
      spec(server.send(), {
        reconcile: async (row) => {
          const id = server.created.get(row.item);
          return id === undefined ? undefined : { status: "created", id };
        },
      }),
      { ...KEY, clock },
    );
    expect(e).toBeUndefined();
    expect(clock.waits).toEqual([]);
    expect(server.sent.sort()).toEqual(["A-1", "A-2", "A-3", "A-4", "A-5"]);
  });

  it("settle(pending) waits only for the rows it keeps, until the latest of their own deadlines, and says whether it waited", async () => {
    const f = fakeDeps({ timeoutMs: 60_000 });
    const log = await RowLog.open(dir, await bulkJobKey(f.deps, KEY));
    for (const row of [2, 3]) {
      await log.write({ row, key: `A-${row}`, state: "sending" });
      log.started(row, `A-${row}`);
    }
    await log.close();
    const prev = readPrevious(readFileSync(await logFile(f), "utf8"), bootId());
    const clock = fakeClock(prev.get(3)!.at! + 1_000);
    const job = await openBulkJob(f.deps, { ...KEY, clock });
    try {
      expect(await job.settle(() => false)).toBe(false);
      expect(clock.waits).toEqual([]);
      expect(await job.settle((r) => r.row === 3)).toBe(true);
      expect(clock.waits).toEqual([prev.get(3)!.at! + 60_000]);
      expect(f.stderr()).toMatch(/1 row was in flight when the last run stopped: waiting 59\.0 s/);
    } finally {
      await job.close();
    }
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
