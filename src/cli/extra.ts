import { Command } from "commander";
import { verb as create } from "../commands/extra/create.js";
import { verb as get } from "../commands/extra/get.js";
import { verb as list } from "../commands/extra/list.js";
import { verb as options } from "../commands/extra/options.js";
import { verb as update } from "../commands/extra/update.js";
import { addVerbs } from "./assemble.js";
import { type CliContext, lazyAction } from "./shared.js";

export function extraCommand(ctx: CliContext): Command {
  const cmd = new Command("extra").description("Manage the account's paid extras (child seats, GPS, …)");
  addVerbs(ctx, cmd, [options, list, get, create, update]);
  cmd
    .command("switch")
    .argument("<id>", "extra id")
    .description("Toggle an extra on or off; prints the resulting state")
    .action(
      lazyAction(ctx, async (deps, a: [string]) =>
        (await import("../commands/extra/switch.js")).switchExtra(deps, a[0]),
      ),
    );
  cmd
    .command("delete")
    .argument("<id>", "extra id")
    .description("Delete an extra (asks on a terminal; --yes in scripts; undo with `rentctl undo`)")
    .action(
      lazyAction(ctx, async (deps, a: [string]) => (await import("../commands/extra/remove.js")).remove(deps, a[0])),
    );
  return cmd;
}
