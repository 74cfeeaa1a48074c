/**
 * The bulk engine: run one task per row, concurrently, journaled and
 * resumable. `vehicle import` is its first user; `vehicle apply` and the
 * `--where` bulk edits run on it too (do not write a second runner).
 *
 * How to run a bulk job:
 *
 * 1. Row source: an AsyncIterable of `{ row, key, item }` (`row` is the
 *    1-based position and the journal's key of the row; `key` the identity
 *    shown in reports). It is pulled only as slots free up, so a streamed
 *    file stays streamed. Validate everything BEFORE running (exit 2 and
 *    nothing sent); the runner only executes.
 * 2. Journal: `await RowLog.open(deps.paths.dataDir, { job, env,
 *    baseUrl, owner, contentHash }, { restart })` (`hashFile(path)` for the
 *    hash). The same key on a rerun finds the earlier run's row states
 *    (`journal.resumed`). Call `journal.finish()` when the job is complete
 *    (exit 0) so a later run starts afresh; `close()` otherwise. Dry runs
 *    pass no journal.
 * 3. Task per row: `task(row, ctx)` does the safe work (reads, uploads), then
 *    `await ctx.beforeWrite()` right before the one request that may change
 *    the server (the row is fsync'd as `sending`), sends it with
 *    `ctx.signal`, and returns `{ status, id? }` (`created`, `changed`, ...).
 *    A task that returns without calling beforeWrite (e.g. `exists`) is not
 *    journaled. Throwing a RentctlError makes the row `failed`: a 4xx is
 *    journaled `failed` (retried by a rerun), a lost answer / 5xx `unknown`;
 *    AuthError or 3 network errors in a row stop the run (exit 4 / 6).
 * 4. Reconciliation hook: `reconcile(row, prior)` is called on a rerun for
 *    rows an earlier run left `sending` / `unknown`: look at the server
 *    (import: the account listing by identity) and return the outcome if the
 *    write took effect, undefined to run the task again. This is what makes
 *    "exactly once in effect" hold after SIGKILL. `beforeReconcile(inFlight)`
 *    runs once first: wait until the killed run's requests can no longer
 *    land (their `at` + the request timeout), then refresh the server view.
 * 5. Ctrl-C: `new Interrupter(cb).install()` as `control` (first Ctrl-C stops
 *    taking rows, second aborts in-flight requests); `uninstall()` after.
 * 6. Report: `onResult` gets every row's RowResult as it is known: stream it
 *    with `reportToStream(stdout, format)` / `reportToFile(path)`, print ids
 *    for -q, tick `createProgress(...)` (stderr, TTY only).
 * 7. Summary and exit: print `summaryLine(summary, ["created", "exists",
 *    "failed", "invalid"])` on stderr always, then throw
 *    `bulkExitError(summary, invalidCount)` if it returns an error: stoppedBy
 *    (4 auth, 6 network), 130 interrupted, 7 some rows failed; else exit 0.
 */
export { Interrupter, interruptOnCtrlC } from "./control.js";
export { createProgress, type Progress } from "./progress.js";
export {
  bulkExitError,
  REPORT_COLUMNS,
  type ReportSink,
  reportRecord,
  reportToFile,
  reportToStream,
  summaryLine,
} from "./report.js";
export { hashFile, RowLog, type RowLogKey, type RowRecord, type RowState } from "./row-log.js";
export {
  type BulkControl,
  type BulkJob,
  type BulkRow,
  type BulkSummary,
  outcomeUnknown,
  type RowResult,
  runBulk,
  settleDeadline,
  settleInFlight,
  type TaskContext,
  type TaskOutcome,
} from "./runner.js";
