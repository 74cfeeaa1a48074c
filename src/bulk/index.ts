/**
 * The bulk layer: one job shell for every command that writes many rows.
 *
 * - ./job.ts: `openBulkJob` + `job.run(spec)`: the ONE shell (row log, resume
 *   notice, settle wait, progress, Ctrl-C, report, summary, exit code). A job
 *   supplies its rows, how to send one row (through the gateway, handing it
 *   `ctx.beforeWrite`) and how to reconcile a row a stopped run left in
 *   flight. `vehicle import`, `vehicle apply`, the changes to many vehicles
 *   (commands/vehicle/many.ts) and undo of an apply run on it.
 * - ./runner.ts: the engine under the shell (concurrency, rows pulled as
 *   slots free up, rows logged ahead in groups, reconcile, outcomes).
 * - ./row-log.ts: a job's per-row states on disk (`sending`, `done`,
 *   `failed`, `unknown`), fsync'd, keyed by job, target, owner and content.
 * - ./control.ts (Ctrl-C), ./progress.ts (bar), ./report.ts (per-row report,
 *   summary line, exit error).
 *
 * The undo history (what can be undone) is another thing: src/gateway/history.ts,
 * written only by the gateway (src/gateway/undo.ts).
 */
export { Interrupter, interruptOnCtrlC } from "./control.js";
export { type BulkJobHandle, type BulkJobKey, type BulkJobRun, bulkJobKey, openBulkJob } from "./job.js";
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
