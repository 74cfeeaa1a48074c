import type { Command } from "commander";
import { verb } from "../mcp/verb.js";
import { verbCommand } from "./assemble.js";
import type { CliContext } from "./shared.js";

export function mcpCommand(ctx: CliContext): Command {
  return verbCommand(ctx, verb);
}
