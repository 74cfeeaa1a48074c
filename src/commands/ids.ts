import { UsageError } from "../errors.js";

/** A resource id from the command line: a whole number of at least 1. */
export function parseId(raw: string, noun: string): number {
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < 1) {
    throw new UsageError(`${noun} id must be a whole number of at least 1, got ${JSON.stringify(raw)}`);
  }
  // beyond 2^53 a number is no longer exact: it would reach the server as another id
  if (!Number.isSafeInteger(Number(raw)))
    throw new UsageError(
      `${noun} id ${raw.trim()} is too large (at most ${Number.MAX_SAFE_INTEGER}); nothing was sent`,
    );
  return Number(raw);
}
