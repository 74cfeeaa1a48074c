import { readFile } from "node:fs/promises";
import type { Writable } from "node:stream";
import { RentctlError } from "../base/errors.js";
import { lock } from "../base/lock.js";
import { requireUser } from "../config/target.js";
import type { Identity } from "../contract/identity.js";
import type { Deps } from "../deps.js";
import { formatFor } from "../files/format.js";
import { checkTargetDir } from "../files/write.js";
import { removeDuplicate } from "../gateway/vehicles.js";
import { Interrupter, interruptOnCtrlC } from "./control.js";
import { CreatedSet, removeDuplicates } from "./identity-check.js";
import { createProgress } from "./progress.js";
import {
  bulkExitError,
  type ReportColumns,
  type ReportSink,
  reportToFile,
  reportToStream,
  summaryLine,
} from "./report.js";
import { bootId, inFlightOf, RowLog, type RowLogKey, type RowRecord, readPrevious } from "./row-log.js";
import {
  type BulkRow,
  type BulkSummary,
  type RowResult,
  rowDeadline,
  runBulk,
  settleInFlight,
  type TaskContext,
  type TaskOutcome,
} from "./runner.js";

/**
 * THE bulk job: the one shell every command that writes many rows runs in
 * (`vehicle import`, `vehicle apply`, the changes to many vehicles, undo of
 * an apply). It owns the row log (key, resume detection and its notice,
 * finish or keep), the settle wait for rows a stopped run left in flight,
 * progress, Ctrl-C, the per-row report (stdout with -o, --report FILE, ids
 * with -q), the summary line and the exit code. A job supplies only its rows,
 * how to send one row (reads first, then `ctx.beforeWrite()` handed to the
 * gateway, which calls it right before the one write), and how to reconcile
 * a row a stopped run left in flight.
 *
 *     const job = await openBulkJob(deps, { job: "vehicle.import", contentHash, restart, what: "import of f.csv" });
 *     try {
 *       ... read and check the input; plan ...
 *       await job.run({ rows, total, send, reconcile, ... });   // throws the exit error, if any
 *     } finally {
 *       await job.close();
 *     }
 */

/**
 * The time and the waits of a bulk job (the settle wait for a stopped run's
 * requests): real by default; a test injects one that needs no real waiting.
 */
export interface BulkClock {
  now(): number;
  /** Resolves once `now()` has reached `deadline`. */
  until(deadline: number): Promise<void>;
}

export const systemClock: BulkClock = {
  now: () => Date.now(),
  until: (deadline) => new Promise((r) => setTimeout(r, Math.max(0, deadline - Date.now()))),
};

export interface BulkJobKey {
  /** The job's name in the row log key (`vehicle.import`, `vehicle.apply`, `vehicle.edit`, `undo.apply`, ...). */
  job: string;
  /** What makes two runs the same job (the file's hash and options, the intent as written, ...). */
  contentHash: string;
  /** --restart: forget the row log of an interrupted run. */
  restart?: boolean;
  /** For the resume notice: `resuming an interrupted <what>`. */
  what: string;
  /** What --restart does, in the notice (default "start afresh"). */
  afresh?: string;
  /** --report FILE: checked here, before anything is planned, recorded or sent. */
  report?: string;
  /** The clock of the settle waits (default: the system's). */
  clock?: BulkClock;
  /** The longest wait for another run of the same job (default: the lock's; --no-wait: 0). */
  lockWaitMs?: number;
}

