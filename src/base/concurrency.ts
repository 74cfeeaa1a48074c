import { UsageError } from "./errors.js";

/**
 * The one bound on the requests a bulk job keeps in flight (`--concurrency`, the library's
 * `concurrency`, the bulk runner): a whole number from 1 to 16, 4 when not given. Out of range
 * is a usage error (exit 2), never a silent clamp.
 */
export const CONCURRENCY = { min: 1, max: 16, default: 4 } as const;

/** The concurrency to run at: the default when not given; a usage error naming `what` when out of range. */
export function checkConcurrency(n: number | undefined, what = "concurrency"): number {
  if (n === undefined) return CONCURRENCY.default;
  if (!Number.isInteger(n) || n < CONCURRENCY.min || n > CONCURRENCY.max)
    throw new UsageError(`${what} must be a whole number from ${CONCURRENCY.min} to ${CONCURRENCY.max}, not ${n}`);
  return n;
}
