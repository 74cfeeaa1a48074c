import { resolveConfiguration } from "../../catalog/vehicle-model.js";
import { VEHICLE_FIELD_ALIASES, VEHICLE_FIELDS } from "../../contract/vehicle-fields.js";
import type { Deps } from "../../deps.js";
import { type Flag, type FlagValues, flag } from "../flags.js";
import type { InputSources } from "../input.js";

const kebab = (wire: string) => wire.replace(/_/g, "-");

const MODEL_HELP =
  " (brand -> model -> configuration): `rentctl catalog equipments --brand B --model M`, or name it with --brand/--model/--configuration";

type FieldValue = string | string[];

/** A field whose flag `--help` shows (it has a short alias); the others are in `--help-all`. */
export const isCommonField = (wire: string): boolean => VEHICLE_FIELD_ALIASES[wire] !== undefined;

/** The attribute of a field's hidden short alias (`--reg`), kept apart from the field's own flag. */
const aliasKey = (wire: string) => `alias_${wire}`;

/**
 * One flag per contract field (kebab-case wire name, e.g. --price-per-day),
 * repeatable for arrays, with the short aliases (--reg, --price, …) accepted
 * but hidden. Read into a record by wire name: an alias and its field fold
 * together (arrays: the alias's values first; one value: the field's flag wins).
 */
export const vehicleFieldFlags: Flag<Record<string, FieldValue>> = flag.group(
  Object.fromEntries(
    VEHICLE_FIELDS.flatMap((f): Array<[string, Flag<FieldValue | undefined>]> => {
      if (f.name === "user_id" || f.name === "locale_id") return [];
      const isArray = f.type.endsWith("[]");
      const value = f.type === "flag" ? "<0|1>" : f.type.startsWith("integer") ? "<n>" : "<text>";
      const req = f.required === true ? " [required on create]" : "";
      const alias = VEHICLE_FIELD_ALIASES[f.name];
      const model = f.name === "vehicle_model_id" ? MODEL_HELP : "";
      const desc = `${f.description}${model}${isArray ? " (repeat for more)" : ""}${req}${alias ? ` (alias --${alias})` : ""}`;
      const flags = `--${kebab(f.name)} ${value}`;
      // The common fields (those with a short alias) in --help; the others with --help-all.
      const rare = { rare: !isCommonField(f.name) };
      const own: [string, Flag<FieldValue | undefined>] = [
        f.name,
        isArray
          ? flag.list(flags, desc, rare)
          : f.type === "flag"
            ? flag.choice(flags, desc, ["0", "1"], rare)
            : flag.string(flags, desc, rare),
      ];
      if (!alias) return [own];
      // The alias takes any text, as it always has: the contract check after reading refuses a bad one.
      const o = { hidden: true, key: aliasKey(f.name) };
      const aliasFlags = `--${alias} ${value}`;
      const short = isArray
        ? flag.list(aliasFlags, `same as --${kebab(f.name)}`, o)
        : flag.string(aliasFlags, `same as --${kebab(f.name)}`, o);
      return [own, [aliasKey(f.name), short]];
    }),
  ),
  (values) => {
    const out: Record<string, FieldValue> = {};
    for (const f of VEHICLE_FIELDS) {
      const direct = values[f.name];
      const alias = values[aliasKey(f.name)];
      if (Array.isArray(direct) || Array.isArray(alias)) {
        const merged = [...(Array.isArray(alias) ? alias : []), ...(Array.isArray(direct) ? direct : [])];
        if (merged.length) out[f.name] = merged;
      } else if (direct !== undefined) out[f.name] = direct;
      else if (alias !== undefined) out[f.name] = alias;
    }
    return out;
  },
);

/** The input flags of `vehicle create` and `vehicle edit`, after their own: fields, model by name, --set, a file. */
export const vehicleInputFlags = {
  fields: vehicleFieldFlags,
  brand: flag.string("--brand <id|name>", "brand of --model NAME (brand -> model -> configuration)"),
  configuration: flag.string(
    "--configuration <id|name>",
    'configuration of --model, e.g. --brand Toyota --model Corolla --configuration "1.8 Hybrid"',
  ),
  set: flag.list(
    "--set <field=value>",
    "set a field by wire name (repeat; a list field is replaced by the values given: 1,2 or repeated; --add/--remove: one; empty clears)",
  ),
  fromFile: flag.string("--from-file <file>", "read fields (wire names) from a JSON or YAML file, or - for stdin"),
  allowUnknown: flag.bool(
    "--allow-unknown",
    "send --set / --from-file members that are no contract field (default: exit 2)",
  ),
  strict: flag.bool("--strict", "refuse members that are not contract fields (the default now; kept for scripts)", {
    hidden: true,
  }),
};

export type VehicleInputOptions = FlagValues<typeof vehicleInputFlags>;

/**
 * The input sources of create and edit. `--brand B --model M --configuration C`
 * name vehicle_model_id: resolved here (src/catalog/vehicle-model.ts); a
 * numeric --model alone is the id itself.
 */
export async function vehicleInput(deps: Deps, o: VehicleInputOptions): Promise<InputSources> {
  return {
    allowUnknown: o.allowUnknown,
    fromFile: o.fromFile,
    fileNames: true,
    sets: o.set,
    flags: await withModelRef(deps, o),
  };
}

async function withModelRef(deps: Deps, o: VehicleInputOptions): Promise<Record<string, FieldValue>> {
  const text = (v: FieldValue | undefined) => (typeof v === "string" ? v : undefined);
  const model = text(o.fields.vehicle_model_id);
  if (o.brand === undefined && o.configuration === undefined && (model === undefined || /^\s*\d+\s*$/.test(model)))
    return o.fields;
  const id = await resolveConfiguration(deps.catalogs(), {
    segment: text(o.fields.vehicle_segment_id),
    brand: o.brand,
    model,
    configuration: o.configuration,
  });
  const { vehicle_model_id: _given, ...rest } = o.fields;
  return id === undefined ? rest : { ...rest, vehicle_model_id: String(id) };
}

/** A value that changes a number relative to its current value: +5, -5, +10%, -10%, *1.1. */
const RELATIVE = /^\s*([+-]\d|\*)/;

/**
 * Whether any field flag gives a value relative to its current value (edit then goes through the
 * bulk path). Only the field flags take relative values: `--set` and files are always absolute
 * (`--set price_per_day=-5` is -5, refused by the field's range).
 */
export function hasRelative(src: InputSources): boolean {
  return Object.values(src.flags ?? {}).some((v) => typeof v === "string" && RELATIVE.test(v));
}