export interface BulkJobRun<T> {
  rows: AsyncIterable<BulkRow<T>>;
  total: number;
  /** Rows in flight at once (--concurrency, 1..16). */
  concurrency: number;
  /** Progress bar label (`importing`). */
  label: string;
  /** The line that names the target before anything is sent (`importing 300 vehicles from f.csv`). */
  acting: string;
  /** Order of the counts in the summary line. */
  order: readonly string[];
  /** Statuses whose vehicle id is printed with -q. */
  quietIds: readonly string[];
  /** --report FILE. */
  report?: string;
  /** Per-row results on stdout with a structured -o (default true). */
  stdoutReport?: boolean;
  /**
   * Report the rows (stdout, --report, -q ids) in file order, `known` rows among them by row
   * number, rather than as they finish: a result that comes early waits (only) for the rows
   * before it that are still in flight. Progress callbacks still hear each row as it finishes.
   */
  inFileOrder?: boolean;
  /** The report's columns (default REPORT_COLUMNS; account apply's rows add extra_id). */
  reportColumns?: ReportColumns;
  /** Results known before any row is sent (rows found invalid, skipped with --skip-invalid): reported first, counted as failed. */
  known?: RowResult[];
  /**
   * What a rerun's identity check did before the rows were planned (copies a stopped run created, removed):
   * reported first, counted under their status (`deduplicated`; `failed` fails the run as a row does).
   */
  converged?: RowResult[];
  /** Send one row; call `ctx.beforeWrite` (or hand it to the gateway) right before the one write. */
  send(row: BulkRow<T>, ctx: TaskContext): Promise<TaskOutcome>;
  /** A row a stopped run left in flight: its outcome if the write took effect, undefined to send it again. */
  reconcile?(row: BulkRow<T>, prior: RowRecord): Promise<TaskOutcome | undefined>;
  /** After the settle wait and before any row is reconciled: refresh what `reconcile` reads. */
  beforeReconcile?(inFlight: RowRecord[]): Promise<void>;
  /** Whether a row will probably write (logged ahead in groups; see BulkJob.willWrite). */
  willWrite?(row: BulkRow<T>): boolean;
  /** How a result is shown in reports (e.g. removals, which are no rows of the file). */
  shown?(r: RowResult): RowResult;
  /** When the command started (the summary's time; default: when the rows started). */
  startedAt?: number;
  /** Rows an earlier run finished that this run does not list again (apply plans from the account as it is now). */
  doneEarlier?: number;
  /** false: rows are planned from the account as it is now, so a row finished earlier but planned again runs again. */
  skipDone?: boolean;
  /**
   * The library's stop (fleet.apply's AbortSignal): when it aborts, the job stops as on a first
   * Ctrl-C (no new rows; the rows in flight finish and are logged). Without it, Ctrl-C does that.
   */
  signal?: AbortSignal;
  /** Each row's result as it is known, with the count done so far (the library's onProgress). */
  onProgress?(result: RowResult, done: number, total: number): void;
  /** Said after the summary line, whatever the outcome (e.g. how to undo what was done). */
  after?(summary: BulkSummary): void;
  /** The job's own verdict after the summary (e.g. conflicts): the row log is kept when it returns an error. */
  verdict?(summary: BulkSummary): RentctlError | undefined;
  /**
   * The identity check after the sends (./identity-check.ts): rows whose
   * status is one of `statuses` created the vehicle of `identity(row)`.
   * Left out with --no-dedupe.
   */
  identityCheck?: {
    statuses: readonly string[];
    identity(row: BulkRow<T>): Identity | undefined;
    /** How a copy is removed (default: the gateway's removeDuplicate, not recorded); e.g. recorded with the job's undo. */
    remove?(id: number): Promise<"removed" | "gone">;
  };
}

export interface BulkJobHandle {
  readonly log: RowLog;
  readonly resumed: boolean;
  /** Another run of the same job held it and this one waited: what was read before is out of date. */
  readonly waited: boolean;
  /** Rows the stopped run left in flight (`sending` / `unknown`). */
  readonly inFlight: RowRecord[];
  /** The clock of its waits. */
  readonly clock: BulkClock;
  /**
   * Wait until the stopped run's requests can no longer land: those of the rows `pending` keeps
   * (default: all), each until its own deadline. True when it waited (what was read before is out of
   * date). A job that reconciles rows need not call it: run() lists first and waits only for rows
   * the listing does not show.
   */
  settle(pending?: (r: RowRecord) => boolean): Promise<boolean>;
  /** Run the rows; throws the exit error (auth 4, network 6, interrupted 130, failed rows 7, the job's verdict). */
  run<T>(spec: BulkJobRun<T>): Promise<BulkSummary>;
  /** The job is complete without running (nothing to do): a later run starts afresh. */
  finish(): Promise<void>;
  /** Keep the row log for a rerun unless the job finished (call in finally). */
  close(): Promise<void>;
}

