import { type Command, CommanderError } from "commander";
import { EXIT } from "../base/errors.js";
import type { IO } from "../base/io.js";
import { argvWantsJson, normalizeArgv } from "./argv.js";
import { buildProgram } from "./program.js";
import type { CliContext } from "./shared.js";

/**
 * Build the program for argv and run the command it names, with all output
 * on `io`. Resolves to the exit code of what commander settled itself (0 for
 * help and --version, 2 for a usage error it already printed); a command's
 * own failure is thrown, for main to report.
 */
export async function runProgram(
  ctx: CliContext,
  argv: readonly string[],
  io: IO,
  env: NodeJS.ProcessEnv = {},
): Promise<number> {
  const program = await buildProgram(ctx, argv);
  const json = argvWantsJson(argv, env);
  for (const cmd of [program, ...allCommands(program)]) {
    cmd.exitOverride();
    cmd.configureOutput({
      writeOut: (s: string) => io.stdout.write(s),
      writeErr: (s: string) => io.stderr.write(s),
      outputError: (s: string, write: (t: string) => void) =>
        write(json ? usageJson(s) : cmd === program && !s.startsWith("error:") ? `error: ${s}` : s),
    });
  }
  try {
    await program.parseAsync(await normalizeArgv(argv), { from: "user" });
    return EXIT.ok;
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    // commander already printed its one-line message; help and version are not errors
    return err.exitCode === 0 || err.code === "commander.helpDisplayed" || err.code === "commander.version"
      ? EXIT.ok
      : EXIT.usage;
  }
}

/**
 * A usage error commander found, as the one JSON object every other error is
 * with json output (src/cli/report-error.ts): its first line the message, a
 * "(Did you mean …?)" line the hint.
 */
function usageJson(text: string): string {
  const [first = "", ...rest] = text.trim().split("\n");
  const hint = rest
    .map((l) => l.trim().replace(/^\((.*)\)$/, "$1"))
    .filter(Boolean)
    .join(" ");
  const error = {
    kind: "usage",
    message: first.replace(/^error:\s*/, ""),
    exit_code: EXIT.usage,
    ...(hint ? { hint } : {}),
  };
  return `${JSON.stringify({ error })}\n`;
}

function allCommands(cmd: Command): Command[] {
  return cmd.commands.flatMap((c) => [c, ...allCommands(c)]);
}
