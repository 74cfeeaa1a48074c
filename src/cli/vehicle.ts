import { Command } from "commander";
import { addVerbTable, type VerbRow } from "./assemble.js";
import type { CliContext } from "./shared.js";

/** The verbs of `rentctl vehicle`, in help order: each declared in src/commands/vehicle/<verb>.ts. */
const VERBS: readonly VerbRow[] = [
  "list",
  { words: ["get", "show"] },
  "create",
  "wizard",
  "edit",
  { words: ["remove", "delete", "rm"] },
  { words: ["activate", "deactivate"], exports: ["activateVerb", "deactivateVerb"] },
  "calendar",
  "export",
  "import",
  "diff",
  "apply",
  "schema",
];

/** `rentctl vehicle`: its command table (each verb's module loaded when the verb runs). */
export function vehicleCommand(ctx: CliContext, verb?: string): Promise<Command> {
  return addVerbTable(ctx, new Command("vehicle"), VERBS, verb);
}
