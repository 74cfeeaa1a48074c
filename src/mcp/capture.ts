import { Writable } from "node:stream";
import type { Settings } from "../config/settings.js";
import type { Deps } from "../deps.js";
import type { IO } from "../io.js";
import { createMessages } from "../output/messages.js";
import { createOutput } from "../output/output.js";
import { plainColor } from "../output/plain.js";

/**
 * A command's own code run for a tool of `rentctl mcp`: the same Deps (target,
 * client, catalogs: one of each for the server's life) with stdout and stderr
 * captured instead of written (stdout is the protocol), results in JSON, and
 * no prompt (a tool never asks; a write runs only through a reviewed plan).
 */
export interface Captured {
  deps: Deps;
  /** What the command printed as its result (JSON). */
  stdout(): string;
  /** What it said for people (warnings, notes), for the tool's text summary. */
  stderr(): string;
}

function buffer(): { stream: Writable; text(): string } {
  const chunks: Buffer[] = [];
  return {
    stream: new Writable({
      write(chunk, _enc, cb) {
        chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
        cb();
      },
    }),
    text: () => Buffer.concat(chunks).toString("utf8"),
  };
}

export function captured(deps: Deps): Captured {
  const out = buffer();
  const err = buffer();
  const io: IO = {
    stdout: out.stream,
    stderr: err.stream,
    stdin: deps.io.stdin,
    stdoutTTY: false,
    stderrTTY: false,
    stdinTTY: false,
  };
  const settings = (): Settings => ({ ...deps.settings(), output: "json", fields: undefined });
  const cap: Deps = {
    ...deps,
    io,
    flags: { ...deps.flags, yes: true, quiet: false, raw: false, dryRun: false, verbose: false, fields: undefined },
    color: plainColor,
    outColor: plainColor,
    settings,
    out: createOutput(io, plainColor, settings, (fn) => deps.onExit(fn), { width: () => 80 }),
    msg: createMessages(err.stream, plainColor, false),
  };
  return { deps: cap, stdout: out.text, stderr: err.text };
}

/** The JSON a captured command printed (a list is one JSON array; a record one object). */
export function parsedStdout(c: Captured): unknown {
  const text = c.stdout().trim();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    // ndjson
    return text.split("\n").map((l) => JSON.parse(l));
  }
}
