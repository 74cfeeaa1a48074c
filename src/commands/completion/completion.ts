import type { Command } from "commander";
import { UsageError } from "../../base/errors.js";
import { completionScript, isShell, SHELLS } from "../../completion/generate.js";
import type { Deps } from "../../deps.js";
import { arg } from "../flags.js";
import { defineVerb } from "../verb.js";

export const verb = defineVerb({
  name: "completion",
  description: "Print the shell completion script for bash, zsh or fish",
  usage: "<bash|zsh|fish>",
  args: { shell: arg.optional("bash, zsh or fish") },
  examples: [
    "source <(rentctl completion bash)",
    "mkdir -p ~/.local/share/bash-completion/completions && rentctl completion bash > ~/.local/share/bash-completion/completions/rentctl",
    "mkdir -p ~/.zfunc && rentctl completion zsh > ~/.zfunc/_rentctl   # a directory on $fpath",
    "mkdir -p ~/.config/fish/completions && rentctl completion fish > ~/.config/fish/completions/rentctl.fish",
  ],
  run: (deps, args, _opts, host) => printScript(deps, args.shell, host.command),
});

/** `rentctl completion SHELL`: the script generated from this program's command tree. */
export async function printScript(deps: Deps, shell: string | undefined, cmd: Command): Promise<void> {
  if (!isShell(shell)) {
    throw new UsageError(
      shell === undefined ? "name a shell: bash, zsh or fish" : `unknown shell ${JSON.stringify(shell)}`,
      { hint: `choose one of ${SHELLS.join(", ")}, e.g. \`source <(rentctl completion bash)\`` },
    );
  }
  await write(deps, completionScript(cmd, shell));
}

export function write(deps: Deps, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    deps.io.stdout.write(text, (err) => (err ? reject(err) : resolve()));
  });
}
