import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { Deps } from "../../deps.js";
import { type RepairReport, repairSandboxData } from "../../sandbox/server.js";
import { defineVerb } from "../verb.js";
import { type DataOptions, dataFileOf, dataFlag, expectedSandboxError, sandboxCommandLine } from "./data.js";

export const verb = defineVerb({
  name: "repair",
  description: "Repair a damaged sandbox data file: keep every record before the damage, move the damaged file aside",
  flags: { data: dataFlag },
  examples: ["rentctl sandbox repair", "rentctl sandbox repair --data ./sandbox.json"],
  run: (deps, _args, opts) => repair(deps, opts),
});

/**
 * `rentctl sandbox repair`: keep every record before the damage of a damaged
 * sandbox data file, move the damaged file aside, say what was dropped.
 */
export async function repair(deps: Deps, opts: DataOptions): Promise<void> {
  const file = dataFileOf(deps, opts);
  // A data dir the sandbox never ran in has nothing damaged: make it (0700) so the lock can be taken, not a crash.
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  let report: RepairReport;
  try {
    report = repairSandboxData(file);
  } catch (err) {
    throw expectedSandboxError(err, { ...opts, file });
  }
  const format = deps.settings().output;
  if (format === "json" || format === "ndjson") {
    deps.io.stdout.write(
      `${JSON.stringify({
        data_file: report.dataFile,
        repaired: report.repaired,
        damage: [report.snapshotDamage, report.journalDamage]
          .filter((d) => d !== null)
          .map((d) => ({ file: d.file, line: d.line, detail: d.detail })),
        torn_line: report.tornLine,
        kept: report.kept,
        dropped: report.dropped,
        moved_aside: report.movedAside,
      })}\n`,
    );
  }
  if (!report.repaired) {
    deps.msg.success(`nothing to repair: ${file} reads whole`);
    return;
  }
  const k = report.kept;
  for (const d of [report.snapshotDamage, report.journalDamage]) {
    if (d) deps.msg.info(`damage: ${d.file} line ${d.line}: ${d.detail}`);
  }
  if (report.tornLine !== null) deps.msg.info(`torn last journal line ${report.tornLine} (a crash mid-write)`);
  for (const aside of report.movedAside) deps.msg.info(`moved aside (kept, not deleted): ${aside}`);
  deps.msg.success(
    `repaired ${file}: kept ${k.vehicles} vehicles, ${k.extras} extras, ${k.images} images ` +
      `(${k.journalEntries} journal entr${k.journalEntries === 1 ? "y" : "ies"} replayed); dropped ${report.dropped} ` +
      `entr${report.dropped === 1 ? "y" : "ies"} from the damage on`,
  );
  deps.msg.info(`start it again: ${sandboxCommandLine("serve", opts)}`);
}
