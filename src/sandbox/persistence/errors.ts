import { DataFileError, UsageError } from "../../base/errors.js";

/**
 * Why a sandbox data file cannot be opened. Both are expected conditions a
 * user can cause (a second server, a damaged file), so both are application
 * errors: one `error:` line, a hint and exit 2, never "this is a bug".
 */

/** Another live process (or another sandbox in this process) serves this data file. */
export class SandboxDataInUseError extends UsageError {
  readonly code = "ESANDBOXBUSY";
  constructor(
    readonly dataFile: string,
    readonly pid: number,
    /** `serve`: a running `rentctl sandbox serve` (or a reset or repair); `embedded`: another CLI command's own sandbox. */
    readonly role: "serve" | "embedded" = "serve",
    /** The server's address, when it wrote it beside the data file (`<dataFile>.server.json`). */
    readonly address?: string,
  ) {
    super(
      `sandbox data file ${dataFile} is in use by process ${pid} (${role === "embedded" ? "another rentctl command's embedded sandbox" : `a running \`rentctl sandbox serve\`${address ? ` at ${address}` : ""}`})`,
      {
        hint:
          role === "embedded"
            ? "run again once that command is done"
            : `stop that sandbox first (Ctrl-C where it runs), or talk to it with --base-url ${address ?? "(its address)"}`,
      },
    );
  }
}

/** Where a data file is damaged, and what reading it up to there kept and dropped. */
export interface Damage {
  /** The damaged file: the snapshot or the journal. */
  file: string;
  /** 1-based line of the first damaged line; for a snapshot cut at a line end, one past the last line. */
  line: number;
  detail: string;
  /** Entries (journal lines or snapshot rows) from the damage on, which a repair drops. */
  dropped: number;
}

/** The data file (snapshot or journal) cannot be read back. */
export class SandboxDataCorruptError extends DataFileError {
  readonly code = "ESANDBOXCORRUPT";
  constructor(
    readonly dataFile: string,
    readonly damage: Damage,
    repairCommand = "rentctl sandbox repair",
  ) {
    super(`sandbox data is damaged: ${damage.file} line ${damage.line}: ${damage.detail}`, {
      hint: repairHint(damage, repairCommand),
    });
  }

  /** The same error with the repair command spelt for this invocation (e.g. with `--data FILE`). */
  withRepairCommand(repairCommand: string): SandboxDataCorruptError {
    return new SandboxDataCorruptError(this.dataFile, this.damage, repairCommand);
  }
}

function repairHint(d: Damage, cmd: string): string {
  return (
    `run \`${cmd}\`: it keeps every record before the damage, drops ${d.dropped} ` +
    `entr${d.dropped === 1 ? "y" : "ies"} from line ${d.line} on, and moves the damaged file aside (never deletes it)`
  );
}