/** The row log's key of a job on the selected target and owner. */
export async function bulkJobKey(deps: Deps, key: Pick<BulkJobKey, "job" | "contentHash">): Promise<RowLogKey> {
  const target = await deps.target();
  const owner = await requireUser(deps);
  // The embedded sandbox listens on a new port each run: its data file is what stays the same.
  const where = target.embeddedSandbox ? `sandbox:${target.sandboxDataFile ?? "memory"}` : target.baseUrl;
  return { job: key.job, env: target.env, baseUrl: where, owner, contentHash: key.contentHash };
}

/** --report FILE must be writable where it is asked for, in a known format: said before anything else happens. */
export async function checkReportPath(path: string): Promise<void> {
  formatFor(path, undefined, undefined, "--report");
  await checkTargetDir(path, "--report");
}

/**
 * Take another job's row log (an apply being undone): wait for a run of it
 * that is still going (bounded, exit 9 as any lock), then let the requests a
 * stopped run of it left in flight land (or time out), so what follows sees
 * every write that job made. Returns the release; hold it while working, so
 * the job cannot be resumed meanwhile.
 */
export async function holdJobLog(
  deps: Deps,
  file: string,
  what: string,
  opts: Pick<BulkJobKey, "clock" | "lockWaitMs"> = {},
): Promise<() => void> {
  const unlock = await lock(file, {
    what,
    timeoutMs: lockWait(deps, opts),
    onWait: (holder) => deps.msg.info(`waiting for ${what}, running as ${holder}`),
  });
  try {
    const text = await readFile(file, "utf8").catch(() => "");
    await settle(deps, inFlightOf(readPrevious(text, bootId())), opts.clock ?? systemClock);
    return unlock;
  } catch (e) {
    unlock();
    throw e;
  }
}

/**
 * Wait until a stopped run's requests in flight can no longer land: their start plus the
 * timeout (or --settle, if longer). Not on the embedded sandbox: its server ended with that run.
 */
async function settle(deps: Deps, inFlight: readonly RowRecord[], clock: BulkClock): Promise<boolean> {
  if (!inFlight.length || (await deps.target()).embeddedSandbox) return false;
  return settleInFlight(inFlight, settleBound(deps), (m) => deps.msg.info(m), clock);
}

/** The bound on a stopped run's request: the timeout (or --settle, if longer). */
const settleBound = (deps: Deps) => Math.max(deps.settings().timeoutMs, (deps.flags.settle ?? 0) * 1000);

/** How long to wait for another run's lock: --no-wait 0, else the job's own bound, else the lock's default. */
const lockWait = (deps: Deps, key: Pick<BulkJobKey, "lockWaitMs">) => (deps.flags.wait === false ? 0 : key.lockWaitMs);

