import { Cancel, type CancelSignal } from "../api/cancel.js";
import { ApiError, AuthError, MalformedResponseError, NetworkError, ServerError } from "../api/errors.js";
import { checkConcurrency } from "../base/concurrency.js";
import { RentctlError } from "../base/errors.js";
import type { RowLog, RowRecord } from "./row-log.js";

/** One unit of work: a numbered row of the input, its identity and its payload. */
export interface BulkRow<T> {
  /** 1-based position in the input; the row log's key of the row. */
  row: number;
  /** Identity shown in reports (e.g. the registration number). */
  key: string;
  item: T;
}

/** What a row came to. `status` is the job's word (created, exists, changed, ...); `failed` is the runner's. */
export interface TaskOutcome {
  status: string;
  id?: number;
  error?: string;
}

export interface RowResult extends TaskOutcome {
  row: number;
  key: string;
  /** A failed row that a rerun may fix (network, 5xx, unknown outcome); false: the input must change first (4xx). */
  retry?: boolean;
  /**
   * Set when the outcome comes from an earlier run (its row log) or from
   * reconciliation, or (`resent`) when the row was in flight in a stopped run,
   * not found by reconcile, and sent again: that run's write may still land.
   */
  via?: "row-log" | "reconciled" | "resent";
  /** Image ids uploaded for the row (this run or, reused, an earlier one): listed when its write failed. */
  images?: number[];
  /** The row is an extra's (account apply): reports name its id `extra_id`, not `vehicle_id`. */
  extra?: boolean;
}

export interface TaskContext {
  /** Aborted on a second Ctrl-C: pass it to requests. */
  signal: CancelSignal;
  /**
   * Call (and await) right before the request that may change the server:
   * the row is logged `sending`, so a crash from here on is reconciled
   * on the rerun instead of sent again. Everything before it must be safe
   * to repeat (reads, uploads).
   */
  beforeWrite(): Promise<void>;
  /**
   * Upload the row's image files once: an earlier run of this job that
   * uploaded the same files for this row (and then failed) gives its ids
   * back; else `upload` runs and its ids are logged before the write.
   */
  uploadOnce(files: string[], upload: (files: string[]) => Promise<number[]>): Promise<number[]>;
}

export interface BulkJob<T> {
  rows: AsyncIterable<BulkRow<T>>;
  /** Number of rows, for the progress bar. */
  total?: number;
  /** Rows in flight at once (1..16). */
  concurrency: number;
  task(row: BulkRow<T>, ctx: TaskContext): Promise<TaskOutcome>;
  /** Crash safety; without a row log (dry run) nothing is recorded. */
  log?: RowLog;
  /**
   * A row an earlier run left `sending` or `unknown` (its request may have
   * reached the server): return the outcome when the write did take effect
   * (it is then done), undefined when it did not (the task runs again).
   */
  reconcile?(row: BulkRow<T>, prior: RowRecord): Promise<TaskOutcome | undefined>;
  /**
   * Called once before any row when the journal holds in-flight rows, so the
   * job can refresh what `reconcile` looks at (e.g. wait until requests of the
   * killed run can no longer land, then list the account again).
   */
  beforeReconcile?(inFlight: RowRecord[]): Promise<void>;
  /** Every row's result, as it is known (stream it to reports). */
  onResult?(result: RowResult, row: BulkRow<T>): void | Promise<void>;
  /** Ctrl-C: `stop` stops taking new rows; `abandon` (second Ctrl-C) aborts in-flight requests. */
  control?: BulkControl;
  /**
   * Whether a row will probably write (import: its identity is not in the
   * account). Such rows are logged `sending` in groups before they start
   * (one fsync for up to `concurrency` rows instead of one each); a row
   * marked but never sent is harmless: the rerun finds nothing and sends it.
   */
  willWrite?(row: BulkRow<T>): boolean;
  /** Consecutive network failures that stop the run (default 3). */
  maxNetworkErrors?: number;
  /**
   * false: a row an earlier run finished is run again (its rows are planned from the account as it is
   * now, so a planned row is never done: the account moved since, e.g. an undo). Default true.
   */
  skipDone?: boolean;
}

export interface BulkControl {
  readonly stopped: boolean;
  readonly signal: AbortSignal;
}

