/**
 * Every expected failure is one of these classes; `main` turns them into one
 * clear line on stderr and the exit code of the CLI outline. Nothing else
 * decides exit codes.
 */

export const EXIT = {
  ok: 0,
  internal: 1,
  usage: 2,
  rejected: 3,
  auth: 4,
  notFound: 5,
  network: 6,
  partial: 7,
  drift: 8,
  busy: 9,
  findings: 10,
  interrupted: 130,
  terminated: 143,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * What each exit code means, in a few words: the root help's exit-code line
 * (README.md explains each at length). The type asks for every code of EXIT.
 */
export const EXIT_MEANINGS: Readonly<Record<ExitCode, string>> = {
  [EXIT.ok]: "ok",
  [EXIT.internal]: "internal",
  [EXIT.usage]: "usage or input rejected (nothing sent)",
  [EXIT.rejected]: "API rejected (400)",
  [EXIT.auth]: "not authenticated",
  [EXIT.notFound]: "not found",
  [EXIT.network]: "network/server",
  [EXIT.partial]: "bulk partly failed",
  [EXIT.drift]: "a diff found changes, or a saved plan is stale",
  [EXIT.busy]: "busy (held by another rentctl process)",
  [EXIT.findings]: "lint findings at or above --fail-on",
  [EXIT.interrupted]: "interrupted",
  [EXIT.terminated]: "terminated",
};

/** `Exit codes: 0 ok · 1 internal · …`: every code the tool uses, in order. */
export function exitCodesLine(): string {
  const codes = Object.values(EXIT).sort((a, b) => a - b);
  return `Exit codes: ${codes.map((c) => `${c} ${EXIT_MEANINGS[c]}`).join(" · ")}`;
}

export interface FieldDetail {
  field: string;
  message: string;
}

export class RentctlError extends Error {
  readonly exitCode: number = EXIT.internal;
  /** Short machine-readable kind, used in `{"error": {...}}` output. */
  readonly kind: string = "internal";
  details: FieldDetail[] = [];
  hint?: string;
  /** No later request of this command can succeed (the embedded sandbox lost its data file): a bulk job stops at it. */
  stopsRun?: boolean;
  constructor(message: string, opts: { details?: FieldDetail[]; hint?: string; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    if (opts.details) this.details = opts.details;
    if (opts.hint) this.hint = opts.hint;
  }
}

/** Bad flags or arguments; nothing was sent. */
export class UsageError extends RentctlError {
  override readonly exitCode: number = EXIT.usage;
  override readonly kind: string = "usage";
}

/** Input rejected by the contract checks before sending; nothing was sent. */
export class InputError extends RentctlError {
  override readonly exitCode: number = EXIT.usage;
  override readonly kind: string = "invalid_input";
}

/** The local configuration cannot be read. */
export class ConfigError extends RentctlError {
  override readonly exitCode: number = EXIT.usage;
  override readonly kind: string = "config";
}

/** A local data file (the sandbox's data, a journal) is damaged or unreadable. */
export class DataFileError extends RentctlError {
  override readonly exitCode: number = EXIT.usage;
  override readonly kind: string = "data_file";
}

/** A bulk command finished with some items failed. */
export class PartialFailureError extends RentctlError {
  override readonly exitCode: number = EXIT.partial;
  override readonly kind: string = "partial_failure";
}

/** Ctrl-C, or a prompt cancelled by the user. */
export class InterruptedError extends RentctlError {
  override readonly exitCode: number = EXIT.interrupted;
  override readonly kind: string = "interrupted";
}

/**
 * A local write failed (no space left, a read-only data dir) where losing it
 * would lose track of work: the bulk journal. Exit 6, as for other failures
 * of the surroundings rather than of the input: fix the cause and rerun (the
 * rerun resumes). It stops a bulk run at once: nothing is sent after it.
 */
export class StorageError extends RentctlError {
  override readonly exitCode: number = EXIT.network;
  override readonly kind: string = "storage";
  override stopsRun = true;
}

/** SIGTERM: a clean stop asked by the system or a supervisor (exit 143; only a bulk job says how to finish). */
export class TerminatedError extends RentctlError {
  override readonly exitCode: number = EXIT.terminated;
  override readonly kind: string = "terminated";
}

/** The user declined a confirmation, or it could not be asked. */
export class AbortedError extends RentctlError {
  override readonly exitCode: number = EXIT.usage;
  override readonly kind: string = "aborted";
}

/** The record changed between our read and our write. */
export class ConflictError extends RentctlError {
  override readonly exitCode: number = EXIT.rejected;
  override readonly kind: string = "conflict";
}

/** `lint`: findings at or above `--fail-on` (the findings themselves are the output). */
export class FindingsError extends RentctlError {
  override readonly exitCode: number = EXIT.findings;
  override readonly kind: string = "findings";
}

/** `vehicle diff`: the plan has changes (exit 8, so CI can gate on drift); the plan itself is the output. */
export class DriftError extends RentctlError {
  override readonly exitCode: number = EXIT.drift;
  override readonly kind: string = "drift";
}

/** `apply --plan`: the saved plan no longer holds (exit 8, as drift, but said: the plan is not the output here). */
export class StalePlanError extends RentctlError {
  override readonly exitCode: number = EXIT.drift;
  override readonly kind: string = "stale_plan";
}

/**
 * An error met while reading one value of a row (a catalog name, an id), as that value's problem:
 * its message (less a leading `strip` prefix) and hint. Only errors about the value itself become
 * a problem (usage 2, rejected 3, not found 5); any other (network, server, auth, an interruption,
 * a bug) is rethrown, so an outage stops the work instead of marking rows invalid.
 */
export function valueProblem(e: unknown, strip?: RegExp): string {
  const about: number[] = [EXIT.usage, EXIT.rejected, EXIT.notFound];
  if (!(e instanceof RentctlError) || !about.includes(e.exitCode) || e.stopsRun) throw e;
  return (strip ? e.message.replace(strip, "") : e.message) + (e.hint ? ` (${e.hint})` : "");
}

export function exitCodeOf(err: unknown): number {
  return err instanceof RentctlError ? err.exitCode : EXIT.internal;
}

const FS_WORDS: Readonly<Record<string, string>> = {
  ENOENT: "no such file",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EISDIR: "is a directory, not a file",
  ENOTDIR: "a part of the path is not a directory",
  ENOSPC: "no space left on the device",
  EROFS: "read-only file system",
  EMFILE: "too many open files",
};

/** A file system error in words a person reads (`no such file`, not ENOENT). */
export function fsReason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException)?.code;
  return (code && FS_WORDS[code]) ?? code ?? (e as Error)?.message ?? String(e);
}
