import type { Command } from "commander";
import type { GlobalFlags } from "../config/settings.js";
import type { Deps } from "../deps.js";
import {
  type Args,
  type ArgValues,
  type Flags,
  type FlagValues,
  type OptionDecl,
  optionsOf,
  type ParsedValues,
  readArgs,
  readFlags,
} from "./flags.js";
import { readGlobalFlags } from "./globals.js";

/**
 * One command, declared in one module (src/commands/<noun>/<verb>.ts): its
 * name, arguments, flags, help and examples, and `run`, which receives the
 * typed arguments and options read from those declarations. The cli layer
 * (src/cli/assemble.ts) turns a verb into a commander command; help, the
 * completion scripts and the build-time help pages all read that command.
 *
 * The noun's command table (src/cli/nouns.ts, addVerbTable) imports a
 * verb's module only when that verb runs (or for the noun's help), so the
 * module imports what it uses statically, like any other.
 */
export interface VerbSpec<A extends Args, F extends Flags> {
  name: string;
  /** Other names the verb answers to (`vehicle rm`, `vehicle show`); help lists them, completions offer them. */
  aliases?: readonly string[];
  /** The one-line summary (help, and the noun's command list). */
  description: string;
  /** Positional arguments by name, in order: `{ id: arg.required("vehicle id") }` is `<id>`. */
  args?: A;
  /** Flags by the name `run` reads them under, in help order. */
  flags?: F;
  /** Help's Examples block, one command line each. */
  examples?: readonly string[];
  /** Text after the examples (starts with a blank line). */
  notes?: string;
  /** Help's usage line instead of the one commander derives. */
  usage?: string;
  /** Not listed in help (still completes and runs). */
  hidden?: boolean;
  /** --timeout when none is given (in seconds, as the flag): a TAB press must not hang. */
  timeout?: string;
  /**
   * `-o` values only this verb prints, each standing for one of its boolean
   * flags (`{ markdown: "markdown" }`: `-o markdown` is `--markdown`). The
   * global `-o` accepts them (REVIEW_FORMATS); any other verb refuses them.
   */
  outputs?: { readonly [format: string]: keyof F & string };
  run(deps: Deps, args: ArgValues<A>, opts: FlagValues<F>, host: VerbHost): Promise<void>;
}

/** What a verb may need from the layers above the commands. */
export interface VerbHost {
  /** The commander command running (completion generates its scripts from the whole tree). */
  readonly command: Command;
  /** The guided, interactive create of src/wizard. */
  wizard(deps: Deps, opts: WizardOptions): Promise<void>;
}

export interface WizardOptions {
  fromFile?: string;
  save?: string;
  /** Discard the draft an interrupted run kept, instead of offering it. */
  fresh?: boolean;
  /** Files the wizard saves keep account-bound ids (uploaded image ids). */
  withIds?: boolean;
}

export interface ArgDecl {
  readonly name: string;
  readonly description?: string;
  readonly required: boolean;
  readonly variadic: boolean;
}

/** A verb as the cli layer sees it: declarations as data, and one way to run it. */
export interface Verb {
  readonly name: string;
  readonly aliases: readonly string[];
  readonly description: string;
  readonly args: readonly ArgDecl[];
  readonly options: readonly OptionDecl[];
  readonly examples: readonly string[];
  readonly notes?: string;
  readonly usage?: string;
  readonly hidden: boolean;
  /** `-o` values only this verb prints (VerbSpec.outputs), for completion. */
  readonly outputs?: readonly string[];
  /** Read the flags and arguments (a UsageError for a bad value), build Deps, run. */
  invoke(call: VerbCall): Promise<void>;
}

export interface VerbCall {
  /** commander's values of this command's own options. */
  values: ParsedValues;
  /** The same with the program's flags (`optsWithGlobals()`). */
  globals: ParsedValues;
  /** commander's processed positional arguments. */
  args: readonly unknown[];
  makeDeps(flags: GlobalFlags): Promise<Deps>;
  host: VerbHost;
}

type NoArgs = Record<never, never>;

export function defineVerb<const A extends Args = NoArgs, const F extends Flags = NoArgs>(spec: VerbSpec<A, F>): Verb {
  const args = spec.args;
  const flags = spec.flags;
  return {
    name: spec.name,
    aliases: spec.aliases ?? [],
    description: spec.description,
    args: Object.entries(args ?? {}).map(([name, a]) => ({
      name,
      description: a.description,
      required: a.required,
      variadic: a.variadic,
    })),
    options: flags ? optionsOf(flags) : [],
    examples: spec.examples ?? [],
    notes: spec.notes,
    usage: spec.usage,
    hidden: spec.hidden ?? false,
    outputs: spec.outputs && Object.keys(spec.outputs),
    async invoke(call) {
      let values = call.values;
      let globalValues = call.globals;
      const asked = typeof globalValues.output === "string" ? globalValues.output.toLowerCase() : undefined;
      const own = asked === undefined ? undefined : spec.outputs?.[asked];
      if (own !== undefined && flags) {
        // `-o markdown` is this verb's own flag; the global output stays the default
        const d = flags[own]?.options[0];
        if (d) values = { ...values, [d.key]: true };
        globalValues = { ...globalValues, output: undefined };
      }
      // Usage errors first: nothing (config, the network) is touched for a bad flag.
      const opts = readFlags(flags, values);
      const typedArgs = readArgs(args, call.args);
      const globals = readGlobalFlags(globalValues);
      if (spec.timeout !== undefined) globals.timeout ??= spec.timeout;
      const deps = await call.makeDeps(globals);
      await spec.run(deps, typedArgs, opts, call.host);
    },
  };
}
