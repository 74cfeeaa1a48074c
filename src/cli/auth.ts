import { Command } from "commander";
import { addVerbTable } from "./assemble.js";
import type { CliContext } from "./shared.js";

/** `rentctl auth`: its command table (each verb's module, src/commands/auth/<verb>.ts, loaded when it runs). */
export function authCommand(ctx: CliContext, verb?: string): Promise<Command> {
  return addVerbTable(ctx, new Command("auth"), ["login", "status", "logout", "migrate"], verb);
}

/** `rentctl profile`: its command table (src/commands/profile/<verb>.ts). */
export function profileCommand(ctx: CliContext, verb?: string): Promise<Command> {
  return addVerbTable(ctx, new Command("profile"), ["list", "show", "use", "set", "remove"], verb);
}
