import type { Command } from "commander";
import { verb } from "../commands/undo/undo.js";
import { verbCommand } from "./assemble.js";
import type { CliContext } from "./shared.js";

export function undoCommand(ctx: CliContext): Command {
  return verbCommand(ctx, verb);
}
