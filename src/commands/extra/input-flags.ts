import { EXTRA_FIELD_FLAGS, EXTRA_FIELDS } from "../../contract/extra-fields.js";
import { type Flag, type FlagValues, flag } from "../flags.js";
import type { InputSources } from "../input.js";

/** One flag per extra member that has one (`--option`, `--price`, …), read into a record by wire name. */
const extraFieldFlags = flag.group(
  Object.fromEntries(
    EXTRA_FIELDS.flatMap((f): Array<[string, Flag<string | undefined>]> => {
      const name = EXTRA_FIELD_FLAGS[f.name];
      if (!name) return [];
      const takesName = f.catalog === "catalog.extra_options" || f.catalog === "catalog.currencies";
      return [
        [f.name, flag.string(`--${name} <${takesName ? "id|name" : "n"}>`, `${f.description} (wire name ${f.name})`)],
      ];
    }),
  ),
  (values): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const [wire, v] of Object.entries(values)) if (v !== undefined) out[wire] = v;
    return out;
  },
);

/** The input flags of `extra create` and `extra update`. */
export const extraInputFlags = {
  fields: extraFieldFlags,
  set: flag.list("--set <name=value>", "send a member by its exact wire name (repeat)"),
  fromFile: flag.string("--from-file <file>", "read members (wire names) from a JSON or YAML file, or - for stdin"),
  allowUnknown: flag.bool(
    "--allow-unknown",
    "send --set / --from-file members that are not contract fields as given (default: refuse them, exit 2)",
  ),
  strict: flag.bool("--strict", "refuse members that are not contract fields (the default now; kept for scripts)"),
};

export function extraInput(o: FlagValues<typeof extraInputFlags>): InputSources {
  return { fromFile: o.fromFile, sets: o.set, flags: o.fields, allowUnknown: o.allowUnknown };
}
