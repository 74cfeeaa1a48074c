import { Command, Option } from "commander";
import { EXTRA_FIELD_FLAGS, EXTRA_FIELDS } from "../contract/extra-fields.js";
import { type CliContext, collect, examples, lazyAction } from "./shared.js";

function addExtraFlags(cmd: Command): Command {
  for (const f of EXTRA_FIELDS) {
    const flag = EXTRA_FIELD_FLAGS[f.name];
    if (!flag) continue;
    const takesName = f.catalog === "catalog.extra_options" || f.catalog === "catalog.currencies";
    cmd.addOption(new Option(`--${flag} <${takesName ? "id|name" : "n"}>`, `${f.description} (wire name ${f.name})`));
  }
  cmd.option("--set <name=value>", "send a member by its exact wire name (repeat)", collect);
  cmd.option("--from-file <file>", "read members (wire names) from a JSON or YAML file, or - for stdin");
  cmd.option("--strict", "refuse members that are not contract fields (default: warn and send them as given)");
  return cmd;
}

function sources(o: Record<string, unknown>) {
  const flags: Record<string, unknown> = {};
  for (const [wire, flag] of Object.entries(EXTRA_FIELD_FLAGS)) if (o[flag] !== undefined) flags[wire] = o[flag];
  return {
    fromFile: o.fromFile as string | undefined,
    sets: o.set as string[] | undefined,
    flags,
    strict: Boolean(o.strict),
  };
}

export function extraCommand(ctx: CliContext): Command {
  const cmd = new Command("extra").description("Manage the account's paid extras (child seats, GPS, …)");
  cmd
    .command("options")
    .description("List the extra option types (public catalog)")
    .action(lazyAction(ctx, async (deps) => (await import("../commands/extra/options.js")).options(deps)));
  cmd
    .command("list")
    .description("List the account's extras")
    .option("--limit <n>", "extras per page (default 15; 100 with --all)")
    .option("--offset <n>", "extras to skip")
    .option("--page <n>", "page number (1-based)")
    .option("--all", "walk every page")
    .action(lazyAction(ctx, async (deps, _a, o) => (await import("../commands/extra/list.js")).list(deps, o)));
  cmd
    .command("get")
    .argument("<id>", "extra id")
    .description("Show one extra")
    .action(lazyAction(ctx, async (deps, a: [string]) => (await import("../commands/extra/get.js")).get(deps, a[0])));
  addExtraFlags(
    cmd
      .command("create")
      .description("Create an extra")
      .addHelpText(
        "after",
        examples("rentctl extra create --option 'child seat' --price 8 --currency EUR --period 1 --quantity 2"),
      ),
  ).action(
    lazyAction(ctx, async (deps, _a, o) => (await import("../commands/extra/create.js")).create(deps, sources(o))),
  );
  addExtraFlags(
    cmd
      .command("update")
      .argument("<id>", "extra id")
      .description("Change an extra safely: reads it and sends every member (the API replaces the whole extra)")
      .option("--replace", "send exactly the members given")
      .addHelpText(
        "after",
        examples("rentctl extra update 7 --price 12", "rentctl extra update 7 --quantity 4 --dry-run"),
      ),
  ).action(
    lazyAction(ctx, async (deps, a: [string], o) =>
      (await import("../commands/extra/update.js")).update(deps, a[0], { ...sources(o), replace: Boolean(o.replace) }),
    ),
  );
  cmd
    .command("switch")
    .argument("<id>", "extra id")
    .description("Toggle an extra on or off; prints the resulting state")
    .action(
      lazyAction(ctx, async (deps, a: [string]) =>
        (await import("../commands/extra/switch.js")).switchExtra(deps, a[0]),
      ),
    );
  cmd
    .command("delete")
    .argument("<id>", "extra id")
    .description("Delete an extra (asks on a terminal; --yes in scripts; undo with `rentctl undo`)")
    .action(
      lazyAction(ctx, async (deps, a: [string]) => (await import("../commands/extra/remove.js")).remove(deps, a[0])),
    );
  return cmd;
}
