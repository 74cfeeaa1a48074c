import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { NetworkError, ServerError } from "../../src/api/errors.js";
import { InputError } from "../../src/base/errors.js";
import { type BulkRow, bulkExitError, RowLog, runBulk, summaryLine } from "../../src/bulk/index.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), "bulk-"));
  dirs.push(d);
  return d;
};
async function* rowsOf(n: number): AsyncGenerator<BulkRow<number>> {
  for (let i = 1; i <= n; i++) yield { row: i, key: `R${i}`, item: i };
}
const KEY = { job: "test", env: "sandbox", baseUrl: "http://x", owner: 1, contentHash: "abc" };

describe("runBulk", () => {
  it("runs every row with at most `concurrency` in flight and counts statuses", async () => {
    let active = 0;
    let peak = 0;
    const s = await runBulk({
      rows: rowsOf(50),
      concurrency: 4,
      task: async (r, ctx) => {
        active++;
        peak = Math.max(peak, active);
        await new Promise((res) => setTimeout(res, 1));
        active--;
        if (r.item % 10 === 0) return { status: "exists", id: r.item };
        await ctx.beforeWrite();
        return { status: "created", id: r.item };
      },
    });
    expect(peak).toBe(4);
    expect(s.counts.get("created")).toBe(45);
    expect(s.counts.get("exists")).toBe(5);
    expect(summaryLine(s, ["created", "exists", "failed"])).toMatch(
      /^created 45, exists 5, failed 0 \(in \d+\.\d s\)$/,
    );
    expect(bulkExitError(s)).toBeUndefined();
  });

  it("journals rows; a rerun skips done rows, reconciles in-flight ones and retries failed ones", async () => {
    const dir = tmp();
    const j1 = await RowLog.open(dir, KEY);
    const s1 = await runBulk({
      rows: rowsOf(6),
      concurrency: 2,
      log: j1,
      task: async (r, ctx) => {
        await ctx.beforeWrite();
        if (r.item === 2) throw new InputError("rejected"); // a definite 4xx-like failure
        if (r.item === 3) throw new ServerError("500: may have happened");
        return { status: "created", id: 100 + r.item };
      },
    });
    await j1.close();
    expect(s1.failed.map((f) => f.row)).toEqual([2, 3]);
    expect(bulkExitError(s1)?.exitCode).toBe(7);

    const j2 = await RowLog.open(dir, KEY);
    expect(j2.resumed).toBe(true);
    const sent: number[] = [];
    const reconciled: number[] = [];
    const s2 = await runBulk({
      rows: rowsOf(6),
      concurrency: 2,
      log: j2,
      reconcile: async (r) => {
        reconciled.push(r.row);
        return { status: "created", id: 999 }; // row 3's create did happen
      },
      task: async (r, ctx) => {
        sent.push(r.row);
        await ctx.beforeWrite();
        return { status: "created", id: 200 + r.item };
      },
    });
    await j2.finish();
    expect(sent).toEqual([2]);
    expect(reconciled).toEqual([3]);
    expect(s2.fromRowLog).toBe(4);
    expect(s2.reconciled).toBe(1);
    expect(s2.counts.get("created")).toBe(6);
    expect(summaryLine(s2, ["created"])).toContain("resumed");
    // finished: a third run starts afresh
    expect((await RowLog.open(dir, KEY)).resumed).toBe(false);
  });

  it("a different content hash is a different journal; restart ignores the old one", async () => {
    const dir = tmp();
    const j = await RowLog.open(dir, KEY);
    await j.write({ row: 1, key: "R1", state: "sending" });
    await j.close();
    expect((await RowLog.open(dir, { ...KEY, contentHash: "other" })).resumed).toBe(false);
    expect((await RowLog.open(dir, KEY, { restart: true })).resumed).toBe(false);
  });

  it("network errors in a row stop the run (exit 6); stop() stops taking rows (130)", async () => {
    const s = await runBulk({
      rows: rowsOf(100),
      concurrency: 1,
      task: async (_r, ctx) => {
        await ctx.beforeWrite();
        throw new NetworkError("connection reset");
      },
    });
    expect(s.failed.length).toBe(3);
    expect(s.failed[0]!.error).toMatch(/outcome unknown/);
    expect(bulkExitError(s)?.exitCode).toBe(6);

    let stopped = false;
    const control = {
      get stopped() {
        return stopped;
      },
      signal: new AbortController().signal,
    };
    const s2 = await runBulk({
      rows: rowsOf(100),
      concurrency: 2,
      control,
      task: async (r) => {
        if (r.row === 5) stopped = true;
        return { status: "created" };
      },
    });
    expect(s2.interrupted).toBe(true);
    expect(s2.counts.get("created")).toBeLessThan(100);
    expect(bulkExitError(s2)?.exitCode).toBe(130);
  });
  it("journals likely writes a group at a time before they start; rows never started are not left in flight", async () => {
    const dir = tmp();
    const j = await RowLog.open(dir, KEY);
    let stopped = false;
    const control = {
      get stopped() {
        return stopped;
      },
      signal: new AbortController().signal,
    };
    const s = await runBulk({
      rows: rowsOf(40),
      concurrency: 4,
      log: j,
      control,
      willWrite: (r) => r.item % 5 !== 0,
      task: async (r, ctx) => {
        if (r.item === 10) stopped = true;
        if (r.item % 5 === 0) return { status: "exists", id: r.item };
        await ctx.beforeWrite();
        return { status: "created", id: r.item };
      },
    });
    await j.close();
    const again = await RowLog.open(dir, KEY);
    // every row that ran is done; rows marked but not started are `failed` (a rerun runs them); none in flight
    expect(again.inFlight()).toEqual([]);
    const done = [...again.previous.values()].filter((r) => r.state === "done");
    expect(done.length).toBe((s.counts.get("created") ?? 0) + (s.counts.get("exists") ?? 0));
    expect(
      [...again.previous.values()].filter((r) => r.state === "failed").every((r) => r.error === "not started"),
    ).toBe(true);
  });

  it("reads and journals the next group while the current one is sent: every row runs exactly once, whatever the count", async () => {
    for (const n of [1, 3, 16, 17, 63, 64, 65, 200]) {
      const dir = tmp();
      const j = await RowLog.open(dir, KEY);
      // a slow disk: each durable write takes a while, so reading runs ahead of it
      const write = j.write.bind(j);
      j.write = async (rec) => {
        await new Promise((res) => setTimeout(res, 2));
        return write(rec);
      };
      const ran: number[] = [];
      const s = await runBulk({
        rows: rowsOf(n),
        concurrency: 4,
        log: j,
        willWrite: () => true,
        task: async (r, ctx) => {
          await ctx.beforeWrite();
          ran.push(r.item);
          await new Promise((res) => setImmediate(res));
          return { status: "created", id: r.item };
        },
      });
      await j.close();
      expect(
        [...ran].sort((a, b) => a - b),
        `${n} rows`,
      ).toEqual(Array.from({ length: n }, (_, i) => i + 1));
      expect(s.counts.get("created"), `${n} rows`).toBe(n);
      const again = await RowLog.open(dir, KEY);
      expect(again.inFlight(), `${n} rows`).toEqual([]);
      await again.close();
    }
  });

  it("a failure reading the rows ends the run with that error, after the rows in flight finish", async () => {
    async function* broken(): AsyncGenerator<BulkRow<number>> {
      for (let i = 1; i <= 30; i++) yield { row: i, key: `R${i}`, item: i };
      throw new Error("disk read failed");
    }
    const ran: number[] = [];
    await expect(
      runBulk({
        rows: broken(),
        concurrency: 4,
        task: async (r) => {
          ran.push(r.item);
          return { status: "created", id: r.item };
        },
      }),
    ).rejects.toThrow("disk read failed");
    expect(ran.length).toBeLessThanOrEqual(30);
    expect(new Set(ran).size).toBe(ran.length);
  });

  it("journal: outcome notes wait for company, and a durable write after them is never stuck", async () => {
    const dir = tmp();
    const j = await RowLog.open(dir, KEY);
    const bounded = <T>(p: Promise<T>) =>
      Promise.race([p, new Promise<never>((_, rej) => setTimeout(() => rej(new Error("journal write stuck")), 2_000))]);
    // a note made while a durable write is on its way starts its short timer; the flush under way
    // takes the note too, so the timer then finds nothing to do
    const durable = j.write({ row: 2, key: "R2", state: "sending" });
    j.note({ row: 1, key: "R1", state: "done", status: "created", id: 1 });
    await bounded(durable);
    j.started(2, "R2");
    await new Promise((r) => setTimeout(r, 60));
    await bounded(j.write({ row: 3, key: "R3", state: "sending" }));
    j.note({ row: 3, key: "R3", state: "done", status: "created", id: 3 });
    await bounded(j.close());
    const again = await RowLog.open(dir, KEY);
    expect([...again.previous.values()].map((r) => [r.row, r.state]).sort()).toEqual([
      [1, "done"],
      [2, "sending"],
      [3, "done"],
    ]);
    await again.close();
  });

  it("a row journaled ahead that waits past MARK_FRESH_MS for its slot is journaled again before it is sent", async () => {
    const { MARK_FRESH_MS, settleDeadline } = await import("../../src/bulk/runner.js");
    const dir = tmp();
    const j = await RowLog.open(dir, KEY);
    const sending: Array<{ row: number; at: number }> = [];
    const write = j.write.bind(j);
    j.write = (rec) => {
      if (rec.state === "sending") sending.push({ row: rec.row, at: Date.now() });
      return write(rec);
    };
    const started = new Map<number, number>();
    await runBulk({
      rows: rowsOf(3),
      concurrency: 1,
      log: j,
      willWrite: () => true,
      task: async (r, ctx) => {
        await ctx.beforeWrite();
        started.set(r.item, Date.now());
        // row 1 is slow: rows 2 and 3, journaled with it, wait for the one slot
        if (r.item === 1) await new Promise((res) => setTimeout(res, MARK_FRESH_MS + 200));
        return { status: "created", id: r.item };
      },
    });
    await j.close();
    for (const row of [1, 2, 3]) {
      const lines = sending.filter((s) => s.row === row);
      const latest = Math.max(...lines.map((l) => l.at));
      // the request started within MARK_FRESH_MS of its latest `sending` line
      expect(started.get(row)! - latest, `row ${row}`).toBeLessThanOrEqual(MARK_FRESH_MS);
    }
    expect(sending.filter((s) => s.row === 2).length).toBe(2);
    // and a rerun's wait covers a request started that late
    const at = 1_000_000;
    expect(settleDeadline([{ row: 2, key: "R2", state: "sending", at }], 2_000)).toBe(at + MARK_FRESH_MS + 2_000);
    expect(settleDeadline([{ row: 2, key: "R2", state: "unknown", at, answered: true }], 2_000)).toBe(0);
  });
});

