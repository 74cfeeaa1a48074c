import type { Argument, Command, Option } from "commander";

/**
 * A shell-neutral description of the command tree, read from the commander
 * program itself: every command, its flags (which take a value, and how that
 * value completes), its positional arguments, and the global flags that apply
 * everywhere. The bash, zsh and fish generators only print this model, so a
 * command or flag added to the program shows up in the completions without
 * touching them.
 */

/** How a value (of a flag or a positional argument) completes. */
export type ValueSource =
  /** Nothing to offer (free text, a number). */
  | { kind: "none" }
  /** File names. */
  | { kind: "file" }
  /** A fixed list embedded in the script. */
  | { kind: "words"; words: readonly string[] }
  /** `NAME=VALUE` pairs: offers `NAME=` (no trailing space). */
  | { kind: "assign"; words: readonly string[] }
  /** A comma-separated list of these words. */
  | { kind: "list"; words: readonly string[] }
  /** Asked at TAB time: `rentctl completion __complete ARGS…` prints one value per line (`value<TAB>description`). */
  | { kind: "dynamic"; args: readonly string[] };

export interface OptionSpec {
  /** `-o` */
  short?: string;
  /** `--output` */
  long?: string;
  description: string;
  /** The flag takes a value (`<x>` or `[x]`). */
  takesValue: boolean;
  /** The value may be left out (`[x]`). */
  valueOptional: boolean;
  /** The placeholder, e.g. `format` for `<format>`. */
  valueName: string;
  /** May be given more than once. */
  repeatable: boolean;
  /** Accepted, not listed. */
  hidden: boolean;
  values: ValueSource;
}

export interface ArgSpec {
  name: string;
  description: string;
  required: boolean;
  variadic: boolean;
  values: ValueSource;
}

export interface CommandSpec {
  name: string;
  aliases: readonly string[];
  /** Names from the program down, without the program's own name (`["catalog", "brands"]`). */
  path: readonly string[];
  description: string;
  hidden: boolean;
  /** This command's own flags (help included; the global flags are not). */
  options: OptionSpec[];
  /**
   * The global flags as they complete here. They differ from the program's
   * only where a value completes by context (`--fields` under `vehicle` offers
   * vehicle field names).
   */
  globals: OptionSpec[];
  args: ArgSpec[];
  commands: CommandSpec[];
}

export interface CompletionModel {
  /** The executable's name (`rentctl`). */
  program: string;
  root: CommandSpec;
  /** Flags of the program that every command accepts (help and version excluded). */
  globals: OptionSpec[];
}

/** Decides how values complete; see `values.ts` for rentctl's rules. */
export interface ValueRules {
  option(path: readonly string[], option: Option, valueName: string): ValueSource | undefined;
  argument(path: readonly string[], argument: Argument, siblings: readonly string[]): ValueSource | undefined;
}

const NONE: ValueSource = { kind: "none" };

/** The placeholder of a flag: `format` for `-o, --output <format>`. */
export function valueNameOf(option: Option): string {
  return /[<[]([^>\]]*)[>\]]/.exec(option.flags)?.[1]?.replace(/\.\.\.$/, "") ?? "";
}

function optionSpec(path: readonly string[], option: Option, rules: ValueRules): OptionSpec {
  const takesValue = option.required || option.optional;
  const valueName = valueNameOf(option);
  return {
    short: option.short,
    long: option.long,
    description: option.description,
    takesValue,
    valueOptional: option.optional,
    valueName,
    repeatable: option.variadic || isRepeatableParser(option.parseArg) || /\brepeat/i.test(option.description),
    // a rare flag is hidden from --help only: completion offers it
    hidden: option.hidden && (option as Option & { rare?: boolean }).rare !== true,
    values: takesValue ? (rules.option(path, option, valueName) ?? NONE) : NONE,
  };
}

/**
 * The global `-o` of a command that prints formats of its own (`account diff
 * -o markdown`: src/cli/assemble.ts marks the command): those are offered too.
 */
function withOutputs(spec: OptionSpec, cmd: Command | undefined): OptionSpec {
  const outputs = (cmd as (Command & { outputs?: readonly string[] }) | undefined)?.outputs;
  if (!outputs?.length || spec.long !== "--output" || spec.values.kind !== "words") return spec;
  return { ...spec, values: { kind: "words", words: [...spec.values.words, ...outputs] } };
}

/** A value parser that accumulates marks itself `repeatable` (cli/shared.ts's `collect`). */
function isRepeatableParser(parse: unknown): boolean {
  return typeof parse === "function" && (parse as { repeatable?: unknown }).repeatable === true;
}

function isHelpOrVersion(option: Option): boolean {
  return option.long === "--help" || option.long === "--version";
}

/** Read the completion model off a commander program. */
export function buildModel(program: Command, rules: ValueRules): CompletionModel {
  const globalOptions = program.options.filter((o) => !isHelpOrVersion(o));
  const globalsAt = (path: readonly string[], cmd?: Command) =>
    globalOptions.map((o) => withOutputs(optionSpec(path, o, rules), cmd));

  const walk = (cmd: Command, path: readonly string[], siblings: readonly string[], hidden: boolean): CommandSpec => {
    const help = cmd.createHelp();
    const listed = help.visibleOptions(cmd);
    // The program's own flags are the global ones, but for help and version.
    // Hidden flags are still accepted, so the walk in the scripts must know them.
    const options = [...listed, ...cmd.options.filter((o) => !listed.includes(o))].filter(
      (o) => path.length > 0 || isHelpOrVersion(o),
    );
    const subs = help.visibleCommands(cmd);
    const childNames = subs.filter((c) => c.name() !== "help").map((c) => c.name());
    const children = [
      ...subs.map((c) => walk(c, [...path, c.name()], childNames, false)),
      ...cmd.commands.filter((c) => !subs.includes(c)).map((c) => walk(c, [...path, c.name()], childNames, true)),
    ];
    return {
      name: cmd.name(),
      aliases: cmd.aliases(),
      path,
      description: firstLine(cmd.description()),
      hidden,
      options: options.map((o) => optionSpec(path, o, rules)),
      globals: globalsAt(path, cmd),
      args: cmd.registeredArguments.map((a) => ({
        name: a.name(),
        description: a.description,
        required: a.required,
        variadic: a.variadic,
        values: rules.argument(path, a, siblings) ?? NONE,
      })),
      commands: children,
    };
  };

  return { program: program.name(), root: walk(program, [], [], false), globals: globalsAt([]) };
}

function firstLine(s: string): string {
  return s.split("\n")[0]?.trim() ?? "";
}

/** Every command of the model, depth first, the root first. */
export function allCommands(root: CommandSpec): CommandSpec[] {
  return [root, ...root.commands.flatMap(allCommands)];
}
