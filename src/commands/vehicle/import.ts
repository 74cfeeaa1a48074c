import type { Writable } from "node:stream";
import { checkReportPath } from "../../bulk/job.js";
import type { ReportSink } from "../../bulk/report.js";
import { bulkExitError, reportToFile, reportToStream } from "../../bulk/report.js";
import type { Deps } from "../../deps.js";
import { formatFor } from "../../files/format.js";
import * as ops from "../../ops/vehicle/import.js";
import { type ImportFleetInput, previewImport } from "../../ops/vehicle/import.js";
import { arg, flag } from "../flags.js";
import { defineVerb } from "../verb.js";
import { concurrencyFlag, DEFAULT_CONCURRENCY, noDedupeFlag } from "./concurrency.js";
import { fleetFileFlags } from "./diff.js";

export const verb = defineVerb({
  name: "import",
  description: "Create the vehicles of a fleet file: checked first, concurrent, resumable after any interruption",
  args: { file: arg.required("fleet file (.json, .ndjson, .yaml, .csv), or - for stdin with --format") },
  flags: {
    format: fleetFileFlags.format,
    concurrency: concurrencyFlag("creates in flight at once, 1-16 (default 4)"),
    skipInvalid: flag.bool("--skip-invalid", "import the valid rows and report the others (exit 7)"),
    restart: flag.bool("--restart", "ignore the row log of an interrupted run of the same file"),
    report: flag.string("--report <file>", "write per-row results to FILE (format by extension)"),
    dedupe: noDedupeFlag(),
  },
  examples: [
    "rentctl vehicle import fleet.csv",
    "rentctl vehicle import fleet.yaml --dry-run",
    "rentctl vehicle import fleet.csv --concurrency 8 --report result.csv",
    "rentctl vehicle export -p staging | rentctl vehicle import - --format ndjson -p production",
  ],
  notes:
    "\nRows whose vehicle_reg_number already exists are skipped (exists). Interrupted? Run the same command again.\n",
  run: (deps, args, opts) => run(deps, args.file, opts),
});

export interface ImportOptions {
  format?: string;
  concurrency?: number;
  skipInvalid?: boolean;
  restart?: boolean;
  report?: string;
  /** false with --no-dedupe. */
  dedupe?: boolean;
}

/**
 * `vehicle import FILE`: the import op (src/ops/vehicle/import.ts): every row
 * checked first (nothing sent if one is invalid, unless --skip-invalid), then
 * the missing vehicles created on the bulk job, resumable; per-row results on
 * stdout with -o, in the file's order.
 */
export async function run(deps: Deps, file: string, opts: ImportOptions): Promise<void> {
  const started = Date.now();
  const input = {
    source: { path: file, format: opts.format },
    concurrency: opts.concurrency ?? DEFAULT_CONCURRENCY,
    skipInvalid: opts.skipInvalid,
    restart: opts.restart,
    report: opts.report,
    dedupe: opts.dedupe,
    started,
  };
  if (deps.flags.dryRun) return dryRun(deps, input, started);
  await ops.importFleet(deps, input);
}

/** `vehicle import --dry-run`: what would be created and what exists, by row in file order; nothing sent. */
async function dryRun(deps: Deps, input: ImportFleetInput, started: number): Promise<void> {
  if (input.report) await checkReportPath(input.report);
  const output = deps.settings().output;
  const quiet = Boolean(deps.flags.quiet);
  const sinks: ReportSink[] = [];
  if (!quiet && output !== "table")
    sinks.push(await reportToStream(deps.io.stdout as Writable, formatFor("-", output)));
  if (input.report) sinks.push(await reportToFile(input.report));
  const { counts } = await previewImport(deps, input, {
    onRow: async (r) => {
      if (output === "table" && !quiet && r.status !== "invalid")
        deps.io.stdout.write(
          `${r.status === "exists" ? "=" : "+"} ${r.key}${r.status === "exists" ? ` (exists: vehicle ${r.id})` : ""}${r.imageFiles ? ` (+${r.imageFiles} images)` : ""}\n`,
        );
      for (const s of sinks) await s.add(r);
    },
  });
  for (const s of sinks) await s.close();
  deps.io.stderr.write(
    `dry run: would create ${counts["would create"]}, exists ${counts.exists}, invalid ${counts.invalid} (in ${((Date.now() - started) / 1000).toFixed(1)} s); nothing was sent\n`,
  );
  const noRows = {
    counts: new Map(),
    failed: [],
    fromRowLog: 0,
    reconciled: 0,
    resumed: false,
    interrupted: false,
    elapsedMs: 0,
  };
  const err = bulkExitError(noRows, counts.invalid);
  if (err) throw err;
}
