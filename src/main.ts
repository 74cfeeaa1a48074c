import type { Command } from "commander";
import type { CliContext } from "./cli/shared.js";
import type { GlobalFlags } from "./config/settings.js";
import type { ContextOverrides, Deps, OwnedDeps } from "./deps.js";
import { EXIT, exitCodeOf, RentctlError } from "./errors.js";
import type { IO } from "./io.js";

// Everything else loads inside main(), so `rentctl --version` reads almost nothing.

export interface MainOptions {
  io?: IO;
  env?: NodeJS.ProcessEnv;
  overrides?: ContextOverrides;
}

/**
 * Parse argv, run one command, and return its exit code. Every expected
 * failure becomes one `error:` line (plus details and a hint) on stderr, or a
 * `{"error": …}` object with json output; the only stack trace is for a real
 * bug, and only with --verbose.
 */
export async function main(argv: string[], opts: MainOptions = {}): Promise<number> {
  const [{ CommanderError }, { processIO }] = await Promise.all([import("commander"), import("./io.js")]);
  const io = opts.io ?? processIO();
  const env = opts.env ?? process.env;
  const created: OwnedDeps[] = [];
  const ctx: CliContext = {
    // config, output and the rest load only when a command runs (not for help)
    async makeDeps(flags: GlobalFlags) {
      const { createDeps } = await import("./deps.js");
      const deps = createDeps(io, env, flags, opts.overrides);
      created.push(deps);
      return deps;
    },
  };
  const { buildProgram } = await import("./cli/program.js");
  const program = await buildProgram(ctx, argv);
  program.exitOverride();
  program.configureOutput({
    writeOut: (s: string) => io.stdout.write(s),
    writeErr: (s: string) => io.stderr.write(s),
    outputError: (s: string, write: (t: string) => void) => write(s.startsWith("error:") ? s : `error: ${s}`),
  });
  for (const cmd of allCommands(program)) {
    cmd.exitOverride();
    cmd.configureOutput({
      writeOut: (s: string) => io.stdout.write(s),
      writeErr: (s: string) => io.stderr.write(s),
      outputError: (s: string, write: (t: string) => void) => write(s),
    });
  }
  let code: number = EXIT.ok;
  try {
    await program.parseAsync(
      argv.includes("--json") || argv.some((a) => a.startsWith("--json=")) ? await jsonFieldList(argv) : argv,
      { from: "user" },
    );
  } catch (err) {
    if (err instanceof CommanderError) {
      // commander already printed its one-line message; help and version are not errors
      code =
        err.exitCode === 0 || err.code === "commander.helpDisplayed" || err.code === "commander.version"
          ? EXIT.ok
          : EXIT.usage;
    } else code = await report(err, io, env, argv, created.at(-1));
  } finally {
    for (const d of created) await d.runExitHooks().catch(() => {});
  }
  return code;
}

/**
 * `--json id,price_per_day` (as gh) means `--json --fields id,price_per_day`;
 * plain `--json` stays a switch. The next word is taken as a field list only
 * when it cannot be anything else: `--json=LIST`, or a word holding `,` `_`
 * or `.`, or a contract field name (so `rentctl --json vehicle list` and
 * `vehicle get --json 42` keep their meaning).
 */
async function jsonFieldList(argv: string[]): Promise<string[]> {
  const [{ VEHICLE_FIELDS }, { EXTRA_FIELDS }] = await Promise.all([
    import("./contract/vehicle-fields.js"),
    import("./contract/extra-fields.js"),
  ]);
  const fieldNames = new Set(["id", ...VEHICLE_FIELDS.map((f) => f.name), ...EXTRA_FIELDS.map((f) => f.name)]);
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") {
      out.push(...argv.slice(i));
      break;
    }
    if (a.startsWith("--json=")) {
      out.push("--json", "--fields", a.slice(7));
      continue;
    }
    const next = argv[i + 1];
    if (
      a === "--json" &&
      next !== undefined &&
      /^[A-Za-z_][\w.]*(,[A-Za-z_][\w.]*)*$/.test(next) &&
      (/[,_.]/.test(next) || fieldNames.has(next))
    ) {
      out.push("--json", "--fields", next);
      i++;
      continue;
    }
    out.push(a);
  }
  return out;
}

