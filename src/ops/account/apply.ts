import { checkConcurrency } from "../../base/concurrency.js";
import type { AccountApplyResult, AccountApplyRun } from "../../bulk/account-apply.js";
import { applySavedAccountPlan } from "../../bulk/account-apply.js";
import type { RowResult } from "../../bulk/runner.js";
import type { Deps } from "../../deps.js";
import type { SavedPlan } from "../../plans/saved-plan.js";
import type { OpOptions } from "../context.js";

export interface ApplyAccountInput {
  /** The saved plan to run exactly (`account diff --out`, `account.plan`'s `saved`). */
  saved: SavedPlan;
  /** Requests in flight at once: the one bound (src/base/concurrency.ts); default 4; out of range is a usage error. */
  concurrency?: number;
  /** Let a pruning plan remove more than half of the vehicles, or more than 20. */
  allowMassDelete?: boolean;
  /** Ignore the row log of an interrupted apply of the same plan. */
  restart?: boolean;
  /** Per-row results to this file (format by extension). */
  report?: string;
  /** false: no identity check after the creates. */
  dedupe?: boolean;
  /** When the front end's command started (the summary's time; default now). */
  started?: number;
}

/** One row's outcome as the apply learns it. */
export interface ApplyRowProgress {
  key: string;
  status: string;
  id?: number;
  error?: string;
  done: number;
  total: number;
}

/**
 * Apply exactly a saved account plan (`account apply --plan`, the library's `account.apply`):
 * the plan's target checked, its input planned again under the job's lock and refused as stale
 * (nothing sent) when a record it read changed; locked, recorded in a row log and resumable;
 * one undo op. `confirm` / `show` are the front end's (the CLI's prompt and plan on stderr).
 *
 * The context is the full Deps while the bulk job (src/bulk) takes it; the library
 * gives its own, silent one.
 */
export async function applyAccountPlan(
  ctx: Deps,
  input: ApplyAccountInput,
  opts: OpOptions<ApplyRowProgress> & Pick<AccountApplyRun, "show" | "confirm"> = {},
): Promise<AccountApplyResult> {
  const concurrency = checkConcurrency(input.concurrency);
  return applySavedAccountPlan(ctx, input.saved, {
    concurrency,
    started: input.started ?? Date.now(),
    allowMassDelete: input.allowMassDelete,
    restart: input.restart,
    report: input.report,
    dedupe: input.dedupe,
    signal: opts.signal,
    show: opts.show,
    confirm: opts.confirm,
    onProgress: rowProgress(opts.onProgress),
  });
}

/** A bulk job's per-row results as an apply's progress reports. */
export function rowProgress(
  onProgress: ((p: ApplyRowProgress) => void) | undefined,
): ((r: RowResult, done: number, total: number) => void) | undefined {
  return onProgress
    ? (r, done, total) =>
        onProgress({
          key: r.key,
          status: r.status,
          ...(r.id !== undefined ? { id: r.id } : {}),
          ...(r.error ? { error: r.error } : {}),
          done,
          total,
        })
    : undefined;
}
