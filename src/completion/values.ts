import type { Argument, Option } from "commander";
import { PROFILE_KEYS } from "../config/settings.js";
import { EXTRA_FIELD_FLAGS, EXTRA_FIELDS } from "../contract/extra-fields.js";
import { API_PREFIX, CATALOG_OPERATIONS, OPERATIONS } from "../contract/operations.js";
import type { ParamSpec } from "../contract/types.js";
import { VEHICLE_FIELD_ALIASES, VEHICLE_FIELDS } from "../contract/vehicle-fields.js";
import type { ValueRules, ValueSource } from "./model.js";

/**
 * How rentctl's values complete. Static where the answer is known when the
 * script is generated (choices, field names, operation paths), dynamic only
 * for what lives on this machine (profile names, cached catalogs).
 */

export const SHELLS = ["bash", "zsh", "fish"] as const;
export type Shell = (typeof SHELLS)[number];

/** The catalogs a flag named like this refers to, when nothing more precise is known. */
const FLAG_CATALOGS: Readonly<Record<string, string>> = {
  brand: "catalog.brands",
  segment: "catalog.segments",
  locale: "catalog.locales",
  currency: "catalog.currencies",
  class: "catalog.classes_or_types",
  year: "catalog.years_of_issue",
  option: "catalog.extra_options",
  // vehicle create/edit name vehicle_model_id level by level: --brand, --model (a model), --configuration.
  model: "catalog.models",
  configuration: "catalog.equipments",
};

/** Flags that take a name even where their placeholder says `<n>` (`--model` names a model beside --brand). */
const BY_NAME = new Set(["brand", "model", "configuration"]);

/** The field set of a command path: extra members under `extra`, vehicle fields elsewhere. */
function fieldsOf(path: readonly string[]): readonly ParamSpec[] {
  return path[0] === "extra" ? EXTRA_FIELDS : VEHICLE_FIELDS;
}

/** Column names `--fields` can pick, where the records shown are known. */
function columnsOf(path: readonly string[]): string[] | undefined {
  if (path[0] === "vehicle") return ["id", ...VEHICLE_FIELDS.map((f) => f.name)];
  if (path[0] === "extra") return ["id", ...EXTRA_FIELDS.map((f) => f.name)];
  return undefined;
}

/** The contract field a flag stands for: `--vehicle-reg-number`, or an alias such as `--reg` / `--price`. */
function fieldOfFlag(path: readonly string[], flag: string): ParamSpec | undefined {
  const fields = fieldsOf(path);
  const snake = flag.replace(/-/g, "_");
  const direct = fields.find((f) => f.name === snake);
  if (direct) return direct;
  const aliases: Readonly<Record<string, string>> = path[0] === "extra" ? EXTRA_FIELD_FLAGS : VEHICLE_FIELD_ALIASES;
  const wire = Object.entries(aliases).find(([, a]) => a === flag)?.[0];
  return wire ? fields.find((f) => f.name === wire) : undefined;
}

function catalogName(opId: string | undefined): string | undefined {
  return CATALOG_OPERATIONS.find((o) => o.id === opId)?.catalogName;
}

export const rentctlRules: ValueRules = {
  option(path, option: Option, valueName): ValueSource | undefined {
    if (option.argChoices?.length) {
      const unlisted = (option as Option & { unlisted?: readonly string[] }).unlisted ?? [];
      return { kind: "words", words: option.argChoices.filter((c) => !unlisted.includes(c)) };
    }
    const flag = (option.long ?? "").replace(/^--/, "");
    if (flag === "profile") return { kind: "dynamic", args: ["profiles"] };
    if (flag === "set") return { kind: "assign", words: fieldsOf(path).map((f) => f.name) };
    if (flag === "fields") {
      const columns = columnsOf(path);
      return columns ? { kind: "list", words: columns } : undefined;
    }
    // A flag naming a catalog entry: names when the flag takes a name, ids otherwise.
    const field = path[0] === "catalog" || BY_NAME.has(flag) ? undefined : fieldOfFlag(path, flag);
    const catalog = catalogName(field ? field.catalog : FLAG_CATALOGS[flag]);
    if (catalog) {
      const byName = /name/i.test(valueName) || BY_NAME.has(flag);
      return { kind: "dynamic", args: byName ? ["catalog", catalog] : ["catalog", catalog, "--ids"] };
    }
    if (/file|path|dir/i.test(valueName)) return { kind: "file" };
    return undefined;
  },

  argument(path, argument: Argument, siblings): ValueSource | undefined {
    if (argument.argChoices?.length) return { kind: "words", words: argument.argChoices };
    const name = argument.name();
    const command = path.join(" ");
    if (path.at(-1) === "help" && name === "command") return { kind: "words", words: siblings };
    if (command === "completion" && name === "shell") return { kind: "words", words: SHELLS };
    if (path[0] === "profile" && name === "name") return { kind: "dynamic", args: ["profiles"] };
    if (command === "profile set" && name === "key") return { kind: "words", words: PROFILE_KEYS };
    if (command === "api" && name === "path") {
      const paths = OPERATIONS.map((o) => o.path.slice(API_PREFIX.length + 1));
      return { kind: "words", words: [...new Set(paths)] };
    }
    // Vehicle ids seen in listings, with their registration numbers.
    if (path[0] === "vehicle" && /^ids?$/.test(name)) return { kind: "dynamic", args: ["vehicles"] };
    if (/file/i.test(name)) return { kind: "file" };
    return undefined;
  },
};
