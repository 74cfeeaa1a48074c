import { Command } from "commander";
import { readFlags } from "../commands/flags.js";
import { verb as create } from "../commands/vehicle/create.js";
import { verb as diff, fleetFileFlags } from "../commands/vehicle/diff.js";
import { verb as exportVerb } from "../commands/vehicle/export.js";
import { verb as get } from "../commands/vehicle/get.js";
import { hasRelative, vehicleInput, vehicleInputFlags } from "../commands/vehicle/input-flags.js";
import { verb as list } from "../commands/vehicle/list.js";
import { verb as wizard } from "../commands/vehicle/wizard.js";
import { UsageError } from "../errors.js";
import { addFlags, addVerbs } from "./assemble.js";
import { type CliContext, collect, examples, lazyAction } from "./shared.js";

// vehicle list, get, create, wizard, export and diff are verbs (src/commands/vehicle/<verb>.ts); the others are
// still declared here with commander, beside them.

/** `--where` / bulk options shared by the commands that change many vehicles. */
function addSelectionFlags(cmd: Command, opts: { all?: boolean } = {}): Command {
  cmd.option(
    "--where <expr>",
    "select vehicles by FIELD OP VALUE (= != < <= > >= ~regex; repeat: all must hold); matched in the client over every listed page",
    collect,
  );
  if (opts.all) cmd.option("--all", "every vehicle of the owner");
  cmd
    .option("--concurrency <n>", "requests at once (1-16, default 4)")
    .option("--report <file>", "write per-vehicle results to FILE (format by extension)")
    .option("--restart", "ignore the journal of an interrupted run of the same command");
  return cmd;
}

const selection = (ids: string[] | undefined, o: Record<string, unknown>) => ({
  ids: ids ?? [],
  where: o.where as string[] | undefined,
  all: Boolean(o.all),
  concurrency: o.concurrency as string | undefined,
  report: o.report as string | undefined,
  restart: Boolean(o.restart),
});

