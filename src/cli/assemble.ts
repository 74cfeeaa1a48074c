import { Command, InvalidArgumentError, Option } from "commander";
import { type Flags, type OptionDecl, optionsOf } from "../commands/flags.js";
import type { ArgDecl, Verb, VerbHost } from "../commands/verb.js";
import type { VerbRow } from "./nouns.js";
import { type CliContext, collect, examples } from "./shared.js";

/**
 * Verbs (src/commands/verb.ts) as commander commands: the one place their
 * declarations become options, arguments and help. A command declared with
 * commander directly may add declared flags with `addFlags`.
 */

/** A declared option as a commander option. */
export function optionOf(d: OptionDecl): Option {
  const o = new Option(d.flags, d.description);
  if (d.repeatable && d.choices) throw new Error(`${d.name}: a repeatable flag cannot have choices`);
  if (d.choices) {
    // help lists every choice; completion offers all but the unlisted ones (they apply to a few verbs only)
    o.choices(d.choices);
    if (d.unlisted) (o as Option & { unlisted?: readonly string[] }).unlisted = d.unlisted;
    const listed = d.choices;
    // Case does not matter where no two choices differ only by it (`-o JSON`, `--env Sandbox`): the canonical word is kept.
    const byCase = new Map(d.choices.map((c) => [c.toLowerCase(), c]));
    const choices = listed;
    if (byCase.size === d.choices.length)
      o.argParser((v: string) => {
        const c = byCase.get(v.toLowerCase());
        if (c === undefined) throw new InvalidArgumentError(`Allowed choices are ${choices.join(", ")}.`);
        return c;
      });
  }
  if (d.repeatable) o.argParser(collect);
  if (d.defaultValue !== undefined) o.default(d.defaultValue);
  if (d.hidden || d.rare) o.hideHelp();
  // listed by --help-all only; completion (src/completion/model.ts) reads the mark and still offers it
  if (d.rare) (o as Option & { rare?: boolean }).rare = true;
  if (d.mandatory) o.makeOptionMandatory();
  // commander stores the value where the declaration reads it (its own camelCase name, unless the flag gives one)
  const key = d.key;
  o.attributeName = () => key;
  return o;
}

/** Add declared flags to a command (in order, groups expanded). */
export function addFlags<C extends Command>(cmd: C, flags: Flags): C {
  for (const d of optionsOf(flags)) cmd.addOption(optionOf(d));
  return cmd;
}

function argTerm(a: ArgDecl): string {
  const name = `${a.name}${a.variadic ? "..." : ""}`;
  return a.required ? `<${name}>` : `[${name}]`;
}

/**
 * Only the layers above the commands can do these; verbs reach them through their host.
 * A seam: the wizard (with @inquirer/prompts) loads when it runs.
 */
const wizard: VerbHost["wizard"] = async (deps, opts) => (await import("../wizard/command.js")).run(deps, opts);

/** A verb as a commander command; its action reads the typed flags and runs the verb. */
export function verbCommand(ctx: CliContext, verb: Verb): Command {
  const cmd = new Command(verb.name).description(verb.description);
  if (verb.aliases.length) cmd.aliases([...verb.aliases]);
  if (verb.usage !== undefined) cmd.usage(verb.usage);
  for (const a of verb.args) cmd.argument(argTerm(a), a.description);
  for (const d of verb.options) cmd.addOption(optionOf(d));
  addHelpAll(cmd);
  // `-o` values only this verb prints (markdown): completion offers them here (src/completion/model.ts)
  if (verb.outputs) (cmd as Command & { outputs?: readonly string[] }).outputs = verb.outputs;
  if (verb.examples.length > 0) cmd.addHelpText("after", examples(...verb.examples) + (verb.notes ?? ""));
  else if (verb.notes !== undefined) cmd.addHelpText("after", verb.notes);
  cmd.action(() =>
    verb.invoke({
      values: cmd.opts(),
      globals: cmd.optsWithGlobals(),
      args: cmd.processedArgs,
      makeDeps: (flags) => ctx.makeDeps(flags),
      host: { command: cmd, wizard },
    }),
  );
  return cmd;
}

/**
 * `--help-all` on a command with rarely used flags: its help with every flag
 * listed. `--help` shows the common ones and says how many are left out.
 */
export function addHelpAll(cmd: Command): void {
  const rare = cmd.options.filter((o) => (o as Option & { rare?: boolean }).rare === true);
  if (!rare.length) return;
  cmd.addOption(new Option("--help-all", `display help with every flag (${rare.length} more field flags)`));
  cmd.on("option:help-all", () => {
    for (const o of rare) o.hidden = false;
    cmd.help();
  });
}

/** Add verbs (or commands declared with commander) under a command, in order; hidden verbs stay out of help. */
export function addVerbs(ctx: CliContext, parent: Command, members: ReadonlyArray<Verb | Command>): Command {
  for (const m of members) {
    if (m instanceof Command) parent.addCommand(m);
    else parent.addCommand(verbCommand(ctx, m), m.hidden ? { hidden: true } : undefined);
  }
  return parent;
}

/**
 * The verbs of a row's module. The one dynamic import of the verb modules:
 * esbuild bundles it as a table of every module under src/commands/, each
 * initialised only when looked up here. (`.ts`: esbuild matches a template
 * import against the files as they are; only a plain path's `.js` finds its `.ts`.)
 */
async function loadRow(noun: string, row: Exclude<VerbRow, string>): Promise<Verb[]> {
  const file = row.file ?? row.words[0] ?? "";
  const mod = (await import(`../commands/${noun}/${file}.ts`)) as Record<string, Verb | undefined>;
  return (row.exports ?? ["verb"]).map((name) => {
    const v = mod[name];
    if (!v) throw new Error(`src/commands/${noun}/${file}.ts exports no verb ${name}`);
    return v;
  });
}

/**
 * Add a noun's verbs from its command table: when `verb` (the word after the
 * noun in argv) is in a row, only that row's module loads; otherwise every
 * row's, in order (the noun's help, a mistyped verb, the whole tree). A row's
 * words must be those of the verbs it loads (the whole tree, built for the
 * help pages at build time and by tests, checks every row).
 */
export async function addVerbTable(
  ctx: CliContext,
  parent: Command,
  table: readonly VerbRow[],
  verb: string | undefined,
): Promise<Command> {
  const rows = table.map((r) => (typeof r === "string" ? { words: [r] } : r));
  const row = verb === undefined ? undefined : rows.find((r) => r.words.includes(verb));
  const chosen = row ? [row] : rows;
  const loaded = await Promise.all(chosen.map((r) => loadRow(parent.name(), r)));
  chosen.forEach((r, i) => {
    const words = (loaded[i] ?? []).flatMap((v) => [v.name, ...v.aliases]);
    if (words.join(" ") !== r.words.join(" "))
      throw new Error(`command table of ${parent.name()}: row [${r.words.join(" ")}] loads [${words.join(" ")}]`);
  });
  return addVerbs(ctx, parent, loaded.flat());
}

/** A noun: a group of verbs (`rentctl auth login|status|logout`); its description comes from src/cli/nouns.ts. */
export function nounCommand(ctx: CliContext, name: string, members: ReadonlyArray<Verb | Command>): Command {
  return addVerbs(ctx, new Command(name), members);
}