describe("journal lines", () => {
  it("are the JSON of the record's fields (absent ones left out) and the time", async () => {
    const { lineOf } = await import("../../src/bulk/row-log.js");
    const recs: Array<Parameters<typeof lineOf>[0]> = [
      { row: 1, key: "KL-1", state: "sending" },
      { row: 2, key: 'quote " and \\ back\nslash ü', state: "done", status: "created", id: 42 },
      { row: 3, key: "", state: "unknown", error: "lost (timed out)", answered: true },
      { row: 4, key: "K", state: "failed", error: "bad", answered: false },
    ];
    for (const rec of recs) {
      const line = lineOf(rec, 1700000000000);
      expect(JSON.parse(line)).toEqual({ ...rec, at: 1700000000000 });
      expect(line).toBe(JSON.stringify({ ...rec, at: 1700000000000 }));
    }
  });
});

describe("start notes (a rerun settles only rows whose request started)", () => {
  const head = (boot: string | undefined) => JSON.stringify({ journal: 1, job: "t", boot });
  const line = (o: object) => JSON.stringify(o);

  it("under the same boot, a row journaled `sending` without a start note was never sent: it reverts to its state before", async () => {
    const { readPrevious } = await import("../../src/bulk/row-log.js");
    const text = [
      head("B1"),
      line({ row: 1, key: "A", state: "sending", at: 10 }),
      line({ row: 1, key: "A", state: "started", at: 11 }),
      line({ row: 2, key: "B", state: "sending", at: 12 }),
      line({ row: 3, key: "C", state: "unknown", error: "lost", at: 5 }),
      JSON.stringify({ run: "later", boot: "B1" }),
      line({ row: 3, key: "C", state: "sending", at: 20 }),
      line({ row: 3, key: "C", state: "sending", at: 25 }),
    ].join("\n");
    const prev = readPrevious(text, "B1");
    expect(prev.get(1)).toMatchObject({ state: "sending", started: true, at: 11 });
    expect(prev.has(2)).toBe(false); // never started, never journaled before: a plain new row
    expect(prev.get(3)).toMatchObject({ state: "unknown", at: 5 }); // the unknown outcome of the earlier run stays
  });

  it("after a reboot (another boot id) or without one, every `sending` row counts as in flight", async () => {
    const { readPrevious } = await import("../../src/bulk/row-log.js");
    const text = [head("B1"), line({ row: 2, key: "B", state: "sending", at: 12 })].join("\n");
    expect(readPrevious(text, "B2").get(2)).toMatchObject({ state: "sending" });
    expect(readPrevious(text, undefined).get(2)).toMatchObject({ state: "sending" });
    expect(
      readPrevious([head(undefined), line({ row: 2, key: "B", state: "sending" })].join("\n"), undefined).get(2),
    ).toBeDefined();
  });

  it("the settle deadline of a started row is its start plus the timeout (no allowance for a line written ahead)", async () => {
    const { MARK_FRESH_MS, settleDeadline } = await import("../../src/bulk/runner.js");
    expect(settleDeadline([{ row: 1, key: "A", state: "sending", at: 1000, started: true }], 2_000)).toBe(3000);
    expect(settleDeadline([{ row: 1, key: "A", state: "sending", at: 1000 }], 2_000)).toBe(3000 + MARK_FRESH_MS);
  });

  it("the runner writes the start note after the durable `sending` line, before the request", async () => {
    const dir = tmp();
    const log = await RowLog.open(dir, KEY);
    const order: string[] = [];
    const write = log.write.bind(log);
    log.write = async (rec) => {
      await write(rec);
      order.push(rec.state);
    };
    const started = log.started.bind(log);
    log.started = (row, key) => {
      started(row, key);
      order.push("started");
    };
    await runBulk({
      rows: (async function* () {
        yield { row: 1, key: "R1", item: 1 };
      })(),
      concurrency: 1,
      log,
      task: async (_r, ctx) => {
        await ctx.beforeWrite();
        order.push("request");
        return { status: "created", id: 1 };
      },
    });
    await log.close();
    expect(order).toEqual(["sending", "started", "request"]);
    const { readFileSync } = await import("node:fs");
    expect(readFileSync(log.file, "utf8")).toMatch(/"state":"started"/);
  });
});

