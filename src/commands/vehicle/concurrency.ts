import { flag } from "../flags.js";

/** `--concurrency <n>` of the verbs that run a bulk job: 1 to 16, checked before anything is read or sent. */
export const concurrencyFlag = (description: string) => flag.int("--concurrency <n>", description, { min: 1, max: 16 });

/** Rows in flight at once when --concurrency is not given. */
export const DEFAULT_CONCURRENCY = 4;

/**
 * `--no-dedupe` of the verbs that create vehicles (import, apply, undo): skip the identity check
 * that removes this run's copy of a vehicle another run created at the same time (src/bulk/identity-check.ts).
 */
export const noDedupeFlag = () =>
  flag.bool(
    "--no-dedupe",
    "skip the identity check after the creates (for accounts where one registration number is meant to exist twice)",
  );
