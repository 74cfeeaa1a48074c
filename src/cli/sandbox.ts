import { Command } from "commander";
import { type CliContext, examples, lazyAction } from "./shared.js";

export function sandboxCommand(ctx: CliContext): Command {
  const cmd = new Command("sandbox").description(
    "The built-in sandbox: a local, stateful stand-in for the marketplace's v302 API (not the marketplace)",
  );
  cmd
    .command("serve")
    .description("Run the sandbox as an HTTP server until Ctrl-C")
    .option("--host <host>", "address to listen on", "127.0.0.1")
    .option("--port <port>", "port (0 = any free port)", "4010")
    .option("--data <file>", "data file (default: the sandbox file in the user data directory)")
    .option("--memory", "keep state in memory only")
    .option("--latency <ms>", "delay every answer by MS milliseconds")
    .option("--fail-rate <r>", "answer this share of requests (0-1) with a 5xx JSON error")
    .option("--html502-rate <r>", "answer this share with a 502 HTML page")
    .option("--reset-rate <r>", "drop this share of connections without an answer")
    .option("--throttle-rate <r>", "answer this share with 429 and Retry-After")
    .option("--retry-after <s>", "Retry-After seconds for 429", "1")
    .option("--fault-first <n>", "apply the fault switches to the first N requests only")
    .addHelpText(
      "after",
      examples(
        "rentctl sandbox serve",
        "rentctl sandbox serve --port 0 --memory",
        "rentctl sandbox serve --latency 200 --fail-rate 0.1",
        "RENTCTL_ENV=sandbox RENTCTL_BASE_URL=http://127.0.0.1:4010 rentctl vehicle list",
      ),
    )
    .action(
      lazyAction(ctx, async (deps, _a, opts) => {
        const { serve } = await import("../commands/sandbox/serve.js");
        await serve(deps, opts);
      }),
    );
  cmd
    .command("reset")
    .description("Reset the sandbox data file to the seed data")
    .option("--data <file>", "data file (default: the sandbox file in the user data directory)")
    .action(
      lazyAction(ctx, async (deps, _a, opts) => {
        const { reset } = await import("../commands/sandbox/reset.js");
        await reset(deps, opts);
      }),
    );
  cmd
    .command("repair")
    .description("Repair a damaged sandbox data file: keep every record before the damage, move the damaged file aside")
    .option("--data <file>", "data file (default: the sandbox file in the user data directory)")
    .addHelpText("after", examples("rentctl sandbox repair", "rentctl sandbox repair --data ./sandbox.json"))
    .action(
      lazyAction(ctx, async (deps, _a, opts) => {
        const { repair } = await import("../commands/sandbox/repair.js");
        await repair(deps, opts);
      }),
    );
  cmd
    .command("info")
    .description("Show the sandbox's data file, running address and demo owners with their keys")
    .option("--data <file>", "data file (default: the sandbox file in the user data directory)")
    .action(
      lazyAction(ctx, async (deps, _a, opts) => {
        const { info } = await import("../commands/sandbox/info.js");
        await info(deps, opts);
      }),
    );
  return cmd;
}