export function vehicleCommand(ctx: CliContext): Command {
  const cmd = new Command("vehicle").description("List, show, create, edit, remove and (de)activate vehicles");

  addVerbs(ctx, cmd, [list, get, create, wizard]);

  const edit = cmd
    .command("edit")
    .argument("[ids...]", "vehicle ids (or --where)")
    .description(
      "Change fields of vehicles safely: reads each, applies the change and sends the full record; numbers may be relative (+5, -5, +10%, -10%, *1.1)",
    )
    .option("--replace", "send exactly the fields given (the API clears the rest; one id only)");
  addFlags(edit, vehicleInputFlags);
  addSelectionFlags(edit);
  edit
    .addHelpText(
      "after",
      examples(
        "rentctl vehicle edit 42 --price-per-day 55",
        "rentctl vehicle edit 42 --set vehicle_description='Freshly serviced' --dry-run",
        "rentctl vehicle edit 42 --set vehicle_benefits_id=   # clear an array",
        "rentctl vehicle edit --where segment=cars --price-per-day +10% --price-per-week +10% --dry-run",
        "rentctl vehicle edit 42 43 --price-per-day -5 --yes",
      ),
    )
    .action(
      lazyAction(ctx, async (deps, a: [string[]], o) => {
        const src = await vehicleInput(deps, readFlags(vehicleInputFlags, o));
        const ids = a[0] ?? [];
        if (o.where || ids.length !== 1 || hasRelative(src)) {
          if (o.replace) throw new UsageError("--replace takes one vehicle id (and no relative values)");
          return (await import("../commands/vehicle/many.js")).edit(deps, { ...selection(ids, o), ...src });
        }
        return (await import("../commands/vehicle/edit.js")).edit(deps, ids[0]!, {
          ...src,
          replace: Boolean(o.replace),
        });
      }),
    );

  cmd;
  addSelectionFlags(
    cmd
      .command("remove")
      .argument("[ids...]", "vehicle ids (or --where)")
      .description("Remove vehicles (asks on a terminal; --yes in scripts; undo with `rentctl undo`)"),
  )
    .addHelpText(
      "after",
      examples(
        "rentctl vehicle remove 42",
        "rentctl vehicle remove 42 43 --yes",
        "rentctl vehicle remove --where vehicle_activity=0 --dry-run",
      ),
    )
    .action(
      lazyAction(ctx, async (deps, a: [string[]], o) =>
        o.where
          ? (await import("../commands/vehicle/many.js")).remove(deps, selection(a[0], o))
          : (await import("../commands/vehicle/remove.js")).remove(deps, a[0] ?? []),
      ),
    );

  addSelectionFlags(
    cmd
      .command("activate")
      .argument("[ids...]", "vehicle ids (or --where)")
      .description("Make vehicles available for rent (vehicle_activity = 1), through the safe edit"),
  )
    .addHelpText(
      "after",
      examples("rentctl vehicle activate 42 43", "rentctl vehicle activate --where segment=boats --yes"),
    )
    .action(
      lazyAction(ctx, async (deps, a: [string[]], o) =>
        o.where
          ? (await import("../commands/vehicle/many.js")).setActivity(deps, true, selection(a[0], o))
          : (await import("../commands/vehicle/activate.js")).setActivity(deps, a[0] ?? [], true),
      ),
    );
  addSelectionFlags(
    cmd
      .command("deactivate")
      .argument("[ids...]", "vehicle ids (or --where)")
      .description("Take vehicles off rent (vehicle_activity = 0), through the safe edit"),
  )
    .addHelpText(
      "after",
      examples("rentctl vehicle deactivate 42 43", "rentctl vehicle deactivate --where segment=boats --yes"),
    )
    .action(
      lazyAction(ctx, async (deps, a: [string[]], o) =>
        o.where
          ? (await import("../commands/vehicle/many.js")).setActivity(deps, false, selection(a[0], o))
          : (await import("../commands/vehicle/activate.js")).setActivity(deps, a[0] ?? [], false),
      ),
    );
  addSelectionFlags(
    cmd
      .command("calendar")
      .argument("[ids...]", "vehicle ids (or --where / --all)")
      .description("Show or change the unavailable dates (month grids; -o json for ISO dates)")
      .option(
        "--block <range>",
        "make dates unavailable: 2026-12-24, 2026-12-24..2026-12-26 or 2026-12 (repeat)",
        collect,
      )
      .option("--unblock <range>", "make dates available again (same forms; repeat)", collect)
      .option("--clear-past", "drop blocked dates before today")
      .option("--from <YYYY-MM>", "first month shown (default: this month)")
      .option("--months <n>", "months shown (default 3)"),
    { all: true },
  )
    .addHelpText(
      "after",
      examples(
        "rentctl vehicle calendar 42",
        "rentctl vehicle calendar 42 --block 2026-12-24..2026-12-26",
        "rentctl vehicle calendar --where segment=boats --block 2027-01 --dry-run",
        "rentctl vehicle calendar --all --clear-past --yes",
        "rentctl vehicle calendar 42 -o json",
      ),
    )
    .action(
      lazyAction(ctx, async (deps, a: [string[]], o) =>
        (await import("../commands/vehicle/calendar.js")).run(deps, {
          ...selection(a[0], o),
          block: o.block as string[] | undefined,
          unblock: o.unblock as string[] | undefined,
          clearPast: Boolean(o.clearPast),
          from: o.from as string | undefined,
          months: o.months as string | undefined,
        }),
      ),
    );

  addVerbs(ctx, cmd, [exportVerb]);
  cmd
    .command("import")
    .argument("<file>", "fleet file (.json, .ndjson, .yaml, .csv), or - for stdin with --format")
    .description("Create the vehicles of a fleet file: checked first, concurrent, resumable after any interruption")
    .option("--format <format>", "json, ndjson, yaml or csv (default: by extension)")
    .option("--concurrency <n>", "creates in flight at once, 1-16 (default 4)")
    .option("--skip-invalid", "import the valid rows and report the others (exit 7)")
    .option("--restart", "ignore the journal of an interrupted run of the same file")
    .option("--report <file>", "write per-row results to FILE (format by extension)")
    .addHelpText(
      "after",
      examples(
        "rentctl vehicle import fleet.csv",
        "rentctl vehicle import fleet.yaml --dry-run",
        "rentctl vehicle import fleet.csv --concurrency 8 --report result.csv",
        "rentctl vehicle export -p staging | rentctl vehicle import - --format ndjson -p production",
      ) +
        "\nRows whose vehicle_reg_number already exists are skipped (exists). Interrupted? Run the same command again.\n",
    )
    .action(
      lazyAction(ctx, async (deps, a: [string], o) =>
        (await import("../commands/vehicle/import.js")).run(deps, a[0], o),
      ),
    );
  addVerbs(ctx, cmd, [diff]);
  addFlags(
    cmd
      .command("apply")
      .description("Make the account match a fleet file: plan, confirm, then create / safe-edit / remove (resumable)"),
    fleetFileFlags,
  )
    .option("--allow-mass-delete", "let --prune remove more than half of the vehicles, or more than 20")
    .option("--concurrency <n>", "requests in flight at once, 1-16 (default 4)")
    .option("--restart", "ignore the journal of an interrupted run of the same file")
    .option("--report <file>", "write per-row results to FILE (format by extension)")
    .addHelpText(
      "after",
      examples(
        "rentctl vehicle apply -f fleet.yaml",
        "rentctl vehicle apply -f fleet.yaml --dry-run",
        "rentctl vehicle apply -f fleet.csv --prune --yes --report result.csv",
        "rentctl vehicle export --names -p staging > fleet.yaml && rentctl vehicle apply -f fleet.yaml -p production",
      ) + "\nThe plan goes to stderr; per-row results to stdout with -o. Undo with `rentctl undo OP`.\n",
    )
    .action(lazyAction(ctx, async (deps, _a, o) => (await import("../commands/vehicle/apply.js")).run(deps, o)));
  return cmd;
}
