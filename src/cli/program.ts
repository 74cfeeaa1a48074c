import type { EventEmitter } from "node:events";
import { Command, Help } from "commander";
import { exitCodesLine } from "../base/errors.js";
import { VERSION } from "../base/version.js";
import { GLOBAL_FLAGS } from "../commands/globals.js";
import { addFlags, addVerbTable } from "./assemble.js";
import { invokedNoun, invokedVerb, NOUNS, type NounName } from "./nouns.js";
import { applyHelpConfig, type CliContext, examples, hasExamples } from "./shared.js";

/** A noun's commands; given the verb argv names, a noun with a command table loads that verb's module alone. */
type Builder = (ctx: CliContext, verb?: string) => Command | Promise<Command>;

/** The nouns whose verbs are a command table (NOUNS[].verbs), built by addVerbTable. */
type TableNoun = Extract<(typeof NOUNS)[number], { verbs: unknown }>["name"];

/**
 * The builder of each other noun, imported only when the noun is built. The
 * tables (./nouns.ts) import each verb's module when it runs (addVerbTable
 * in ./assemble.ts). These, and the few seams the codemod of issue 42
 * (static-imports.mjs) keeps, are the only dynamic imports of src/:
 * everything else is imported statically.
 */
const BUILDERS: Record<Exclude<NounName, TableNoun>, () => Promise<Builder>> = {
  catalog: async () => (await import("./catalog.js")).catalogCommand,
  lint: async () => (await import("./lint.js")).lintCommand,
  undo: async () => (await import("./undo.js")).undoCommand,
  api: async () => (await import("./api.js")).apiCommand,
  mcp: async () => (await import("./mcp.js")).mcpCommand,
  completion: async () => (await import("./completion.js")).completionCommand,
};

/** A noun's builder: its command table's, or its own module's. */
function builderOf(noun: (typeof NOUNS)[number]): Promise<Builder> {
  if ("verbs" in noun)
    return Promise.resolve((ctx, verb) => addVerbTable(ctx, new Command(noun.name), noun.verbs, verb));
  return BUILDERS[noun.name]();
}

/**
 * The command tree. Without argv: the whole tree (completions are generated
 * from it). With argv: only the invoked noun is built; every other noun is a
 * light entry (name and summary) that root help lists and that never runs.
 */
export async function buildProgram(ctx: CliContext, argv?: readonly string[]): Promise<Command> {
  const wanted = argv === undefined ? undefined : invokedNoun(argv);
  const terms = new Map<Command, string>();
  const program = new Command("rentctl")
    .description("Manage a vehicle rental inventory through the Vehicle Rental Partner API v302")
    .version(VERSION, "-V, --version")
    .showSuggestionAfterError(true);
  addFlags(program, GLOBAL_FLAGS).addHelpText(
    "after",
    examples(
      "rentctl --env sandbox vehicle list",
      "rentctl auth login --env production --base-url https://partner.example --user 1001",
      "rentctl catalog brands --segment cars -o json",
      "RENTCTL_API_KEY=… rentctl vehicle get 1 -o json",
    ) + `\n${exitCodesLine()}\n`,
  );
  program.configureHelp({
    subcommandTerm: (cmd: Command) => terms.get(cmd) ?? Help.prototype.subcommandTerm.call(program.createHelp(), cmd),
  });
  const builders = await Promise.all(
    NOUNS.map((n) => (wanted === undefined || wanted === n.name ? builderOf(n) : undefined)),
  );
  const verb = wanted ? invokedVerb(argv ?? []) : undefined;
  const built = await Promise.all(builders.map((build) => build?.(ctx, verb)));
  NOUNS.forEach((n, i) => {
    const noun = built[i];
    if (noun) program.addCommand(noun.description(n.summary));
    else {
      const light = new Command(n.name).description(n.summary);
      terms.set(light, n.term);
      program.addCommand(light);
    }
  });
  configureTree(program);
  return program;
}

/**
 * One help configuration for every command (inherited flags, 80-column
 * layout), and examples for group commands taken from their subcommands'.
 */
function configureTree(cmd: Command): void {
  applyHelpConfig(cmd);
  for (const sub of cmd.commands) configureTree(sub);
  if (hasExamples(cmd) || !cmd.parent) return;
  if (cmd.commands.length > 0) {
    const lines = cmd.commands.map((c) => firstExample(c)).filter((l): l is string => l !== undefined);
    if (lines.length > 0) cmd.addHelpText("after", examples(...lines.slice(0, 5)));
  } else cmd.addHelpText("after", examples(usageExample(cmd)));
}

/** Sample arguments of generated examples: ids and names the sandbox has, so the examples run there as written. */
const SAMPLE_ARGS: Record<string, string> = { id: "1", ids: "1 2", name: "staging", kind: "profiles" };

/** A leaf command with no example of its own gets its plain invocation, sample ids filled in. */
function usageExample(cmd: Command): string {
  const path: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) path.unshift(c.name());
  const args = cmd.registeredArguments.filter((a) => a.required).map((a) => SAMPLE_ARGS[a.name()] ?? `<${a.name()}>`);
  return [...path, ...args].join(" ");
}

/** The first example line of a command's help, found by rendering its after-help text. */
function firstExample(cmd: Command): string | undefined {
  let text = "";
  for (const l of (cmd as unknown as EventEmitter).listeners("afterHelp")) {
    (l as (ctx: { error: boolean; command: Command; write(s: string): void }) => void)({
      error: false,
      command: cmd,
      write: (s: string) => {
        text += s;
      },
    });
  }
  // The whole first example: a long one is wrapped with shell continuations (`\` then 6 spaces), joined back here.
  const m = /Examples:\n {2}(.+(?:\n {6}.+)*)/.exec(text);
  return m?.[1]?.replace(/ \\\n {6}/g, " ");
}
