import { EXIT, exitCodeOf, RentctlError, StalePlanError } from "../base/errors.js";
import type { IO } from "../base/io.js";
import type { Deps } from "../deps.js";
import { colorEnabled, makeChalk } from "../output/color.js";
import { formatError } from "../output/error.js";
import { argvWantsJson } from "./argv.js";

export interface ReportContext {
  io: IO;
  env: NodeJS.ProcessEnv;
  argv: readonly string[];
  /** The command's Deps, when it got that far (its settings say json or not, its flags colour and --verbose). */
  deps?: Deps;
}

/** A text member of whatever was thrown (an Error's message or stack; anything else may have one too). */
function member(err: unknown, name: "message" | "stack"): string | undefined {
  if (typeof err !== "object" || err === null || !(name in err)) return undefined;
  const v: unknown = Reflect.get(err, name);
  return typeof v === "string" ? v : undefined;
}

function wantsJson(c: ReportContext): boolean {
  if (c.deps) {
    try {
      const output = c.deps.settings().output;
      return output === "json" || output === "ndjson";
    } catch {
      // settings that cannot be resolved: fall through to a plain reading of the flags
    }
  }
  return argvWantsJson(c.argv, c.env);
}

/**
 * Report a failed command on stderr and return its exit code. Every expected
 * failure is one `error:` line (plus details and a hint), or a
 * `{"error": …}` object with json output; the only stack trace is for a real
 * bug, and only with --verbose.
 */
export async function reportError(err: unknown, c: ReportContext): Promise<number> {
  const { io, env, deps } = c;
  const code = exitCodeOf(err);
  if (code === EXIT.interrupted) {
    io.stderr.write("\n");
    return code;
  }
  if (code === EXIT.terminated) return code; // a clean stop asked for: nothing to report
  // `vehicle diff` found changes: the plan on stdout says it all (a stale saved plan is said, below)
  if (code === EXIT.drift && !(err instanceof StalePlanError)) return code;
  const color = makeChalk(colorEnabled(deps?.flags.color, env, io.stderrTTY));
  const e = err instanceof RentctlError ? err : undefined;
  const message = member(err, "message") ?? String(err);
  if (wantsJson(c)) {
    const obj = {
      error: {
        kind: e?.kind ?? "internal",
        message: e ? e.message : `unexpected: ${message}`,
        exit_code: code,
        ...(e && "status" in e && e.status !== undefined ? { status: e.status } : {}),
        ...(e?.details.length ? { details: e.details } : {}),
        ...(e?.hint ? { hint: e.hint } : {}),
      },
    };
    io.stderr.write(`${JSON.stringify(obj)}\n`);
    return code;
  }
  if (e) {
    io.stderr.write(formatError(e, color));
    return code;
  }
  io.stderr.write(`${color.red("error:")} unexpected: ${message}\n`);
  const stack = member(err, "stack");
  if (deps?.flags.verbose && stack) io.stderr.write(`${stack}\n`);
  else io.stderr.write(`${color.dim("this is a bug in rentctl; run with --verbose for the stack trace")}\n`);
  return EXIT.internal;
}
