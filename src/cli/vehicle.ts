import { Command, Option } from "commander";
import { VEHICLE_FIELD_ALIASES, VEHICLE_FIELDS } from "../contract/vehicle-fields.js";
import type { Deps } from "../deps.js";
import { UsageError } from "../errors.js";
import { type CliContext, collect, examples, lazyAction } from "./shared.js";

const kebab = (wire: string) => wire.replace(/_/g, "-");

/** One flag per contract field (kebab-case wire name), repeatable for arrays, with short aliases. */
function addFieldFlags(cmd: Command): void {
  for (const f of VEHICLE_FIELDS) {
    if (f.name === "user_id" || f.name === "locale_id") continue;
    const isArray = f.type.endsWith("[]");
    const value = f.type === "flag" ? "<0|1>" : f.type.startsWith("integer") ? "<n>" : "<text>";
    const req = f.required === true ? " [required on create]" : "";
    const alias = VEHICLE_FIELD_ALIASES[f.name];
    const model = f.name === "vehicle_model_id" ? MODEL_HELP : "";
    const desc = `${f.description}${model}${isArray ? " (repeat for more)" : ""}${req}${alias ? ` (alias --${alias})` : ""}`;
    const opt = new Option(`--${kebab(f.name)} ${value}`, desc);
    if (isArray) opt.argParser(collect);
    if (f.type === "flag") opt.choices(["0", "1"]);
    cmd.addOption(opt);
    if (alias) {
      const a = new Option(`--${alias} ${value}`, `same as --${kebab(f.name)}`).hideHelp();
      a.attributeName = () => `alias_${f.name}`;
      if (isArray) a.argParser(collect);
      cmd.addOption(a);
    }
  }
  cmd.option("--brand <id|name>", "brand of --model NAME (vehicle_model_id is found brand -> model -> configuration)");
  cmd.option(
    "--configuration <id|name>",
    'configuration of --model, e.g. --brand Toyota --model Corolla --configuration "1.8 Hybrid"',
  );
  cmd.option(
    "--set <field=value>",
    "set a field by its wire name (repeat; arrays append; empty value clears)",
    collect,
  );
  cmd.option("--from-file <file>", "read fields (wire names) from a JSON or YAML file, or - for stdin");
  cmd.option("--strict", "refuse members that are not contract fields (default: warn and send them as given)");
}

/** Collect the field flags given, by wire name (aliases folded in). */
export function fieldValues(opts: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of VEHICLE_FIELDS) {
    const key = kebab(f.name).replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
    const direct = opts[key];
    const alias = opts[`alias_${f.name}`];
    if (Array.isArray(direct) || Array.isArray(alias)) {
      const merged = [...((alias as unknown[]) ?? []), ...((direct as unknown[]) ?? [])];
      if (merged.length) out[f.name] = merged;
    } else if (direct !== undefined) out[f.name] = direct;
    else if (alias !== undefined) out[f.name] = alias;
  }
  return out;
}

const MODEL_HELP =
  ": the configuration (equipment) id, a leaf of brand -> model -> configuration; find one with `rentctl catalog equipments --brand B --model M`, or name it with --brand/--model/--configuration";

/** `--brand B --model M --configuration C` name vehicle_model_id: resolved by src/catalog/vehicle-model.ts. */
async function withModelRef(deps: Deps, o: Record<string, unknown>): Promise<Record<string, unknown>> {
  const model = (o.alias_vehicle_model_id ?? o.vehicleModelId) as string | undefined;
  if (o.brand === undefined && o.configuration === undefined && (model === undefined || /^\s*\d+\s*$/.test(model)))
    return o;
  const { resolveConfiguration } = await import("../catalog/vehicle-model.js");
  const segment = (o.alias_vehicle_segment_id ?? o.vehicleSegmentId) as string | undefined;
  const id = await resolveConfiguration(deps.catalogs(), {
    segment,
    brand: o.brand as string | undefined,
    model,
    configuration: o.configuration as string | undefined,
  });
  return { ...o, alias_vehicle_model_id: undefined, vehicleModelId: id === undefined ? undefined : String(id) };
}

const sources = (opts: Record<string, unknown>) => ({
  strict: Boolean(opts.strict),
  fromFile: opts.fromFile as string | undefined,
  sets: opts.set as string[] | undefined,
  flags: fieldValues(opts),
});

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

/** A value that changes a number relative to its current value: +5, -5, +10%, -10%, *1.1. */
const RELATIVE = /^\s*([+-]\d|\*)/;
function hasRelative(src: ReturnType<typeof sources>): boolean {
  const values = [...Object.values(src.flags), ...(src.sets ?? []).map((s) => s.slice(s.indexOf("=") + 1))];
  return values.some((v) => typeof v === "string" && RELATIVE.test(v));
}