export async function openBulkJob(deps: Deps, key: BulkJobKey): Promise<BulkJobHandle> {
  if (key.report) await checkReportPath(key.report);
  const logKey = await bulkJobKey(deps, key);
  // One run of a job at a time on this machine: a second waits for the first (bounded), then finds its work done.
  let waited = false;
  const unlock = await lock(RowLog.fileFor(deps.paths.dataDir, logKey), {
    what: `this ${key.what}`,
    timeoutMs: lockWait(deps, key),
    onWait: (holder) => {
      waited = true;
      deps.msg.info(`waiting for the same ${key.what}, running as ${holder}`);
    },
  });
  let log: RowLog;
  try {
    log = await RowLog.open(deps.paths.dataDir, logKey, { restart: key.restart });
  } catch (e) {
    unlock();
    throw e;
  }
  if (log.resumed)
    deps.msg.info(
      log.endedWithFailures !== undefined
        ? `the last ${key.what} finished with ${log.endedWithFailures} row${log.endedWithFailures === 1 ? "" : "s"} not done (failed, invalid or in conflict): running ${log.endedWithFailures === 1 ? "it" : "them"} again (--restart to ${key.afresh ?? "start afresh"})`
        : `resuming an interrupted ${key.what} (--restart to ${key.afresh ?? "start afresh"})`,
    );
  const inFlight = log.inFlight();
  const clock = key.clock ?? systemClock;
  let ended = false;
  const handle: BulkJobHandle = {
    log,
    resumed: log.resumed,
    waited,
    inFlight,
    clock,
    // A write of the stopped run may still be on its way: let it land (or time out) before looking.
    // Not on the embedded sandbox: its server ran inside the stopped run and ended with it.
    settle: (pending) => settle(deps, pending ? inFlight.filter(pending) : inFlight, clock),
    finish: async () => {
      ended = true;
      try {
        await log.finish();
      } finally {
        unlock();
      }
    },
    close: async () => {
      if (ended) return;
      ended = true;
      try {
        await log.close();
      } finally {
        unlock();
      }
    },
    run: async <T>(spec: BulkJobRun<T>) => {
      const summary = await runRows(deps, handle, spec);
      spec.after?.(summary);
      const failed = bulkExitError(summary, spec.known?.length ?? 0);
      const verdict = failed ?? spec.verdict?.(summary);
      if (verdict && !summary.interrupted && !summary.stoppedBy)
        log.ended(summary.failed.length + (summary.counts.get("conflict") ?? 0) + (spec.known?.length ?? 0));
      if (!verdict) await handle.finish();
      else await handle.close();
      if (verdict) throw verdict;
      return summary;
    },
  };
  return handle;
}

async function runRows<T>(deps: Deps, job: BulkJobHandle, spec: BulkJobRun<T>): Promise<BulkSummary> {
  const started = spec.startedAt ?? Date.now();
  const quiet = Boolean(deps.flags.quiet);
  const output = deps.settings().output;
  const sinks: ReportSink[] = [];
  if (!quiet && output !== "table" && spec.stdoutReport !== false)
    sinks.push(await reportToStream(deps.io.stdout as Writable, formatFor("-", output), spec.reportColumns));
  if (spec.report) sinks.push(await reportToFile(spec.report, spec.reportColumns));
  const emit = async (r: RowResult) => {
    const shown = spec.shown ? spec.shown(r) : r;
    for (const s of sinks) await s.add(shown);
    if (quiet && r.id !== undefined && spec.quietIds.includes(r.status)) deps.io.stdout.write(`${r.id}\n`);
  };
  const inOrder = spec.inFileOrder ? new FileOrder(emit, spec.known ?? []) : undefined;
  if (!inOrder) for (const r of spec.known ?? []) await emit(r);
  for (const r of spec.converged ?? []) await emit(r);

  deps.msg.acting(await deps.target(), spec.acting);
  const progress = await createProgress(deps.io.stderr, deps.io.stderrTTY && !quiet, spec.total, spec.label);
  (await deps.client()).limitConnections(spec.concurrency);
  const control = spec.signal
    ? new Interrupter().follow(spec.signal)
    : interruptOnCtrlC(deps.io.stderr, () => progress.stop());
  let done = 0;
  const check = spec.identityCheck;
  const created = check ? new CreatedSet() : undefined;
  let summary: BulkSummary;
  try {
    summary = await runBulk<T>({
      rows: inOrder ? inOrder.track(spec.rows) : spec.rows,
      total: spec.total,
      concurrency: spec.concurrency,
      log: job.log,
      control,
      task: (row, ctx) => spec.send(row, ctx),
      ...(spec.reconcile ? await listFirst(deps, job, spec) : {}),
      willWrite: spec.willWrite,
      skipDone: spec.skipDone,
      onResult: async (r, row) => {
        progress.tick();
        spec.onProgress?.(r, ++done, spec.total);
        if (created && r.id !== undefined && check!.statuses.includes(r.status)) {
          const identity = check!.identity(row);
          if (identity)
            created.add(identity, { row: r.row, key: r.key, id: r.id, status: r.status, resent: r.via === "resent" });
        }
        await (inOrder ? inOrder.add(r) : emit(r));
      },
    });
    await inOrder?.end();
    if (created?.size && !summary.interrupted && !summary.stoppedBy && !control.stopped)
      await identityCheck(deps, job.log, created, summary, emit, check!.remove);
  } finally {
    control.uninstall();
    progress.stop();
    for (const s of sinks) await s.close();
  }
  if (spec.known?.length) summary.counts.set(spec.known[0]!.status, spec.known.length);
  for (const r of spec.converged ?? []) {
    summary.counts.set(r.status, (summary.counts.get(r.status) ?? 0) + 1);
    if (r.status === "failed") summary.failed.push(r);
  }
  summary.earlierEnded = job.log.endedWithFailures !== undefined;
  if (spec.doneEarlier !== undefined) summary.fromRowLog = Math.max(summary.fromRowLog, spec.doneEarlier);
  summary.elapsedMs = Date.now() - started;
  // a note for a person (silent with -q: the ids on stdout and the exit code say it)
  deps.msg.info(summaryLine(summary, spec.order));
  return summary;
}

