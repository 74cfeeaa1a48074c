import { Command } from "commander";
import { verb as create } from "../commands/extra/create.js";
import { disableVerb, enableVerb } from "../commands/extra/enable.js";
import { verb as get } from "../commands/extra/get.js";
import { verb as list } from "../commands/extra/list.js";
import { verb as options } from "../commands/extra/options.js";
import { verb as remove } from "../commands/extra/remove.js";
import { verb as switchVerb } from "../commands/extra/switch.js";
import { verb as update } from "../commands/extra/update.js";
import { addVerbs } from "./assemble.js";
import type { CliContext } from "./shared.js";

/** `rentctl extra`: its verbs, in help order (each declared in src/commands/extra/<verb>.ts). */
export function extraCommand(ctx: CliContext): Command {
  const cmd = new Command("extra").description("Manage the account's paid extras (child seats, GPS, …)");
  addVerbs(ctx, cmd, [options, list, get, create, update, enableVerb, disableVerb, switchVerb, remove]);
  return cmd;
}
