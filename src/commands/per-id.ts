import { PartialFailureError, RentctlError } from "../base/errors.js";
import type { Messages } from "../base/io.js";
import type { JsonObject } from "../contract/records.js";
import type { Deps } from "../deps.js";

/**
 * What one id's action reports: printed on stdout with -o json/yaml/…, its id with -q. Every
 * result has `id`, `ok` and `status` (what happened: `removed`, `activated`, `unchanged`, ...;
 * `failed` with `error`), then the action's own fields (`removed`, `undo`, ...).
 */
export type IdResult = JsonObject & { id: number; status: string };

/**
 * Run one action per id. A single id fails exactly as the action fails (its
 * own exit code); with several, each failure is reported and the command ends
 * with exit 7 if some failed. The results go to stdout as the mutation's
 * result (see `printResults`), failed ids included in the structured form:
 * `{id, ok: false, status: "failed", error}`.
 *
 * `say` is where the action's per-id lines go: the notes for a person with
 * the table format; with a structured -o (the results on stdout say it) only
 * warnings, and the line naming the target once. stderr then carries no line
 * per id, only the one-line failure summary.
 */
export async function runEach(
  deps: Deps,
  ids: number[],
  verb: string,
  action: (id: number, say: Messages) => Promise<IdResult>,
): Promise<void> {
  const say = perIdMessages(deps);
  if (ids.length === 1) {
    const r = await action(ids[0]!, say);
    return printResults(deps, [r]);
  }
  const results: IdResult[] = [];
  const failed: Array<{ id: number; error: string }> = [];
  for (const id of ids) {
    try {
      results.push(await action(id, say));
    } catch (err) {
      if (!(err instanceof RentctlError)) throw err;
      failed.push({ id, error: err.message });
      results.push({ id, ok: false, status: "failed", error: err.message });
      if (forPerson(deps)) deps.msg.warn(`${verb} ${id}: ${err.message}`);
    }
  }
  await printResults(deps, results);
  if (failed.length) {
    throw new PartialFailureError(`${verb}: ${failed.length} of ${ids.length} failed`, {
      details: failed.map((f) => ({ field: String(f.id), message: f.error })),
    });
  }
}

/** The table format without -q: the results are told on stderr, one line per id. */
const forPerson = (deps: Deps) => deps.settings().output === "table" && !deps.flags.quiet;

/** The per-id notes: all of them for a person; else warnings and the target named once. */
function perIdMessages(deps: Deps): Messages {
  if (forPerson(deps)) return deps.msg;
  let named = false;
  return {
    info: () => {},
    success: () => {},
    warn: (t) => deps.msg.warn(t),
    acting: (target, what) => {
      if (named) return;
      named = true;
      deps.msg.acting(target, what);
    },
  };
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
  // every result says ok, then status first (the action's own fields after)
  const shown = results.map(({ id, ok, status, ...rest }) => ({ id, ok: ok ?? true, status, ...rest }) as JsonObject);
  if (shown.length === 1) return deps.out.record(shown[0]!);
  await deps.out.list(shown);
}