/** A job's outcome as an op returns it: rows per outcome, the failed rows, the undo op. */
export interface BulkJobResult {
  counts: Record<string, number>;
  failed: RowResult[];
  /** The undo history's op of the whole job (`rentctl undo OP`), when the target keeps one. */
  undoOp?: string;
}

export function bulkJobResult(summary: BulkSummary, undoOp: string | undefined): BulkJobResult {
  return { counts: Object.fromEntries(summary.counts), failed: summary.failed, ...(undoOp ? { undoOp } : {}) };
}

/**
 * The reorder window of `inFileOrder`: the rows as they are handed to the runner (file order),
 * the `known` rows slotted in by row number; a result is held until every row before it has
 * one, so at most the rows in flight (and the results behind a slow one) are held.
 */
export class FileOrder {
  private readonly queue: number[] = [];
  private readonly results = new Map<number, RowResult>();
  private readonly known: RowResult[];
  private next = 0;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly emit: (r: RowResult) => Promise<void>,
    known: readonly RowResult[],
  ) {
    this.known = [...known].sort((a, b) => a.row - b.row);
  }

  /** The rows, passed through as they are pulled: their order is the order of the report. */
  async *track<T>(rows: AsyncIterable<BulkRow<T>>): AsyncGenerator<BulkRow<T>> {
    for await (const row of rows) {
      this.knownBefore(row.row);
      this.queue.push(row.row);
      yield row;
    }
    this.knownBefore(Number.POSITIVE_INFINITY);
  }

  private knownBefore(row: number): void {
    while (this.next < this.known.length && this.known[this.next]!.row < row) {
      const k = this.known[this.next++]!;
      this.queue.push(k.row);
      this.results.set(k.row, k);
    }
  }

  /** A row's result: reported once every row before it has been. */
  add(r: RowResult): Promise<void> {
    this.results.set(r.row, r);
    return this.drain();
  }

  /** The rest, in order (rows a stop left unsent have no result and are passed over). */
  end(): Promise<void> {
    this.knownBefore(Number.POSITIVE_INFINITY);
    return this.drain(true);
  }

  private drain(all = false): Promise<void> {
    this.chain = this.chain.then(async () => {
      while (this.queue.length) {
        const r = this.results.get(this.queue[0]!);
        if (!r && !all) return;
        this.queue.shift();
        if (!r) continue;
        this.results.delete(r.row);
        await this.emit(r);
      }
      if (!all) return;
      for (const r of this.results.values()) await this.emit(r);
      this.results.clear();
    });
    return this.chain;
  }
}

/**
 * Resume without the wait (issue 41 item 9): a rerun lists first
 * (`beforeReconcile`), and a row the stopped run left in flight that the
 * listing shows is done at once. Only a row the listing does not show waits,
 * and only until its own deadline (its request's start + the bound), after
 * which a listing started no earlier (one for every row whose deadline it
 * covers) settles it: found, or sent again.
 */
