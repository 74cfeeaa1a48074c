import type { Command } from "commander";
import { verbs } from "../commands/catalog/show.js";
import { nounCommand } from "./assemble.js";
import { type CliContext, examples } from "./shared.js";

export function catalogCommand(ctx: CliContext): Command {
  return nounCommand(ctx, "catalog", verbs).addHelpText(
    "after",
    examples(
      "rentctl catalog currencies -o json",
      "rentctl catalog brands --segment cars",
      "rentctl catalog models --brand toyota",
      "rentctl catalog equipments --brand toyota --model corolla",
      "rentctl catalog classes --segment 2 --locale 40",
    ),
  );
}
