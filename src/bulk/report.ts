import { createWriteStream } from "node:fs";
import { rename, unlink } from "node:fs/promises";
import type { Writable } from "node:stream";
import { InterruptedError, PartialFailureError, type RentctlError } from "../base/errors.js";
import { released, tempFor } from "../base/temp-files.js";
import { type FleetFormat, formatFor } from "../files/format.js";
import { createRecordWriter, type RecordWriter } from "../files/write.js";
import type { BulkSummary, RowResult } from "./runner.js";

/** The columns of a per-row report, in every format. */
export const REPORT_COLUMNS = ["row", "identity", "status", "vehicle_id", "error", "images"] as const;

/** The columns of a report whose rows are vehicles and extras (`account apply`): an extra's id is its `extra_id`. */
export const ACCOUNT_REPORT_COLUMNS = [
  "row",
  "identity",
  "status",
  "vehicle_id",
  "extra_id",
  "error",
  "images",
] as const;

export type ReportColumns = typeof REPORT_COLUMNS | typeof ACCOUNT_REPORT_COLUMNS;

/**
 * A row's result in the report; `images`: the ids uploaded for the row (kept by a failed create, reused by a rerun).
 * With the account columns every row has `vehicle_id` and `extra_id`, the one that is not its kind null.
 */
export function reportRecord(r: RowResult, columns: ReportColumns = REPORT_COLUMNS): Record<string, unknown> {
  const id = r.id ?? null;
  return {
    row: r.row,
    identity: r.key,
    status: r.status,
    vehicle_id: r.extra ? null : id,
    ...(columns === ACCOUNT_REPORT_COLUMNS ? { extra_id: r.extra ? id : null } : {}),
    error: r.error ?? null,
    images: r.images?.length ? r.images : null,
  };
}

/** A streamed per-row report (stdout with -o, or a file with --report, written to a temp name and renamed). */
export interface ReportSink {
  add(r: RowResult): Promise<void>;
  close(): Promise<void>;
}

export async function reportToStream(
  out: Writable,
  format: FleetFormat,
  columns: ReportColumns = REPORT_COLUMNS,
): Promise<ReportSink> {
  const w: RecordWriter = await createRecordWriter(format, out, columns);
  return { add: (r) => w.write(reportRecord(r, columns)), close: () => w.end() };
}

export async function reportToFile(path: string, columns: ReportColumns = REPORT_COLUMNS): Promise<ReportSink> {
  const format = formatFor(path, undefined, undefined, "--report");
  const tmp = tempFor(path);
  const out = createWriteStream(tmp, { mode: 0o644 });
  const sink = await reportToStream(out, format, columns);
  return {
    add: sink.add,
    close: async () => {
      await sink.close();
      await new Promise<void>((res, rej) => out.end((e?: Error | null) => (e ? rej(e) : res())));
      await rename(tmp, path).catch(async (e) => {
        await unlink(tmp).catch(() => {});
        throw e;
      });
      released(tmp);
    },
  };
}

/** `created 287, exists 12, failed 1, invalid 0 (in 14.2 s)`, plus how a resumed run went. */
export function summaryLine(s: BulkSummary, order: readonly string[]): string {
  const keys = [...order, ...[...s.counts.keys()].filter((k) => !order.includes(k))];
  const parts = keys.map((k) => `${k} ${s.counts.get(k) ?? 0}`);
  let line = `${parts.join(", ")} (in ${(s.elapsedMs / 1000).toFixed(1)} s)`;
  // "resumed" only when this run took over work: rows an earlier run finished, or reconciled
  if (s.resumed && (s.fromRowLog > 0 || s.reconciled > 0))
    line += `; ${s.earlierEnded ? "continued the earlier run" : "resumed an interrupted run"}: ${s.fromRowLog} row${s.fromRowLog === 1 ? "" : "s"} done earlier, ${s.reconciled} reconciled`;
  if (s.interrupted) line += "; interrupted: rerun the same command to finish";
  return line;
}

/**
 * The error a finished job ends with: the stopping error (auth 4, network 6),
 * interrupted (130), some rows failed or were skipped as invalid (7); undefined when all went well.
 */
export function bulkExitError(s: BulkSummary, extraFailed = 0): RentctlError | undefined {
  if (s.stoppedBy) {
    s.stoppedBy.hint = `${s.stoppedBy.hint ? `${s.stoppedBy.hint}; ` : ""}rerun the same command to resume`;
    return s.stoppedBy;
  }
  if (s.interrupted) return new InterruptedError("interrupted", { hint: "rerun the same command to finish" });
  const failed = s.failed.length;
  const plural = (n: number) => `${n} row${n === 1 ? "" : "s"}`;
  if (failed > 0) {
    // A rerun sends the same values again: it helps rows that met the network or the server's trouble,
    // not rows the server refused (4xx), whose input must change first.
    const refused = s.failed.filter((f) => f.retry === false).length;
    const again = failed - refused;
    const hint =
      refused === 0
        ? "rerun the same command to retry the failed rows"
        : again === 0
          ? "the server refused them (its reasons above and in the report): fix those rows, then run the command again (rows already done are not sent again)"
          : `rerun the same command to retry the ${plural(again)} that met network or server trouble; fix the ${plural(refused)} the server refused first (reasons above)`;
    return new PartialFailureError(
      `${plural(failed)} failed${extraFailed ? `; ${plural(extraFailed)} invalid, skipped` : ""}`,
      {
        details: s.failed.slice(0, 20).map((f) => ({ field: `row ${f.row} (${f.key})`, message: f.error ?? "failed" })),
        hint,
      },
    );
  }
  // Rows found invalid before sending (--skip-invalid): a rerun cannot fix them, the file can.
  if (extraFailed > 0) {
    // the rows that went through (created, changed, unchanged, ...): none when every row was invalid
    const others = [...s.counts].filter(([k]) => k !== "invalid" && k !== "failed").reduce((n, [, v]) => n + v, 0);
    const rest = others > 0 ? " (the others went through)" : "; there was no other row";
    return new PartialFailureError(`${plural(extraFailed)} invalid, skipped${rest}`, {
      hint: "fix those rows in the file (they are listed above and in the report) and run the same command again",
    });
  }
  return undefined;
}
