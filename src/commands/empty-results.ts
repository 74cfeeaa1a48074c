import type { Writable } from "node:stream";
import { type ReportColumns, reportToFile, reportToStream } from "../bulk/report.js";
import type { Deps } from "../deps.js";
import { formatFor } from "../files/format.js";

/**
 * The per-row results of a bulk command that found nothing to do. Such a command runs no bulk
 * job, which is what writes them (src/bulk/job.ts): they are written here, empty (`[]`, a csv
 * header), so a script parsing `-o json` or `--report FILE` after a rerun that converged reads
 * an empty result, never nothing or an earlier run's file. `stdout: false` where the command
 * prints something else on stdout (one named vehicle's edit).
 */
export async function writeEmptyResults(
  deps: Deps,
  opts: { report?: string; columns?: ReportColumns; stdout?: boolean },
): Promise<void> {
  const output = deps.settings().output;
  if (opts.stdout !== false && !deps.flags.quiet && output !== "table")
    await (await reportToStream(deps.io.stdout as Writable, formatFor("-", output), opts.columns)).close();
  if (opts.report) await (await reportToFile(opts.report, opts.columns)).close();
}

/** writeEmptyResults when an apply's result shows it ran no job (no row has an outcome). */
export async function reportIfNothingRan(
  deps: Deps,
  result: { counts: Readonly<Record<string, number>> },
  report: string | undefined,
  columns?: ReportColumns,
): Promise<void> {
  if (Object.keys(result.counts).length === 0) await writeEmptyResults(deps, { report, columns });
}