export interface BulkSummary {
  /** Rows per status, in the order first seen. */
  counts: Map<string, number>;
  failed: RowResult[];
  /** Rows whose outcome an earlier run had recorded. */
  fromRowLog: number;
  /** Rows reconciled against the server after an interrupted run. */
  reconciled: number;
  resumed: boolean;
  /** The earlier run was not interrupted: it got through every row and some failed. */
  earlierEnded?: boolean;
  interrupted: boolean;
  /** The error that stopped the run (auth, network): its exit code wins. */
  stoppedBy?: RentctlError;
  elapsedMs: number;
}

/** Whether a failed write may have taken effect on the server. */
export function outcomeUnknown(err: unknown): boolean {
  if (err instanceof NetworkError || err instanceof ServerError || err instanceof MalformedResponseError) return true;
  if (err instanceof ApiError) return err.status === undefined || err.status >= 500 || err.status === 408;
  return !(err instanceof RentctlError);
}

/** A row's error as the report keeps it: the message and the server's field details (what to change). */
function message(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const details = err instanceof RentctlError ? err.details : [];
  return details.length
    ? `${err.message}: ${details.map((d) => (d.field ? `${d.field}: ${d.message}` : d.message)).join("; ")}`
    : err.message;
}

/** Whether sending the same row again may succeed (network, timeout, 5xx, a lost answer), unlike a 4xx refusal. */
export function retryable(err: unknown): boolean {
  if (outcomeUnknown(err) || err instanceof NetworkError) return true;
  return err instanceof ApiError && (err.status === 408 || err.status === 429);
}

/**
 * A `sending` line is at most this old when its request starts: a row
 * logged ahead with its group and still waiting for a slot after this long
 * is logged again just before it is sent.
 */
export const MARK_FRESH_MS = 1_000;

/**
 * When every request of a stopped run has ended (answered, failed or timed
 * out): the latest `sending` line of the rows it left in flight, plus the
 * time a line may precede its request, plus the bound on a request. A rerun
 * waits until then before it looks at the account, so a late write of the
 * stopped run is found instead of being sent again.
 */
export function settleDeadline(inFlight: readonly RowRecord[], timeoutMs: number): number {
  let last = 0;
  for (const r of inFlight) last = Math.max(last, rowDeadline(r, timeoutMs));
  return last;
}

/** When one row's request of a stopped run can no longer land (0: it was answered). */
export function rowDeadline(r: RowRecord, timeoutMs: number): number {
  if (r.answered) return 0;
  // a trusted start note is the request's own start; a `sending` line may precede it by MARK_FRESH_MS
  return (r.at ?? 0) + timeoutMs + (r.started ? 0 : MARK_FRESH_MS);
}

/**
 * Wait until settleDeadline, saying why (the rerun of a stopped import or
 * apply, before it looks at the account); true when it waited. `clock`: the
 * time and the wait (tests inject one that needs no real waiting).
 */
export async function settleInFlight(
  inFlight: readonly RowRecord[],
  timeoutMs: number,
  say: (message: string) => void,
  clock: { now(): number; until(deadline: number): Promise<void> } = {
    now: Date.now,
    until: (d) => new Promise((r) => setTimeout(r, d - Date.now())),
  },
): Promise<boolean> {
  const deadline = settleDeadline(inFlight, timeoutMs);
  const wait = deadline - clock.now();
  if (wait <= 0) return false;
  const n = inFlight.filter((r) => !r.answered).length;
  say(
    `${n} row${n === 1 ? " was" : "s were"} in flight when the last run stopped: waiting ${(wait / 1000).toFixed(1)} s for them to settle before reading the account`,
  );
  await clock.until(deadline);
  return true;
}

/**
 * Run a job: rows flow from `job.rows` (pulled only as slots free up, so a
 * streamed input stays streamed) into at most `concurrency` tasks. Returns
 * the summary; never throws for a row's failure (see bulkExitError).
 */
