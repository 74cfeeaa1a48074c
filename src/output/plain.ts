import type { ChalkInstance } from "chalk";

/**
 * A colour function that colours nothing, without loading chalk: for the
 * library (src/library/), whose callers get data, not terminal text, and
 * for `--raw`. Any chain (`c.red.bold(x)`) returns its text unchanged.
 */
const identity = (...text: unknown[]) => text.join(" ");
export const plainColor: ChalkInstance = new Proxy(identity, {
  get: (_t, key) => (key === "level" ? 0 : plainColor),
  apply: (_t, _this, args: unknown[]) => args.join(" "),
}) as unknown as ChalkInstance;
