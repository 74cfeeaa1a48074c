import { Command } from "commander";
import { type CliContext, collect, examples, lazyAction } from "./shared.js";

export function apiCommand(ctx: CliContext): Command {
  return new Command("api")
    .description("Call any v302 operation raw, with the same auth, encoding, errors and exit codes")
    .argument("[path]", "operation path, with or without /api/v302 (e.g. vehicles/brands)")
    .option("-X, --method <method>", "HTTP method (default GET, or POST when -F is given)")
    .option(
      "-f, --field <key=value>",
      "add a field: query for GET, form body for POST (repeat; a repeated key is an array)",
      collect,
    )
    .option("-F, --file <key=@file>", "attach a file as a multipart part (repeat)", collect)
    .option("--list", "list the operations of the contract")
    .addHelpText(
      "after",
      examples(
        "rentctl api --list",
        "rentctl api vehicles/brands -f segment_id=1",
        "rentctl api vehicles/list -f user_id=1001 -f locale_id=40 -f limit=5",
        "rentctl api vehicles/extras/switch -X POST -f extra_id=3",
        "rentctl api vehicles/upload -f user_id=1001 -F file=@car.jpg -F file=@back.jpg",
      ),
    )
    .action(
      lazyAction(ctx, async (deps, args: [string | undefined], opts) => {
        const { run } = await import("../commands/api/request.js");
        await run(deps, {
          path: args[0],
          method: opts.method as string | undefined,
          fields: opts.field as string[] | undefined,
          files: opts.file as string[] | undefined,
          list: Boolean(opts.list),
        });
      }),
    );
}
