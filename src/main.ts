import { EXIT } from "./base/errors.js";
import type { IO } from "./base/io.js";
import { processIO } from "./base/io.js";
import { VERSION } from "./base/version.js";
import { helpAsFlag } from "./cli/nouns.js";
import { reportError } from "./cli/report-error.js";
import { runProgram } from "./cli/run.js";
import type { CliContext } from "./cli/shared.js";
import type { GlobalFlags } from "./config/settings.js";
import type { ContextOverrides, OwnedDeps } from "./deps.js";
import { createDeps } from "./deps.js";

export interface MainOptions {
  io?: IO;
  env?: NodeJS.ProcessEnv;
  overrides?: ContextOverrides;
}

/**
 * Run the command argv names and return its exit code: the program
 * (src/cli/run.ts) settles what commander answers itself; a command's failure
 * is reported (src/cli/report-error.ts) and mapped to its code.
 */
export async function main(given: string[], opts: MainOptions = {}): Promise<number> {
  const argv = helpAsFlag(given);
  const io = opts.io ?? processIO();
  const env = opts.env ?? process.env;
  const created: OwnedDeps[] = [];
  const ctx: CliContext = {
    // config, output and the rest load only when a command runs (not for help)
    async makeDeps(flags: GlobalFlags) {
      const deps = createDeps(io, env, flags, opts.overrides);
      created.push(deps);
      return deps;
    },
  };
  try {
    return await runProgram(ctx, argv, io, env);
  } catch (err) {
    return await reportError(err, { io, env, argv, deps: created.at(-1) });
  } finally {
    for (const d of created) await d.runExitHooks().catch(() => {});
  }
}

/** The process entry: the only place that exits. */
export async function run(): Promise<void> {
  const argv = process.argv.slice(2);
  // Scripts ask for the version often: answer it before loading the command tree.
  if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  let finished = false;
  // A reader that went away (`rentctl … | head -3`, also with 2>&1) is no failure: end quietly with 0.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (e: NodeJS.ErrnoException) => {
      finished = true;
      if (e.code === "EPIPE" || e.code === "ERR_STREAM_DESTROYED") process.exit(EXIT.ok);
      process.exit(EXIT.internal);
    });
  }
  process.on("SIGINT", () => {
    process.stderr.write("\ninterrupted\n");
    process.exit(EXIT.interrupted);
  });
  process.on("SIGTERM", () => process.exit(EXIT.terminated));
  // Node ends a process whose event loop has nothing left, even with the
  // command unfinished (a promise nothing will settle): never as a success.
  process.once("exit", (c) => {
    if (finished || c !== 0) return;
    process.stderr.write("error: rentctl stopped before the command finished: this is a bug in rentctl\n");
    process.exitCode = EXIT.internal;
  });
  const code = await main(argv);
  finished = true;
  process.exitCode = code;
  if (process.stdout.writableLength > 0) await new Promise((r) => process.stdout.once("drain", r));
  process.exit(code);
}

/** Every command's help page, for scripts/build.mjs (which calls it on the built bundle): src/cli/help-pages.ts. */
export async function helpPages(): Promise<Map<string, string>> {
  return (await import("./cli/help-pages.js")).helpPages();
}
