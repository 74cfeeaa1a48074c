import { CONCURRENCY } from "../../base/concurrency.js";
import { flag } from "../flags.js";

/** `--concurrency <n>` of the verbs that run a bulk job: the one bound (src/base/concurrency.ts), checked before anything is read or sent. */
export const concurrencyFlag = (description: string) =>
  flag.int("--concurrency <n>", description, { min: CONCURRENCY.min, max: CONCURRENCY.max });

/** Rows in flight at once when --concurrency is not given. */
export const DEFAULT_CONCURRENCY = CONCURRENCY.default;

/**
 * `--no-dedupe` of the verbs that create vehicles (import, apply, undo): skip the identity check
 * that removes this run's copy of a vehicle another run created at the same time (src/bulk/identity-check.ts).
 */
export const noDedupeFlag = () =>
  flag.bool(
    "--no-dedupe",
    "skip the identity check after the creates (for accounts where one registration number is meant to exist twice)",
  );

/** The run flags of `vehicle apply` and `account apply` (the one bulk job's options), declared once. */
export const applyRunFlags = () => ({
  allowMassDelete: flag.bool(
    "--allow-mass-delete",
    "let --prune remove more than half of the vehicles, or more than 20",
  ),
  concurrency: concurrencyFlag("requests in flight at once, 1-16 (default 4)"),
  restart: flag.bool("--restart", "ignore the row log of an interrupted run of the same file"),
  report: flag.string("--report <file>", "write per-row results to FILE (format by extension)"),
  dedupe: noDedupeFlag(),
});