async function listFirst<T>(
  deps: Deps,
  job: BulkJobHandle,
  spec: BulkJobRun<T>,
): Promise<Pick<Parameters<typeof runBulk<T>>[0], "reconcile" | "beforeReconcile">> {
  const reconcile = spec.reconcile!;
  const clock = job.clock;
  // the embedded sandbox's server ended with the stopped run: nothing of it can land later
  const embedded = (await deps.target()).embeddedSandbox;
  const bound = settleBound(deps);
  let inFlight: RowRecord[] = [];
  /** The latest listing: when it started, and its end. */
  let listing: { at: number; done: Promise<void> } | undefined;
  const list = (): Promise<void> => {
    const at = clock.now();
    const done = (async () => {
      await spec.beforeReconcile?.(inFlight);
    })();
    listing = { at, done };
    return done;
  };
  let told = false; // said once, for the first row that waits
  return {
    beforeReconcile: async (rows) => {
      inFlight = rows;
      await list();
    },
    reconcile: async (row, prior) => {
      const found = await reconcile(row, prior);
      if (found || embedded) return found;
      const deadline = rowDeadline(prior, bound);
      // the listing began after the request could last land: it is not there
      if (!listing || deadline <= listing.at) return undefined;
      if (!told) {
        told = true;
        deps.msg.info(
          `row ${fileRowOf(spec, row.row)} (${row.key}) was in flight when the last run stopped and the account does not show it: waiting ${(Math.max(0, deadline - clock.now()) / 1000).toFixed(1)} s for its request to settle, then looking again`,
        );
      }
      await clock.until(deadline);
      // one listing for every row whose deadline it covers
      if (listing.at < deadline) await list();
      else await listing.done;
      return reconcile(row, prior);
    },
  };
}

/** A row's number as reports show it. */
const fileRowOf = <T>(spec: BulkJobRun<T>, row: number) =>
  spec.shown ? spec.shown({ row, key: "", status: "" }).row : row;

/**
 * The identity check (./identity-check.ts) at the end of a create phase:
 * copies of this run's vehicles that another run created first are removed,
 * their rows counted and reported `deduplicated` (with the kept vehicle's
 * id) and noted in the row log; a copy that could not be removed fails its
 * row, so the run exits 7 and its rerun checks again.
 */
async function identityCheck(
  deps: Deps,
  log: RowLog,
  created: CreatedSet,
  summary: BulkSummary,
  emit: (r: RowResult) => Promise<void>,
  remove?: (id: number) => Promise<"removed" | "gone">,
): Promise<void> {
  let found: Awaited<ReturnType<typeof removeDuplicates>>;
  try {
    found = await removeDuplicates(deps, created, remove ?? ((id) => removeDuplicate(deps, id)));
  } catch (e) {
    if (!(e instanceof RentctlError)) throw e;
    summary.stoppedBy = e;
    return;
  }
  if (!found.length) return;
  const count = (status: string, by: number) => summary.counts.set(status, (summary.counts.get(status) ?? 0) + by);
  const removed = found.filter((d) => d.outcome !== "failed");
  for (const d of found) {
    // A late copy (the stopped run's request landed after the row was sent again) is not the row's vehicle:
    // the row stays done. Any other copy is the row's own vehicle, and the row's outcome changes.
    if (!d.late) count(d.status, -1);
    if (d.outcome === "failed") {
      const what = d.late
        ? `vehicle ${d.id} is a late copy of vehicle ${d.kept} (the interrupted run's request landed after all)`
        : `a second vehicle ${d.key}: vehicle ${d.kept} has the same identity, created earlier by another run`;
      const r: RowResult = {
        row: d.row,
        key: d.key,
        status: "failed",
        id: d.id,
        error: `${what}; removing this job's copy (${d.id}) failed: ${d.error}`,
      };
      count("failed", 1);
      summary.failed.push(r);
      await emit(r);
      continue;
    }
    count("deduplicated", 1);
    if (d.late) continue;
    log.note({ row: d.row, key: d.key, state: "done", status: "deduplicated", id: d.kept });
    await emit({ row: d.row, key: d.key, status: "deduplicated", id: d.kept });
  }
  if (removed.length)
    deps.msg.info(
      `identity check: ${removed.length} vehicle${removed.length === 1 ? "" : "s"} had a twin of the same identity (another run created it at the same time, or an interrupted run's request landed late); removed this job's copies (${removed
        .map((d) => `${d.key}: ${d.id}`)
        .slice(0, 5)
        .join(", ")}${removed.length > 5 ? ", ..." : ""}), kept the earlier ones`,
    );
}