export function vehicleCommand(ctx: CliContext): Command {
  const cmd = new Command("vehicle").description("List, show, create, edit, remove and (de)activate vehicles");

  cmd
    .command("list")
    .description("List the owner's vehicles, a page at a time or --all")
    .option("--limit <n>", "vehicles per page (default 15; 100 with --all)")
    .option("--offset <n>", "vehicles to skip")
    .option("--page <n>", "page number (1-based; uses --limit)")
    .option("--all", "walk every page (every format streams as pages arrive)")
    .option(
      "--where <expr>",
      "only vehicles where FIELD OP VALUE holds (= != < <= > >= ~regex; repeat: all must hold); filtered in the client over every listed page, streamed like --all",
      collect,
    )
    .option("--sort <field[:desc]>", "order by a field (stable; holds the selection in memory to sort it)")
    .addHelpText(
      "after",
      examples(
        "rentctl vehicle list",
        "rentctl vehicle list --where segment=cars --where 'price_per_day<40'",
        "rentctl vehicle list --where vehicle_activity=0 --sort price_per_day:desc",
        "rentctl vehicle list --page 2 --limit 20",
        "rentctl vehicle list --all -o ndjson | jq .id",
        "rentctl vehicle list --all -q",
      ),
    )
    .action(
      lazyAction(ctx, async (deps, _a, o) =>
        o.where || o.sort
          ? (await import("../commands/vehicle/list-where.js")).run(deps, {
              where: (o.where as string[] | undefined) ?? [],
              sort: o.sort as string | undefined,
            })
          : (await import("../commands/vehicle/list.js")).list(deps, o),
      ),
    );

  cmd
    .command("get")
    .argument("<id>", "vehicle id")
    .description("Show one vehicle")
    .addHelpText(
      "after",
      examples("rentctl vehicle get 42", "rentctl vehicle get 42 -o json --fields id,vehicle_reg_number"),
    )
    .action(lazyAction(ctx, async (deps, a: [string]) => (await import("../commands/vehicle/get.js")).get(deps, a[0])));

  const create = cmd
    .command("create")
    .description("Create a vehicle from flags, --set and/or --from-file; every rule is checked before sending")
    .option("-i, --interactive", "guided wizard (same as `rentctl vehicle wizard`)")
    .option("--save <file>", "with -i: also save the answers as a JSON file for --from-file");
  addFieldFlags(create);
  create
    .addHelpText(
      "after",
      examples(
        "rentctl vehicle create --from-file car.yaml",
        "rentctl vehicle create --from-file car.json --reg B-XY-123 --price 60",
        "rentctl vehicle create --from-file car.json --set vehicle_benefits_id=1 --set vehicle_benefits_id=3 --dry-run",
        "rentctl vehicle create -i",
      ) + "\nField flags are the contract's wire names in kebab case;\nuser_id and locale_id come from the profile.\n",
    )
    .action(
      lazyAction(ctx, async (deps, _a, o) => {
        if (o.interactive) {
          const { run } = await import("../wizard/command.js");
          return run(deps, { fromFile: o.fromFile as string | undefined, save: o.save as string | undefined });
        }
        return (await import("../commands/vehicle/create.js")).create(deps, sources(await withModelRef(deps, o)));
      }),
    );

  cmd
    .command("wizard")
    .description("Create a vehicle with a guided, interactive wizard (needs a terminal)")
    .option("--from-file <file>", "pre-fill the answers from a JSON or YAML file")
    .option("--save <file>", "also save the answers as a JSON file for --from-file")
    .action(
      lazyAction(ctx, async (deps, _a, o) => {
        const { run } = await import("../wizard/command.js");
        return run(deps, { fromFile: o.fromFile as string | undefined, save: o.save as string | undefined });
      }),
    );

  const edit = cmd
    .command("edit")
    .argument("[ids...]", "vehicle ids (or --where)")
    .description(
      "Change fields of vehicles safely: reads each, applies the change and sends the full record; numbers may be relative (+5, -5, +10%, -10%, *1.1)",
    )
    .option("--replace", "send exactly the fields given (the API clears the rest; one id only)");
  addFieldFlags(edit);
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
        const src = sources(await withModelRef(deps, o));
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

  cmd
    .command("export")
    .argument("[file]", "file to write (.json, .ndjson, .yaml, .csv); - or none for stdout")
    .description("Write every vehicle to a fleet file (input fields; streamed; temp file then rename)")
    .option("--format <format>", "json, ndjson, yaml or csv (default: by extension; ndjson on stdout)")
    .option("--with-ids", "also write vehicle_id and the account-bound vehicle_images / vehicle_extras")
    .option("--names", "write catalog names instead of ids where a name exists (portable between environments)")
    .option(
      "--where <expr>",
      "only vehicles where FIELD OP VALUE holds (repeat: all must hold); matched in the client over every page",
      collect,
    )
    .addHelpText(
      "after",
      examples("rentctl vehicle export fleet.csv", "rentctl vehicle export --names -p staging > fleet.ndjson"),
    )
    .action(
      lazyAction(ctx, async (deps, a: [string | undefined], o) =>
        (await import("../commands/vehicle/export.js")).run(deps, a[0], o),
      ),
    );
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
  const fleetAsCode = (c: Command) =>
    c
      .requiredOption("-f, --file <file>", "fleet file (.json, .ndjson, .yaml, .csv), or - for stdin with --format")
      .option("--format <format>", "json, ndjson, yaml or csv (default: by extension)")
      .option("--prune", "also remove the account's vehicles that the file does not list")
      .option("--exact", "fields a row leaves out must be empty (the plan clears them)");
  fleetAsCode(
    cmd
      .command("diff")
      .description("Show what `vehicle apply` would change to make the account match a fleet file (exit 8: changes)"),
  )
    .addHelpText(
      "after",
      examples("rentctl vehicle diff -f fleet.yaml", "rentctl vehicle diff -f fleet.csv --prune -o json") +
        "\nExit codes: 0 nothing to do, 8 the plan has changes, 2 invalid file. -v also lists unchanged vehicles.\n",
    )
    .action(lazyAction(ctx, async (deps, _a, o) => (await import("../commands/vehicle/diff.js")).run(deps, o)));
  fleetAsCode(
    cmd
      .command("apply")
      .description("Make the account match a fleet file: plan, confirm, then create / safe-edit / remove (resumable)"),
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
