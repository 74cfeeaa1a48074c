import type { Command } from "commander";
import { completionScript, isShell, SHELLS } from "../../completion/generate.js";
import { completionValues } from "../../completion/provide.js";
import type { Deps } from "../../deps.js";
import { UsageError } from "../../errors.js";

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

/** `rentctl completion __complete KIND [ARGS…]`: dynamic values for the scripts, one per line. */
export async function printValues(deps: Deps, kind: string, args: readonly string[]): Promise<void> {
  const values = await completionValues(deps, kind, args);
  if (values.length) await write(deps, `${values.join("\n")}\n`);
}

function write(deps: Deps, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    deps.io.stdout.write(text, (err) => (err ? reject(err) : resolve()));
  });
}
