import { AbortedError } from "../base/errors.js";
import type { Deps } from "../deps.js";

/**
 * Destructive commands ask on a TTY; without one they need --yes. Declining
 * is exit 2 with nothing sent.
 */
export async function confirmDestructive(deps: Deps, question: string, action: string): Promise<void> {
  if (deps.flags.yes) return;
  if (!deps.io.stdinTTY || !deps.io.stderrTTY) {
    throw new AbortedError(`refusing to ${action} without confirmation`, {
      hint: "pass --yes (-y) to confirm in scripts",
    });
  }
  const ok = await deps.prompt.confirm(question, false);
  if (!ok)
    throw new AbortedError(
      `cancelled: nothing was ${action.startsWith("remove") || action.startsWith("delete") ? "removed" : "changed"}`,
    );
}
