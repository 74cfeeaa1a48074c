import { Command } from "commander";
import { addVerbTable } from "./assemble.js";
import type { CliContext } from "./shared.js";

/** `rentctl sandbox`: its command table (src/commands/sandbox/<verb>.ts, each loaded when it runs). */
export function sandboxCommand(ctx: CliContext, verb?: string): Promise<Command> {
  return addVerbTable(ctx, new Command("sandbox"), ["serve", "reset", "repair", "info"], verb);
}
