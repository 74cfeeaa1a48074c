import type { Command } from "commander";
import type { GlobalFlags } from "../config/settings.js";
import type { Deps } from "../deps.js";

/** What the program builder needs from main: a way to build a command's deps. */
export interface CliContext {
  makeDeps(flags: GlobalFlags): Promise<Deps>;
}

/** Repeatable option collector. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
/** Completion reads this mark to know the flag may be repeated (see completion/model.ts). */
collect.repeatable = true;

/**
 * Wire a command to a lazily imported handler: nothing of the handler's
 * module (or its heavy dependencies) loads until the command runs.
 */
export function lazyAction<A extends unknown[]>(
  ctx: CliContext,
  handler: (deps: Deps, args: A, opts: Record<string, unknown>, cmd: Command) => Promise<void>,
) {
  return async (...all: unknown[]) => {
    const cmd = all[all.length - 1] as Command;
    const args = all.slice(0, -2) as A;
    const opts = cmd.opts();
    const deps = await ctx.makeDeps(cmd.optsWithGlobals() as GlobalFlags);
    await handler(deps, args, opts, cmd);
  };
}

export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  ${l}`).join("\n")}\n`;
}
