import { Command } from "commander";
import { verb as apply } from "../commands/account/apply.js";
import { verb as diff } from "../commands/account/diff.js";
import { verb as exportVerb } from "../commands/account/export.js";
import { verb as schema } from "../commands/account/schema.js";
import { addVerbs } from "./assemble.js";
import type { CliContext } from "./shared.js";

/** `rentctl account`: the whole account (extras and vehicles) as one file (src/commands/account/<verb>.ts). */
export function accountCommand(ctx: CliContext): Command {
  const cmd = new Command("account").description(
    "The whole account (extras and vehicles) as one file: export, diff, apply, schema",
  );
  addVerbs(ctx, cmd, [exportVerb, diff, apply, schema]);
  return cmd;
}
