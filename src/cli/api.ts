import type { Command } from "commander";
import { verb } from "../commands/api/request.js";
import { verbCommand } from "./assemble.js";
import type { CliContext } from "./shared.js";

export function apiCommand(ctx: CliContext): Command {
  return verbCommand(ctx, verb);
}
