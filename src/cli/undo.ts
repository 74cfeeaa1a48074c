import { Command } from "commander";
import { type CliContext, examples, lazyAction } from "./shared.js";

export function undoCommand(ctx: CliContext): Command {
  return new Command("undo")
    .argument("[op]", "journal entry to restore")
    .description("List recent edits and removals, or restore one (a removed vehicle is re-created with a new id)")
    .option("--limit <n>", "entries to list", "20")
    .addHelpText("after", examples("rentctl undo", "rentctl undo 12"))
    .action(
      lazyAction(ctx, async (deps, a: [string | undefined], o) => {
        const { run } = await import("../commands/undo/undo.js");
        await run(deps, a[0], { limit: o.limit as string | undefined });
      }),
    );
}
