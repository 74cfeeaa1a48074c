import type { Command } from "commander";
import { verb as upload } from "../commands/image/upload.js";
import { nounCommand } from "./assemble.js";
import type { CliContext } from "./shared.js";

export function imageCommand(ctx: CliContext): Command {
  return nounCommand(ctx, "image", [upload]);
}
