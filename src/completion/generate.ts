import type { Command } from "commander";
import { bashScript } from "./bash.js";
import { fishScript } from "./fish.js";
import { buildModel, type CompletionModel } from "./model.js";
import { rentctlRules, SHELLS, type Shell } from "./values.js";
import { zshScript } from "./zsh.js";

export { SHELLS, type Shell };

export function isShell(s: string | undefined): s is Shell {
  return (SHELLS as readonly string[]).includes(s ?? "");
}

/** The completion model of a program (the root command), with rentctl's value rules. */
export function completionModel(program: Command): CompletionModel {
  let root = program;
  while (root.parent) root = root.parent;
  return buildModel(root, rentctlRules);
}

/** The completion script for a shell, generated from the program's command tree. */
export function completionScript(program: Command, shell: Shell): string {
  const model = completionModel(program);
  switch (shell) {
    case "bash":
      return bashScript(model);
    case "zsh":
      return zshScript(model);
    case "fish":
      return fishScript(model);
  }
}

/** Where the generated scripts are checked in, relative to the repository root. */
export const SCRIPT_FILES: Readonly<Record<Shell, string>> = {
  bash: "completions/rentctl.bash",
  zsh: "completions/_rentctl",
  fish: "completions/rentctl.fish",
};