describe("a failure no later request can get past", () => {
  it("stops the run at the first such error (stoppedBy, its exit code), as a 401 does, instead of failing row after row", async () => {
    const { RentctlError } = await import("../../src/base/errors.js");
    const lost = new RentctlError("the sandbox data file is in use by a running `rentctl sandbox serve`");
    lost.stopsRun = true;
    const ran: number[] = [];
    const summary = await runBulk({
      rows: (async function* () {
        for (let i = 1; i <= 50; i++) yield { row: i, key: `R${i}`, item: i };
      })(),
      concurrency: 1,
      task: async (r) => {
        ran.push(r.item);
        if (r.item >= 3) throw lost;
        return { status: "created", id: r.item };
      },
    });
    expect(summary.stoppedBy).toBe(lost);
    expect(ran).toEqual([1, 2, 3]);
    expect(bulkExitError(summary)).toBe(lost);
  });
});

describe("a row the server refused (4xx)", () => {
  it("keeps the server's field details in the row's error; the exit hint tells a 4xx from what a rerun can fix", async () => {
    const { ApiValidationError } = await import("../../src/api/errors.js");
    const refused = new ApiValidationError("request rejected (400): validation error", {
      details: [{ field: "price_per_day", message: "must be at most 100000" }],
    });
    refused.status = 400;
    const summary = await runBulk({
      rows: (async function* () {
        for (let i = 1; i <= 3; i++) yield { row: i, key: `R${i}`, item: i };
      })(),
      concurrency: 1,
      task: async (r) => {
        if (r.item === 2) throw refused;
        if (r.item === 3) throw new ServerError("server error (503)");
        return { status: "created", id: r.item };
      },
    });
    const byRow = new Map(summary.failed.map((f) => [f.row, f]));
    expect(byRow.get(2)).toMatchObject({
      error: "request rejected (400): validation error: price_per_day: must be at most 100000",
      retry: false,
    });
    expect(byRow.get(3)?.retry).toBe(true);
    expect(bulkExitError(summary)?.hint).toMatch(
      /rerun the same command to retry the 1 row that met network or server trouble; fix the 1 row the server refused first/,
    );
    const onlyRefused = { ...summary, failed: summary.failed.filter((f) => f.row === 2) };
    expect(bulkExitError(onlyRefused)?.hint).toMatch(/^the server refused them/);
    expect(bulkExitError(onlyRefused)?.hint).not.toMatch(/rerun the same command/);
  });
});
