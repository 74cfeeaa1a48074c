import type { Command } from "commander";
import { verb } from "../commands/lint/lint.js";
import { verbCommand } from "./assemble.js";
import type { CliContext } from "./shared.js";

/** `rentctl lint`: one verb, the noun itself (src/commands/lint/lint.ts). */
export function lintCommand(ctx: CliContext): Command {
  return verbCommand(ctx, verb);
}
