import { Writable } from "node:stream";
import type { Settings } from "../config/settings.js";
import type { Deps } from "../deps.js";
import type { IO, Messages } from "../io.js";
import { silentOutput } from "../output/output.js";
import { plainColor } from "../output/plain.js";

/**
 * The context a tool call runs in: the server's target, client and catalogs
 * (one of each for the server's life), never its stdout (the protocol): the
 * code below returns data, and what it would print goes nowhere (nothing is
 * read back). Notes for a person (warnings) are kept for the tool's text
 * summary. A tool never asks (a write runs only through a reviewed plan).
 */
export interface ToolDeps {
  deps: Deps;
  /** The notes said during the call (warnings, progress lines), one a line. */
  notes(): string;
}

function nowhere(): Writable {
  return new Writable({ write: (_c, _e, cb) => cb() });
}

export function toolDeps(deps: Deps): ToolDeps {
  const notes: string[] = [];
  const note = (t: string) => notes.push(t);
  const msg: Messages = { info: note, warn: note, success: note, acting: () => {} };
  const io: IO = {
    stdout: nowhere(),
    stderr: nowhere(),
    stdin: deps.io.stdin,
    stdoutTTY: false,
    stderrTTY: false,
    stdinTTY: false,
  };
  const settings = (): Settings => ({ ...deps.settings(), output: "json", fields: undefined });
  return {
    deps: {
      ...deps,
      io,
      flags: { ...deps.flags, yes: true, quiet: false, raw: false, dryRun: false, verbose: false, fields: undefined },
      color: plainColor,
      outColor: plainColor,
      settings,
      out: silentOutput(),
      msg,
    },
    notes: () => notes.join("\n"),
  };
}
