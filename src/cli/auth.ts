import { Command } from "commander";
import { type CliContext, examples, lazyAction } from "./shared.js";

export function authCommand(ctx: CliContext): Command {
  const cmd = new Command("auth").description("Log in with an API key, check it, log out");
  cmd
    .command("login")
    .description("Save a profile with its environment, base address, owner id and API key (the key is checked first)")
    .option("--with-token", "read the API key from stdin instead of a hidden prompt")
    .option("--no-verify", "save without checking the key against the API")
    .addHelpText(
      "after",
      examples(
        "rentctl auth login --env production --base-url https://partner.example --user 1001",
        'printf %s "$RENTAL_KEY" | rentctl auth login --with-token --env test --base-url https://test.example --user 1001',
        "rentctl auth login --profile staging --env test --base-url https://test.example --user 1001",
      ),
    )
    .action(
      lazyAction(ctx, async (deps, _a, opts) => {
        const { run } = await import("../commands/auth/login.js");
        await run(deps, { withToken: Boolean(opts.withToken), verify: opts.verify as boolean });
      }),
    );
  cmd
    .command("status")
    .description("Show the profile, environment, owner and masked key in force, and check the key")
    .option("--no-verify", "do not call the API")
    .action(
      lazyAction(ctx, async (deps, _a, opts) => {
        const { run } = await import("../commands/auth/status.js");
        await run(deps, { verify: opts.verify as boolean });
      }),
    );
  cmd
    .command("logout")
    .description("Remove the key of the current (or --profile) profile")
    .action(
      lazyAction(ctx, async (deps) => {
        const { run } = await import("../commands/auth/logout.js");
        await run(deps);
      }),
    );
  return cmd;
}

export function profileCommand(ctx: CliContext): Command {
  const cmd = new Command("profile").description("Manage saved profiles (environment, address, owner, key)");
  const load = () => import("../commands/profile/profile.js");
  cmd
    .command("list")
    .description("List profiles (keys masked)")
    .action(lazyAction(ctx, async (deps) => (await load()).list(deps)));
  cmd
    .command("show")
    .argument("[name]", "profile (default: the current one)")
    .description("Show one profile (key masked)")
    .action(lazyAction(ctx, async (deps, a: [string | undefined]) => (await load()).show(deps, a[0])));
  cmd
    .command("use")
    .argument("<name>")
    .description("Make a profile current")
    .action(lazyAction(ctx, async (deps, a: [string]) => (await load()).use(deps, a[0])));
  cmd
    .command("set")
    .argument("<key>", "env | base-url | user | locale | output | timeout")
    .argument("<value>")
    .description("Set a value in the current (or --profile) profile")
    .addHelpText(
      "after",
      examples("rentctl profile set base-url https://test.example", "rentctl -p staging profile set user 1002"),
    )
    .action(lazyAction(ctx, async (deps, a: [string, string]) => (await load()).set(deps, a[0], a[1])));
  cmd
    .command("remove")
    .argument("<name>")
    .description("Remove a profile and its key (asks first; --yes in scripts)")
    .action(lazyAction(ctx, async (deps, a: [string]) => (await load()).remove(deps, a[0])));
  return cmd;
}
