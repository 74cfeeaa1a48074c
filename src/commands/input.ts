import { readFile } from "node:fs/promises";
import { fsReason, InputError, UsageError } from "../base/errors.js";
import { readAll } from "../base/io.js";
import { recordToWire, relativeFormProblems } from "../contract/human.js";
import { isObject, READ_ONLY_MEMBERS } from "../contract/records.js";
import { localProblems } from "../contract/refs.js";
import type { ParamSpec } from "../contract/types.js";
import { specIndex } from "../contract/validate.js";
import type { Deps } from "../deps.js";
import { catalogPort } from "../files/adapters.js";
import { checkJson } from "../files/input-limits.js";
import { createNameResolver, resolvableField, resolveRowNames } from "../files/resolver.js";
import { parseYaml } from "../files/yaml.js";
import { refuseClearedRequired, resolveCatalogNames } from "../ops/values.js";
import { isRelative } from "../plans/relative.js";
import { suggestFields } from "../plans/where.js";
import { problemsError } from "../resources/safe-edit.js";

/**
 * A record from its three sources, in order of precedence (later wins):
 * `--from-file FILE|-` (JSON or YAML with wire names), `--set NAME=VALUE`
 * (wire names), then the per-field flags. Array fields collect repeated
 * values; integer arrays also split on commas. An empty value clears.
 */
export interface InputSources {
  fromFile?: string;
  sets?: string[];
  /** Wire name → value(s) from the generated field flags. */
  flags?: Record<string, unknown>;
  /** --allow-unknown: send members that are not fields of the contract as given (default: refuse them, exit 2). */
  allowUnknown?: boolean;
  /**
   * Vehicles: the file's catalog names (model as brand + model + configuration, country, places, …)
   * become ids as a fleet file's do, so that `vehicle export --names` writes what --from-file reads.
   */
  fileNames?: boolean;
}

export async function readRecordFile(deps: Deps, file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = file === "-" ? await readAll(deps.io.stdin) : await readFile(file, "utf8");
  } catch (e) {
    throw new InputError(`--from-file: cannot read ${file}: ${fsReason(e)}`);
  }
  let parsed: unknown;
  try {
    if (/^\s*[[{]/.test(text)) {
      // the same guards as fleet files: no nesting deeper than 64, no member named twice
      parsed = (checkJson(text, () => `--from-file ${file === "-" ? "stdin" : file}`) ?? { value: JSON.parse(text) })
        .value;
    } else {
      parsed = parseYaml(text);
    }
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(
      `--from-file: ${file === "-" ? "stdin" : file} is neither JSON nor YAML: ${(e as Error).message}`,
    );
  }
  if (!isObject(parsed))
    throw new InputError(
      `--from-file: expected one object of fields (wire names), got ${Array.isArray(parsed) ? "a list" : parsed === null || parsed === undefined ? "an empty document" : typeof parsed}`,
    );
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(parsed)) if (!READ_ONLY_MEMBERS.has(k)) out[k] = v;
  return out;
}

function splitArray(spec: ParamSpec | undefined, v: unknown): unknown[] {
  const items = Array.isArray(v) ? v : [v];
  if (spec?.type !== "integer[]") return items;
  return items
    .flatMap((x) => (typeof x === "string" ? x.split(",").map((s) => s.trim()) : [x]))
    .filter((x) => x !== "");
}

/** What gatherInput checks before it returns: the rules that need no server (src/contract/refs.ts). */
export interface LocalCheckOptions {
  /** How the refusal names the record: `vehicle`, `extra`, `edit`. */
  noun: string;
  /** A create: every required field must be given (once anything is given). */
  create?: boolean;
}

/**
 * The record a command sends, gathered from its sources and checked by every
 * rule that needs no server before any catalog is read (ids as given, names
 * resolved afterwards: src/contract/refs.ts); a file's names become ids last.
 */
