import { Command } from "commander";
import type { GlobalFlags } from "../config/settings.js";
import { type CliContext, examples, lazyAction } from "./shared.js";

/** `rentctl completion bash|zsh|fish`, and the hidden `completion __complete` the scripts call for dynamic values. */
export function completionCommand(ctx: CliContext): Command {
  const cmd = new Command("completion")
    .description("Print the shell completion script for bash, zsh or fish")
    .usage("<bash|zsh|fish>")
    .argument("[shell]", "bash, zsh or fish")
    .addHelpText(
      "after",
      examples(
        "source <(rentctl completion bash)",
        "rentctl completion bash > ~/.local/share/bash-completion/completions/rentctl",
        "rentctl completion zsh > ~/.zfunc/_rentctl   # a directory on $fpath",
        "rentctl completion fish > ~/.config/fish/completions/rentctl.fish",
      ),
    )
    .action(
      lazyAction(ctx, async (deps, args: [string | undefined], _opts, c) => {
        const { printScript } = await import("../commands/completion/completion.js");
        await printScript(deps, args[0], c);
      }),
    );
  cmd
    .command("__complete", { hidden: true })
    .description("Print dynamic completion values, one per line (used by the completion scripts)")
    .argument("<kind>", "profiles | catalog")
    .argument("[args...]")
    .option("--ids", "catalog ids instead of names")
    .action(async (kind: string, args: string[], opts: { ids?: boolean }, c: Command) => {
      const flags = c.optsWithGlobals() as GlobalFlags;
      // A TAB press must not hang: a short bound for the opt-in fetch of a catalog.
      const deps = await ctx.makeDeps({ ...flags, timeout: flags.timeout ?? "3" });
      const { printValues } = await import("../commands/completion/completion.js");
      await printValues(deps, kind, opts.ids ? [...args, "--ids"] : args);
    });
  return cmd;
}
