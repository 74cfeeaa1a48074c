import { UsageError } from "../errors.js";

/** A resource id from the command line: a whole number of at least 1. */
export function parseId(raw: string, noun: string): number {
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < 1) {
    throw new UsageError(`${noun} id must be a whole number of at least 1, got ${JSON.stringify(raw)}`);
  }
  return Number(raw);
}
