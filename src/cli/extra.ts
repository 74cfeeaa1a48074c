import { Command } from "commander";
import { addVerbTable, type VerbRow } from "./assemble.js";
import type { CliContext } from "./shared.js";

/** The verbs of `rentctl extra`, in help order: each declared in src/commands/extra/<verb>.ts. */
const VERBS: readonly VerbRow[] = [
  "options",
  "list",
  { words: ["get", "show"] },
  "create",
  "update",
  { words: ["enable", "disable"], exports: ["enableVerb", "disableVerb"] },
  "switch",
  { words: ["delete", "remove", "rm"], file: "remove" },
];

/** `rentctl extra`: its command table (each verb's module loaded when the verb runs). */
export function extraCommand(ctx: CliContext, verb?: string): Promise<Command> {
  return addVerbTable(ctx, new Command("extra"), VERBS, verb);
}
