import type { Deps } from "../deps.js";
import { PartialFailureError, RentctlError } from "../errors.js";

/**
 * Run one action per id. A single id fails exactly as the action fails (its
 * own exit code); with several, each failure is reported and the command ends
 * with exit 7 if some failed.
 */
export async function runEach(
  deps: Deps,
  ids: number[],
  verb: string,
  action: (id: number) => Promise<void>,
): Promise<void> {
  if (ids.length === 1) return action(ids[0]!);
  const failed: Array<{ id: number; error: string }> = [];
  for (const id of ids) {
    try {
      await action(id);
    } catch (err) {
      if (!(err instanceof RentctlError)) throw err;
      failed.push({ id, error: err.message });
      deps.msg.warn(`${verb} ${id}: ${err.message}`);
    }
  }
  if (failed.length) {
    throw new PartialFailureError(`${verb}: ${failed.length} of ${ids.length} failed`, {
      details: failed.map((f) => ({ field: String(f.id), message: f.error })),
    });
  }
}
