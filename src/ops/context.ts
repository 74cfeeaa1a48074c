import type { ActingTarget } from "../base/io.js";
import type { JsonObject } from "../contract/records.js";
import type { CoreDeps } from "../deps.js";
import type { Change } from "../resources/safe-edit.js";

/**
 * What an operation (`src/ops/<noun>/<verb>.ts`) may use: the target, the API
 * client, the catalogs, the data dir (undo history, row logs, locks), the clock
 * and a place for notes to a person. Never stdout, flags or prompts: an op
 * returns data or a plan, and each front end (CLI, library, MCP) renders it.
 *
 * The CLI's `Deps` satisfies it; the library and the MCP server build their own.
 * (`msg` is for notes only, never results: the library's is silent.) The gateway
 * and the resources below take the same shape (`CoreDeps`, src/deps.ts).
 */
export type OpContext = CoreDeps;

/** What a long operation takes besides its input: a stop signal and progress reports. */
export interface OpOptions<P = unknown> {
  /** Stop: no new requests; what is in flight finishes (and is recorded); the op then throws InterruptedError. */
  signal?: AbortSignal;
  /** Called as work advances (rows done, pages fetched). Never required for correctness. */
  onProgress?: (progress: P) => void;
}

/** What a write reports just before it is sent: the target it acts on and what it does (the CLI names them on stderr). */
export interface WriteProgress {
  kind: "sending";
  target: ActingTarget;
  what: string;
}

/** The gateway's "about to send" hook, as an op's progress report. */
export function sendingTo(opts: OpOptions<WriteProgress>): ((target: ActingTarget, what: string) => void) | undefined {
  const on = opts.onProgress;
  return on ? (target, what) => on({ kind: "sending", target, what }) : undefined;
}

/** A dry run's answer: the request that would have been sent (nothing was). */
export interface DryRun {
  request: JsonObject;
}

/** A change to one record through the guarded replace (vehicle edit, extra update). */
export interface ReplaceInput {
  id: number;
  /** The fields (members) to change, by wire name; catalog values already ids. */
  changes: Record<string, unknown>;
  /** Send exactly the fields given (the API clears the rest). */
  replace?: boolean;
  /** Check everything, send nothing: answer the difference and the request that would be sent. */
  dryRun?: boolean;
}

/** What a guarded replace of one record answers (vehicle edit, extra update): the data every front end renders. */
export interface ReplaceOutcome {
  id: number;
  /** The fields that change (or would, on a dry run); empty: the record already held the change. */
  changes: Change[];
  /** True when the write was sent. */
  sent: boolean;
  /** A dry run: the request that was not sent. */
  dryRun?: DryRun;
  /** The undo history's op, when a history is kept. */
  undoOp?: string;
}

/** The gateway's answer to a guarded replace as an op's result. */
export function replaceOutcome(
  id: number,
  r: { changes: ReplaceOutcome["changes"]; sent?: unknown; dryRun?: DryRun; undoOp?: string },
): ReplaceOutcome {
  return {
    id,
    changes: r.changes,
    sent: r.sent !== undefined,
    ...(r.dryRun ? { dryRun: r.dryRun } : {}),
    ...(r.undoOp ? { undoOp: r.undoOp } : {}),
  };
}
