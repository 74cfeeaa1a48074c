import { DataFileError, UsageError } from "../../base/errors.js";
import { sandboxDataFile } from "../../config/paths.js";
import type { Deps } from "../../deps.js";
import type { SandboxDataCorruptError } from "../../sandbox/server.js";
import { flag } from "../flags.js";

/** What the sandbox commands share: which data file, and errors spelt for this invocation. */

export interface DataOptions {
  data?: string;
}

/** `--data FILE`, which every sandbox verb takes. */
export const dataFlag = flag.string(
  "--data <file>",
  "data file (default: the sandbox file in the user data directory)",
);

export function dataFileOf(deps: Deps, opts: DataOptions): string {
  return opts.data ?? sandboxDataFile(deps.paths);
}

/** The file `serve` leaves beside its data so `info` can find a running server. */
export function stateFile(dataFile: string): string {
  return `${dataFile}.server.json`;
}

/** File-system failures a user causes with `--data` (a directory, no permission, a read-only disk). */
const FILE_CODES = new Set(["EACCES", "EPERM", "EISDIR", "ENOTDIR", "EROFS", "ENOSPC", "ENAMETOOLONG"]);

const shellWord = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`);

/** `rentctl sandbox <verb>` with the `--data` the user gave, to paste into a hint. */
export function sandboxCommandLine(verb: string, opts: DataOptions): string {
  return `rentctl sandbox ${verb}${opts.data ? ` --data ${shellWord(opts.data)}` : ""}`;
}

/**
 * Errors a user can cause, as application errors: a damaged data file (with
 * the repair command for this data file), a port in use. Others pass through.
 */
export function expectedSandboxError(
  err: unknown,
  opts: DataOptions & { port?: number; host?: string; file?: string | null },
): unknown {
  const e = err as { code?: string; syscall?: string; path?: string } | null;
  if (e?.code && FILE_CODES.has(e.code) && e.syscall !== "listen" && (opts.file || e.path)) {
    const detail = e.path && e.path !== opts.file ? `${e.code} on ${e.path}` : e.code;
    return new DataFileError(`cannot use the sandbox data file ${opts.file ?? e.path} (${detail})`, {
      hint: "pass --data with a file in a writable directory, or --memory to keep no state",
    });
  }
  if (e?.code === "ESANDBOXCORRUPT") {
    return (err as SandboxDataCorruptError).withRepairCommand(sandboxCommandLine("repair", opts));
  }
  if (e?.code === "EADDRINUSE") {
    return new UsageError(`cannot listen on ${opts.host ?? "127.0.0.1"}:${opts.port}: the port is in use`, {
      hint: "stop what uses it, or pick another port with --port (--port 0 takes any free one)",
    });
  }
  if (e?.syscall === "listen" && (e.code === "EACCES" || e.code === "EADDRNOTAVAIL")) {
    return new UsageError(`cannot listen on ${opts.host ?? "127.0.0.1"}:${opts.port} (${e.code})`, {
      hint: "pick another --host or a --port above 1023",
    });
  }
  return err;
}
