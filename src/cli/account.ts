import { Command } from "commander";
import { addVerbTable } from "./assemble.js";
import type { CliContext } from "./shared.js";

/**
 * `rentctl account`: the whole account (extras and vehicles) as one file; its
 * command table (src/commands/account/<verb>.ts, each loaded when it runs).
 */
export function accountCommand(ctx: CliContext, verb?: string): Promise<Command> {
  return addVerbTable(ctx, new Command("account"), ["export", "diff", "apply", "schema"], verb);
}