export async function runBulk<T>(job: BulkJob<T>): Promise<BulkSummary> {
  const started = Date.now();
  const concurrency = checkConcurrency(job.concurrency);
  const counts = new Map<string, number>();
  const failed: RowResult[] = [];
  const summary: BulkSummary = {
    counts,
    failed,
    fromRowLog: 0,
    reconciled: 0,
    resumed: Boolean(job.log?.resumed),
    interrupted: false,
    elapsedMs: 0,
  };
  const neverAbort = new AbortController().signal;
  const signal = job.control?.signal ?? neverAbort;
  // Each row gets its own short-lived signal (a long-lived one composed into
  // every request's AbortSignal.any would keep them all alive); abandoning
  // aborts the rows in flight.
  const rowAborts = new Set<Cancel>();
  signal.addEventListener("abort", () => {
    for (const ac of rowAborts) ac.abort();
  });
  let networkStreak = 0;
  const maxNet = job.maxNetworkErrors ?? 3;
  let stop = false;

  const emit = async (r: RowResult, row: BulkRow<T>) => {
    counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
    if (r.status === "failed") failed.push(r);
    await job.onResult?.(r, row);
  };

  /** Rows logged `sending` ahead with their group, and when (their lines' times are at least this). */
  const premarked = new Map<number, number>();
  const runOne = async (row: BulkRow<T>): Promise<void> => {
    const prior = job.log?.previous.get(row.row);
    if (prior?.state === "done" && job.skipDone !== false) {
      summary.fromRowLog++;
      return emit({ row: row.row, key: row.key, status: prior.status ?? "done", id: prior.id, via: "row-log" }, row);
    }
    let resent = false;
    if (prior && (prior.state === "sending" || prior.state === "unknown") && job.reconcile) {
      const found = await job.reconcile(row, prior);
      if (found) {
        summary.reconciled++;
        job.log?.note({ row: row.row, key: row.key, state: "done", status: found.status, id: found.id });
        return emit({ ...found, row: row.row, key: row.key, via: "reconciled" }, row);
      }
      resent = !prior.answered;
    }
    let wrote = false;
    const rowAbort = new Cancel();
    rowAborts.add(rowAbort);
    let images: number[] | undefined;
    const ctx: TaskContext = {
      signal: rowAbort,
      uploadOnce: async (files, upload) => {
        const earlier = job.log?.previousUploads.get(row.row);
        if (earlier && sameList(earlier.files, files)) {
          images = earlier.ids;
          return [...earlier.ids];
        }
        const ids = await upload(files);
        images = ids;
        await job.log?.uploaded(row.row, row.key, { files, ids });
        return ids;
      },
      beforeWrite: async () => {
        wrote = true;
        // A premarked row that waited long for its slot is marked again: its
        // line's time must stay within MARK_FRESH_MS of the request it covers
        // (settleDeadline relies on it).
        const markedAt = premarked.get(row.row);
        if (markedAt === undefined || Date.now() - markedAt > MARK_FRESH_MS)
          await job.log?.write({ row: row.row, key: row.key, state: "sending" });
        job.log?.started(row.row, row.key);
      },
    };
    try {
      return await attempt(
        row,
        ctx,
        () => wrote,
        resent,
        () => images,
      );
    } finally {
      rowAborts.delete(rowAbort);
      premarked.delete(row.row);
    }
  };

  const attempt = async (
    row: BulkRow<T>,
    ctx: TaskContext,
    wroteNow: () => boolean,
    resent: boolean,
    uploaded: () => number[] | undefined,
  ): Promise<void> => {
    try {
      const outcome = await job.task(row, ctx);
      const wrote = wroteNow();
      networkStreak = 0;
      // Not awaited: a lost `done` line only means the row is reconciled on a rerun.
      if (wrote || outcome.id !== undefined || premarked.has(row.row))
        job.log?.note({
          row: row.row,
          key: row.key,
          state: "done",
          status: outcome.status,
          id: outcome.id,
        });
      const images = uploaded();
      return emit(
        {
          ...outcome,
          row: row.row,
          key: row.key,
          ...(resent && wrote ? { via: "resent" as const } : {}),
          ...(images?.length ? { images } : {}),
        },
        row,
      );
    } catch (err) {
      const wrote = wroteNow();
      if (err instanceof AuthError || (err instanceof RentctlError && err.stopsRun)) {
        summary.stoppedBy ??= err;
        stop = true;
      } else if (err instanceof NetworkError && !signal.aborted) {
        networkStreak++;
        if (networkStreak >= maxNet) {
          summary.stoppedBy ??= err;
          stop = true;
        }
      } else if (!(err instanceof RentctlError) && !signal.aborted) {
        throw err;
      }
      const unknown = wrote && (signal.aborted || outcomeUnknown(err));
      const images = uploaded();
      // Images the server holds for a vehicle that was not created: named, so they are not lost (a rerun reuses them).
      const kept = images?.length
        ? `; images uploaded: ${images.join(", ")} (a rerun of this command reuses them; after editing the file, give them as vehicle_images instead of the files)`
        : "";
      const error = signal.aborted
        ? `abandoned while in flight (a rerun reconciles it)${kept}`
        : `${message(err)}${unknown ? " (outcome unknown: a rerun reconciles it)" : ""}${kept}`;
      if (wrote || premarked.has(row.row))
        await job.log?.write({
          row: row.row,
          key: row.key,
          state: unknown ? "unknown" : "failed",
          error,
          ...(unknown && err instanceof ApiError && err.status !== undefined && !(err instanceof NetworkError)
            ? { answered: true }
            : {}),
        });
      return emit(
        {
          row: row.row,
          key: row.key,
          status: "failed",
          error,
          retry: signal.aborted || retryable(err),
          ...(images?.length ? { images } : {}),
        },
        row,
      );
    }
  };

  const inFlight = job.log?.inFlight() ?? [];
  if (inFlight.length && job.reconcile) await job.beforeReconcile?.(inFlight);

  const active = new Set<Promise<void>>();
  let crash: unknown;
  const iterator = job.rows[Symbol.asyncIterator]();
  const queue: BulkRow<T>[] = [];
  let exhausted = false;
  // Rows are read and logged `sending` a group at a time (one fsync for
  // the group), the next group as soon as the queue holds no more than one
  // group, so no slot waits for the disk. A row marked but never started is
  // noted `failed: not started` at the end; one that a crash leaves marked is
  // reconciled by the rerun like any row in flight.
  const group = Math.min(64, concurrency * 8);
  let refilling: Promise<void> | undefined;
  let refillError: { error: unknown } | undefined;
  const refill = (): Promise<void> => {
    refilling ??= (async () => {
      const fresh: BulkRow<T>[] = [];
      let done = false;
      while (fresh.length < group) {
        const n = await iterator.next();
        if (n.done) {
          done = true;
          break;
        }
        fresh.push(n.value);
      }
      const log = job.log;
      if (log && job.willWrite) {
        const mark = fresh.filter((r) => !log.previous.has(r.row) && job.willWrite!(r));
        const at = Date.now();
        for (const r of mark) premarked.set(r.row, at);
        await Promise.all(mark.map((r) => log.write({ row: r.row, key: r.key, state: "sending" })));
      }
      // only now: a row read but not yet queued must not look like the end
      queue.push(...fresh);
      exhausted = done;
    })()
      .catch((error: unknown) => {
        refillError ??= { error };
      })
      .finally(() => {
        refilling = undefined;
      });
    return refilling;
  };
  const nextRow = async (): Promise<BulkRow<T> | undefined> => {
    while (queue.length === 0 && !exhausted && !refillError) await refill();
    if (refillError) throw refillError.error;
    if (queue.length <= group && !exhausted) void refill();
    return queue.shift();
  };
  try {
    while (true) {
      if (stop || job.control?.stopped || crash !== undefined) break;
      if (active.size >= concurrency) {
        await Promise.race(active);
        continue;
      }
      const next = await nextRow();
      if (!next) break;
      const p: Promise<void> = runOne(next)
        .catch((e: unknown) => {
          crash ??= e;
          stop = true;
        })
        .finally(() => active.delete(p));
      active.add(p);
    }
  } finally {
    await Promise.allSettled(active);
    await refilling;
    // Rows marked but never started: not sent, so a rerun simply runs them.
    for (const r of queue)
      if (premarked.has(r.row)) job.log?.note({ row: r.row, key: r.key, state: "failed", error: "not started" });
    await iterator.return?.();
  }
  if (crash !== undefined) throw crash;
  summary.interrupted = Boolean(job.control?.stopped);
  summary.elapsedMs = Date.now() - started;
  return summary;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
