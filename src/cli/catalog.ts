import { Command } from "commander";
import { CATALOG_OPERATIONS } from "../contract/operations.js";
import { type CliContext, examples, lazyAction } from "./shared.js";

export function catalogCommand(ctx: CliContext): Command {
  const cmd = new Command("catalog")
    .description("Read the public reference catalogs (no API key needed)")
    .addHelpText(
      "after",
      examples(
        "rentctl catalog currencies -o json",
        "rentctl catalog brands --segment cars",
        "rentctl catalog models --brand toyota",
        "rentctl catalog equipments --brand toyota --model corolla",
        "rentctl catalog classes --segment 2 --locale 40",
      ),
    );
  for (const op of CATALOG_OPERATIONS) {
    const sub = new Command(op.catalogName!).description(op.summary);
    const has = (n: string) => op.params.find((p) => p.name === n);
    const seg = has("segment_id");
    if (seg || has("brand_id")) {
      sub.option(
        "--segment <id|name>",
        seg?.required
          ? "segment id or name (required by the API; rentctl sends 1 = cars when omitted)"
          : "segment id or name (default 1 = cars)",
      );
    }
    if (has("brand_id")) sub.requiredOption("--brand <id|name>", "brand id or name (required)");
    if (has("model_id")) {
      sub.requiredOption("--model <id|name>", "model id or name (required; a name needs --brand)");
      sub.option("--brand <id|name>", "brand, to resolve a model name");
    }
    sub.action(
      lazyAction(ctx, async (deps, _args, opts) => {
        const { run } = await import("../commands/catalog/show.js");
        await run(deps, {
          op: op.id,
          segment: opts.segment as string | undefined,
          brand: opts.brand as string | undefined,
          model: opts.model as string | undefined,
        });
      }),
    );
    cmd.addCommand(sub);
  }
  return cmd;
}
