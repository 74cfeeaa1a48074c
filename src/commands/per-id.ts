import { PartialFailureError, RentctlError } from "../base/errors.js";
import type { JsonObject } from "../contract/records.js";
import type { Deps } from "../deps.js";

/** What one id's action reports: printed on stdout with -o json/yaml/…, its id with -q. */
export type IdResult = JsonObject & { id: number };

/**
 * Run one action per id. A single id fails exactly as the action fails (its
 * own exit code); with several, each failure is reported and the command ends
 * with exit 7 if some failed. The results go to stdout as the mutation's
 * result (see `printResults`), failed ids included in the structured form.
 */
export async function runEach(
  deps: Deps,
  ids: number[],
  verb: string,
  action: (id: number) => Promise<IdResult>,
): Promise<void> {
  if (ids.length === 1) {
    const r = await action(ids[0]!);
    return printResults(deps, [r]);
  }
  const results: IdResult[] = [];
  const failed: Array<{ id: number; error: string }> = [];
  for (const id of ids) {
    try {
      results.push(await action(id));
    } catch (err) {
      if (!(err instanceof RentctlError)) throw err;
      failed.push({ id, error: err.message });
      results.push({ id, ok: false, error: err.message });
      deps.msg.warn(`${verb} ${id}: ${err.message}`);
    }
  }
  await printResults(deps, results);
  if (failed.length) {
    throw new PartialFailureError(`${verb}: ${failed.length} of ${ids.length} failed`, {
      details: failed.map((f) => ({ field: String(f.id), message: f.error })),
    });
  }
}

/**
 * A mutation's result on stdout: with -q the ids that succeeded, one a line;
 * with a structured format one record (one id) or a list (several); with the
 * table format nothing (the success lines on stderr say it for a person).
 * Nothing is printed for a dry run (it prints the requests instead).
 */
export async function printResults(deps: Deps, results: IdResult[]): Promise<void> {
  if (deps.flags.dryRun) return;
  if (deps.flags.quiet) return deps.out.ids(results.filter((r) => r.ok !== false).map((r) => r.id));
  if (deps.settings().output === "table") return;
  if (results.length === 1) return deps.out.record(results[0]!);
  await deps.out.list(results);
}