function allCommands(cmd: Command): Command[] {
  return cmd.commands.flatMap((c) => [c, ...allCommands(c)]);
}

function wantsJson(argv: string[], env: NodeJS.ProcessEnv, deps: Deps | undefined): boolean {
  if (deps) {
    try {
      return deps.settings().output === "json" || deps.settings().output === "ndjson";
    } catch {
      // fall through to a plain reading of the flags
    }
  }
  const i = argv.findIndex((a) => a === "-o" || a === "--output");
  const flag = argv.find((a) => a.startsWith("--output="))?.slice(9) ?? (i >= 0 ? argv[i + 1] : undefined);
  const v = flag ?? (argv.includes("--json") ? "json" : env.RENTCTL_OUTPUT);
  return v === "json" || v === "ndjson";
}

async function report(
  err: unknown,
  io: IO,
  env: NodeJS.ProcessEnv,
  argv: string[],
  deps: Deps | undefined,
): Promise<number> {
  const { colorEnabled, makeChalk } = await import("./output/color.js");
  const code = exitCodeOf(err);
  if (code === EXIT.interrupted) {
    io.stderr.write("\n");
    return code;
  }
  if (code === EXIT.drift) return code; // `vehicle diff` found changes: the plan on stdout says it all
  const c = makeChalk(colorEnabled(deps?.flags.color, env, io.stderrTTY));
  if (wantsJson(argv, env, deps)) {
    const e = err instanceof RentctlError ? err : undefined;
    const obj = {
      error: {
        kind: e?.kind ?? "internal",
        message: e ? e.message : `unexpected: ${(err as Error)?.message ?? String(err)}`,
        exit_code: code,
        ...(e && "status" in e && e.status !== undefined ? { status: e.status } : {}),
        ...(e?.details.length ? { details: e.details } : {}),
        ...(e?.hint ? { hint: e.hint } : {}),
      },
    };
    io.stderr.write(`${JSON.stringify(obj)}\n`);
    return code;
  }
  if (err instanceof RentctlError) {
    const { formatError } = await import("./output/error.js");
    io.stderr.write(formatError(err, c));
    return code;
  }
  const e = err as Error;
  io.stderr.write(`${c.red("error:")} unexpected: ${e?.message ?? String(err)}\n`);
  if (deps?.flags.verbose && e?.stack) io.stderr.write(`${e.stack}\n`);
  else io.stderr.write(`${c.dim("this is a bug in rentctl; run with --verbose for the stack trace")}\n`);
  return EXIT.internal;
}

/** The process entry: the only place that exits. */
export async function run(): Promise<void> {
  const argv = process.argv.slice(2);
  // Scripts ask for the version often: answer it before loading the command tree.
  if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
    const { VERSION } = await import("./version.js");
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

/**
 * Every command's help page as `main` prints it for `… --help` at the static
 * width: what scripts/build.mjs writes to dist/help/ for src/boot.ts to print
 * without loading the command tree. Keys are command paths joined with "."
 * ("" for the root).
 */
export async function helpPages(): Promise<Map<string, string>> {
  const [{ Writable, PassThrough }, { buildProgram }, { STATIC_HELP_WIDTH }] = await Promise.all([
    import("node:stream"),
    import("./cli/program.js"),
    import("./cli/help-width.js"),
  ]);
  const columns = process.env.COLUMNS;
  process.env.COLUMNS = String(STATIC_HELP_WIDTH);
  try {
    const tree = await buildProgram({
      makeDeps: () => Promise.reject(new Error("help pages run no command")),
    });
    const paths: string[][] = [];
    const walk = (cmd: Command, path: string[]) => {
      paths.push(path);
      for (const sub of cmd.commands) {
        walk(sub, [...path, sub.name()]);
        for (const alias of sub.aliases()) paths.push([...path, alias]);
      }
    };
    walk(tree, []);
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
      const code = await main([...path, "--help"], { io, env: {} });
      if (code !== 0) throw new Error(`rentctl ${path.join(" ")} --help exited ${code}`);
      pages.set(path.join("."), out);
    }
    return pages;
  } finally {
    if (columns === undefined) delete process.env.COLUMNS;
    else process.env.COLUMNS = columns;
  }
}
