import type { Command } from "commander";
import { verb as info } from "../commands/sandbox/info.js";
import { verb as repair } from "../commands/sandbox/repair.js";
import { verb as reset } from "../commands/sandbox/reset.js";
import { verb as serve } from "../commands/sandbox/serve.js";
import { nounCommand } from "./assemble.js";
import type { CliContext } from "./shared.js";

export function sandboxCommand(ctx: CliContext): Command {
  return nounCommand(ctx, "sandbox", [serve, reset, repair, info]);
}
