import type { Command } from "commander";
import { verb as complete } from "../commands/completion/complete.js";
import { verb as completion } from "../commands/completion/completion.js";
import { addVerbs, verbCommand } from "./assemble.js";
import type { CliContext } from "./shared.js";

/** `rentctl completion bash|zsh|fish`, and the hidden `completion __complete` the scripts call for dynamic values. */
export function completionCommand(ctx: CliContext): Command {
  return addVerbs(ctx, verbCommand(ctx, completion), [complete]);
}
