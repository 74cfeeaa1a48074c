import { Command, Option } from "commander";
import { VEHICLE_FIELD_ALIASES, VEHICLE_FIELDS } from "../contract/vehicle-fields.js";
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
    const desc = `${f.description}${isArray ? " (repeat for more)" : ""}${req}${alias ? ` (alias --${alias})` : ""}`;
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
  cmd.option(
    "--set <field=value>",
    "set a field by its wire name (repeat; arrays append; empty value clears)",
    collect,
  );
  cmd.option("--from-file <file>", "read fields (wire names) from a JSON or YAML file, or - for stdin");
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

const sources = (opts: Record<string, unknown>) => ({
  fromFile: opts.fromFile as string | undefined,
  sets: opts.set as string[] | undefined,
  flags: fieldValues(opts),
});

export function vehicleCommand(ctx: CliContext): Command {
  const cmd = new Command("vehicle").description("List, show, create, edit, remove and (de)activate vehicles");
  const load = () => import("../commands/vehicle/vehicle.js");

  cmd
    .command("list")
    .description("List the owner's vehicles, a page at a time or --all")
    .option("--limit <n>", "vehicles per page (default 15; 100 with --all)")
    .option("--offset <n>", "vehicles to skip")
    .option("--page <n>", "page number (1-based; uses --limit)")
    .option("--all", "walk every page (ndjson and csv stream as pages arrive)")
    .addHelpText(
      "after",
      examples(
        "rentctl vehicle list",
        "rentctl vehicle list --page 2 --limit 20",
        "rentctl vehicle list --all -o ndjson | jq .id",
        "rentctl vehicle list --all -q",
      ),
    )
    .action(lazyAction(ctx, async (deps, _a, o) => (await load()).list(deps, o)));

  cmd
    .command("get")
    .argument("<id>", "vehicle id")
    .description("Show one vehicle")
    .addHelpText(
      "after",
      examples("rentctl vehicle get 42", "rentctl vehicle get 42 -o json --fields id,vehicle_reg_number"),
    )
    .action(lazyAction(ctx, async (deps, a: [string]) => (await load()).get(deps, a[0])));

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
          const { run } = await import("../commands/vehicle/wizard.js");
          return run(deps, { fromFile: o.fromFile as string | undefined, save: o.save as string | undefined });
        }
        return (await load()).create(deps, sources(o));
      }),
    );

  cmd
    .command("wizard")
    .description("Create a vehicle with a guided, interactive wizard (needs a terminal)")
    .option("--from-file <file>", "pre-fill the answers from a JSON or YAML file")
    .option("--save <file>", "also save the answers as a JSON file for --from-file")
    .action(
      lazyAction(ctx, async (deps, _a, o) => {
        const { run } = await import("../commands/vehicle/wizard.js");
        return run(deps, { fromFile: o.fromFile as string | undefined, save: o.save as string | undefined });
      }),
    );

  const edit = cmd
    .command("edit")
    .argument("<id>", "vehicle id")
    .description("Change fields of a vehicle safely: reads it, applies the change and sends the full record")
    .option("--replace", "send exactly the fields given (the API clears the rest)");
  addFieldFlags(edit);
  edit
    .addHelpText(
      "after",
      examples(
        "rentctl vehicle edit 42 --price-per-day 55",
        "rentctl vehicle edit 42 --set vehicle_description='Freshly serviced' --dry-run",
        "rentctl vehicle edit 42 --set vehicle_benefits_id=   # clear an array",
      ),
    )
    .action(
      lazyAction(ctx, async (deps, a: [string], o) =>
        (await load()).edit(deps, a[0], { ...sources(o), replace: Boolean(o.replace) }),
      ),
    );

  cmd
    .command("remove")
    .argument("<ids...>", "vehicle ids")
    .description("Remove vehicles (asks on a terminal; --yes in scripts; undo with `rentctl undo`)")
    .addHelpText("after", examples("rentctl vehicle remove 42", "rentctl vehicle remove 42 43 --yes"))
    .action(lazyAction(ctx, async (deps, a: [string[]]) => (await load()).remove(deps, a[0])));

  cmd
    .command("activate")
    .argument("<ids...>", "vehicle ids")
    .description("Make vehicles available for rent (vehicle_activity = 1), through the safe edit")
    .action(lazyAction(ctx, async (deps, a: [string[]]) => (await load()).setActivity(deps, a[0], true)));
  cmd
    .command("deactivate")
    .argument("<ids...>", "vehicle ids")
    .description("Take vehicles off rent (vehicle_activity = 0), through the safe edit")
    .action(lazyAction(ctx, async (deps, a: [string[]]) => (await load()).setActivity(deps, a[0], false)));
  return cmd;
}
