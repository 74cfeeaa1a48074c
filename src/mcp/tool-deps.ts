import type { Messages } from "../base/io.js";
import { type Deps, dataOnlyDeps } from "../deps.js";

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

export function toolDeps(deps: Deps): ToolDeps {
  const notes: string[] = [];
  const note = (t: string) => notes.push(t);
  const msg: Messages = { info: note, warn: note, success: note, acting: () => {} };
  return { deps: dataOnlyDeps(deps, msg), notes: () => notes.join("\n") };
}