export async function gatherInput(
  deps: Deps,
  specs: readonly ParamSpec[],
  sources: InputSources,
  check?: LocalCheckOptions,
): Promise<Record<string, unknown>> {
  const bySpec = specIndex(specs);
  const values: Record<string, unknown> = sources.fromFile ? await readRecordFile(deps, sources.fromFile) : {};
  // the file's own values (its names are resolved once the local checks passed, unless a flag replaced them)
  const fileValues: Record<string, unknown> = { ...values };
  const relative = relativeFormProblems(values, specs);
  if (relative.length)
    throw new InputError(
      `--from-file: ${relative.length === 1 ? "a value is" : "values are"} relative (nothing was sent)`,
      {
        details: relative,
        hint: "give absolute values in the file, or use the field's flag: vehicle edit ID --price-per-day +5",
      },
    );
  // Members that are not contract fields: the same rule for a file and for --set (warn, or refuse with --strict).
  const unknown: string[] = Object.keys(values)
    .filter((k) => !bySpec.has(k))
    .map((k) => `${sources.fromFile === "-" ? "stdin" : sources.fromFile}: ${k}`);
  const setArrays = new Set<string>();
  for (const s of sources.sets ?? []) {
    const i = s.indexOf("=");
    if (i <= 0) throw new UsageError(`--set ${JSON.stringify(s)}: expected FIELD=VALUE (wire name)`);
    const name = s.slice(0, i).replace(/\[\]$/, "");
    const value = s.slice(i + 1);
    const spec = bySpec.get(name);
    if (!spec) unknown.push(`--set ${name}`);
    // --set is absolute: a relative form here would be read as something else than meant
    if (spec?.type === "integer" && /^\s*(\+|\*)|%\s*$/.test(value)) {
      const flagName = `--${name.replace(/^vehicle_/, "").replace(/_/g, "-")}`;
      throw new UsageError(`--set ${name}=${value}: --set takes absolute values only (nothing was sent)`, {
        hint: `for a relative change use the field's flag, e.g. ${flagName} ${value}, if the command has it`,
      });
    }
    if (spec?.type.endsWith("[]")) {
      const prev = setArrays.has(name) ? (values[name] as unknown[]) : [];
      setArrays.add(name);
      values[name] = value === "" ? [] : [...prev, ...splitArray(spec, value)];
    } else values[name] = value;
  }
  if (unknown.length) {
    // A typo must never be reported as a success: refused unless the user says the server knows the field.
    if (!sources.allowUnknown) {
      throw new InputError(
        `${unknown.length} member${unknown.length === 1 ? " is" : "s are"} not a field of the v302 contract (nothing was sent)`,
        {
          details: unknown.map((u) => {
            const near = suggestFields(u.replace(/^.*?(--set |: )/, ""), specs);
            return {
              field: u,
              message: `not a contract field${near.length ? ` (did you mean ${near.join(", ")}?)` : ""}`,
            };
          }),
          hint: "fix the name, or pass --allow-unknown to send it as given (a field the server knows but the spec does not list)",
        },
      );
    }
    for (const u of unknown) deps.msg.warn(`${u}: not a field of the v302 contract; sent as given (--allow-unknown)`);
  }
  for (const [name, v] of Object.entries(sources.flags ?? {})) {
    if (v === undefined) continue;
    const spec = bySpec.get(name);
    values[name] = spec?.type.endsWith("[]") ? splitArray(spec, v) : v;
  }
  // dates in either form (2026-12-24, 24.12.2026) become the contract's own
  recordToWire(values);
  // clearing a field the contract requires would leave a record the API rejects (or worse, keeps)
  refuseClearedRequired(bySpec, values);
  if (check) {
    // an edit's field flags take relative values (`--price-per-day -5`): checked where they are applied
    const flagged = new Set(Object.keys(sources.flags ?? {}).filter((k) => sources.flags?.[k] !== undefined));
    const problems = localProblems(values, specs, {
      // nothing given yet: the command says what a create needs (`vehicle create` alone)
      create: check.create === true && Object.keys(values).some((k) => bySpec.get(k)?.clientFilled !== true),
      // catalog fields take names, and vehicle_extras takes the account's extras by option name (src/ops/handles.ts)
      resolvable: (field) =>
        bySpec.get(field)?.catalog !== undefined ||
        field === "vehicle_extras" ||
        (sources.fileNames === true && resolvableField(field)),
      leave: (field, v) =>
        check.create !== true &&
        flagged.has(field) &&
        bySpec.get(field)?.type === "integer" &&
        typeof v === "string" &&
        isRelative(v),
    });
    if (problems.length) throw problemsError(problems, check.noun);
  }
  if (sources.fromFile && sources.fileNames) {
    const fromFile: Record<string, unknown> = {};
    for (const k in fileValues) if (values[k] === fileValues[k]) fromFile[k] = values[k];
    await resolveFileNames(deps, sources.fromFile, fromFile, bySpec);
    Object.assign(values, fromFile);
  }
  return values;
}

/** Catalog references given by name (`--currency EUR`, `--segment cars`) become ids. */
/** A vehicle file's names as ids, by the fleet's one resolver (src/files/resolver.ts); nothing resolved is sent when a name is unknown. */
async function resolveFileNames(
  deps: Deps,
  file: string,
  values: Record<string, unknown>,
  bySpec: ReadonlyMap<string, ParamSpec>,
): Promise<void> {
  // only the contract's fields (other members are refused, or sent as given, below)
  const fields: Record<string, unknown> = {};
  for (const k in values) if (bySpec.has(k)) fields[k] = values[k];
  const problems = await resolveRowNames(createNameResolver(await catalogPort(deps)), fields);
  if (problems.length)
    throw new InputError(
      `--from-file ${file === "-" ? "stdin" : file}: ${problems.length === 1 ? "a value names nothing" : `${problems.length} values name nothing`} in the catalogs (nothing was sent)`,
      {
        details: problems,
      },
    );
  Object.assign(values, fields);
}

/** Catalog references given by name become ids (the one resolver, src/ops/values.ts); a dry run says what each stands for. */
export async function resolveNamedRefs(
  deps: Deps,
  specs: readonly ParamSpec[],
  values: Record<string, unknown>,
): Promise<void> {
  await resolveCatalogNames(deps, specs, values, {
    ...(deps.flags.dryRun ? { show: (line: string) => deps.msg.info(deps.color.dim(line)) } : {}),
  });
}
