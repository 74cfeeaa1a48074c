import { PassThrough, Writable } from "node:stream";
import type { Command } from "commander";
import type { IO } from "../base/io.js";
import { STATIC_HELP_WIDTH } from "./help-width.js";
import { buildProgram } from "./program.js";
import { runProgram } from "./run.js";
import type { CliContext } from "./shared.js";

const NO_DEPS: CliContext = { makeDeps: () => Promise.reject(new Error("help pages run no command")) };

/**
 * Every command's help page as `… --help` prints it at the static width: what
 * scripts/build.mjs writes to dist/help/ (through `helpPages` of the bundle,
 * src/main.ts) for src/boot.ts to print without loading the command tree.
 * Keys are command paths joined with "." ("" for the root).
 */
export async function helpPages(): Promise<Map<string, string>> {
  const columns = process.env.COLUMNS;
  process.env.COLUMNS = String(STATIC_HELP_WIDTH);
  try {
    const paths: string[][] = [];
    const walk = (cmd: Command, path: string[]) => {
      paths.push(path);
      for (const sub of cmd.commands) {
        walk(sub, [...path, sub.name()]);
        for (const alias of sub.aliases()) paths.push([...path, alias]);
      }
    };
    walk(await buildProgram(NO_DEPS), []);
    const pages = new Map<string, string>();
    for (const path of paths) {
      let out = "";
      const stdout = new Writable({
        write(chunk, _enc, done) {
          out += String(chunk);
          done();
        },
      });
      const io: IO = {
        stdout,
        stderr: new PassThrough(),
        stdin: new PassThrough(),
        stdoutTTY: false,
        stderrTTY: false,
        stdinTTY: false,
      };
      // As a run prints it: the program built for this argv (only the invoked noun in full).
      const code = await runProgram(NO_DEPS, [...path, "--help"], io);
      if (code !== 0) throw new Error(`rentctl ${path.join(" ")} --help exited ${code}`);
      pages.set(path.join("."), out);
    }
    return pages;
  } finally {
    if (columns === undefined) delete process.env.COLUMNS;
    else process.env.COLUMNS = columns;
  }
}
