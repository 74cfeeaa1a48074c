/**
 * The top-level commands, in help order, and how argv names one. Free of
 * dependencies: the start-up path (src/boot.ts) reads it before anything
 * else loads. `summary` is the one declaration of a noun's description and
 * `term` its line in root help (what commander prints for the built
 * command). `verbs`, where given, is the noun's command table, in help
 * order: its verbs, each declared in src/commands/<noun>/<file>.ts and
 * loaded when it runs (see VerbRow); src/cli/program.ts holds the builder
 * of each other noun.
 */
export const NOUNS = [
  {
    name: "auth",
    term: "auth",
    summary: "Log in with an API key, check it, log out",
    verbs: ["login", "status", "logout", "migrate"],
  },
  {
    name: "profile",
    term: "profile",
    summary: "Manage saved profiles (environment, address, owner, key)",
    verbs: ["list", "show", "use", "set", "remove"],
  },
  {
    name: "catalog",
    term: "catalog",
    summary: "Read the public reference catalogs (no API key needed)",
  },
  {
    name: "vehicle",
    term: "vehicle",
    summary: "List, show, create, edit, remove and (de)activate vehicles",
    verbs: [
      "list",
      { words: ["get", "show"] },
      "create",
      "wizard",
      "edit",
      { words: ["remove", "delete", "rm"] },
      { words: ["activate", "deactivate"], exports: ["activateVerb", "deactivateVerb"] },
      "calendar",
      "export",
      "import",
      "diff",
      "apply",
      "schema",
    ],
  },
  {
    name: "image",
    term: "image",
    summary: "Upload vehicle images",
    verbs: ["upload"],
  },
  {
    name: "extra",
    term: "extra",
    summary: "Manage the account's paid extras (child seats, GPS, …)",
    verbs: [
      "options",
      "list",
      { words: ["get", "show"] },
      "create",
      "update",
      { words: ["enable", "disable"], exports: ["enableVerb", "disableVerb"] },
      "switch",
      { words: ["delete", "remove", "rm"], file: "remove" },
    ],
  },
  {
    name: "account",
    term: "account",
    summary: "The whole account (extras and vehicles) as one file: export, diff, apply, schema",
    verbs: ["export", "diff", "apply", "schema"],
  },
  {
    name: "lint",
    term: "lint [options]",
    summary: "Check the listings (live, or an account file) for problems before customers see them",
  },
  {
    name: "undo",
    term: "undo [options] [op]",
    summary: "List recent edits and removals, or restore one (a removed vehicle is re-created with a new id)",
  },
  {
    name: "api",
    term: "api [options] [path]",
    summary: "Call any v302 operation raw, with the same auth, encoding, errors and exit codes",
  },
  {
    name: "mcp",
    term: "mcp [options]",
    summary: "Serve the inventory to AI assistants (Model Context Protocol, stdio): read-only unless --allow-writes",
  },
  {
    name: "sandbox",
    term: "sandbox",
    summary: "The built-in sandbox: a local, stateful stand-in for the marketplace's v302 API (not the marketplace)",
    verbs: ["serve", "reset", "repair", "info"],
  },
  {
    name: "completion",
    term: "completion [shell]",
    summary: "Print the shell completion script for bash, zsh or fish",
  },
] as const;

export type NounName = (typeof NOUNS)[number]["name"];

/**
 * A row of a noun's command table: the words its verbs answer to (each
 * verb's name, then its aliases) and the module that declares them,
 * src/commands/<noun>/<file>.ts, imported only when one of those words runs
 * (or for the noun's help). A plain word is a module of that name declaring
 * one verb of that name. (src/cli/assemble.ts, addVerbTable, reads it.)
 */
export type VerbRow =
  | string
  | {
      readonly words: readonly string[];
      /** The module's file name, without extension (default: the first word). */
      readonly file?: string;
      /** The names under which the module exports its verbs (default: `verb` alone). */
      readonly exports?: readonly string[];
    };

/** Global flags that take a value: their value is not the noun. */
const VALUE_FLAGS = new Set([
  "-p",
  "--profile",
  "--env",
  "--base-url",
  "--user",
  "--locale",
  "-o",
  "--output",
  "--timeout",
  "--fields",
]);

/**
 * The noun argv invokes: a name of NOUNS, `null` for none (root help,
 * --version, no arguments), or `undefined` when every noun must be built
 * (`help <noun>`, a mistyped noun that needs suggestions, `completion`, which
 * reads the whole tree).
 */
export function invokedNoun(argv: readonly string[]): NounName | null | undefined {
  const first = words(argv).next();
  if (first.done) return first.value;
  const noun = NOUNS.find((n) => n.name === first.value);
  return noun && noun.name !== "completion" ? noun.name : undefined;
}

/**
 * The noun's next word in argv (`list` in `vehicle -o json list`): the verb
 * when the noun has verbs, else its argument. Undefined when there is none.
 */
export function invokedVerb(argv: readonly string[]): string | undefined {
  const it = words(argv);
  it.next();
  const second = it.next();
  return second.done ? undefined : second.value;
}

/**
 * `help NOUN VERB ...` as `NOUN VERB ... --help` (commander's own help command
 * takes one word only, so `rentctl help vehicle list` showed the noun's help).
 * Global flags stay where they were; `help` alone is left as it is.
 */
export function helpAsFlag(argv: readonly string[]): string[] {
  const it = words(argv);
  const first = it.next();
  if (first.done || first.value !== "help") return [...argv];
  const at = argv.indexOf("help");
  const rest = argv.slice(at + 1);
  const topic = rest.find((a) => !a.startsWith("-"));
  if (topic === undefined) return [...argv];
  // `help nosuch` is the usage error `rentctl nosuch` is (exit 2, did-you-mean), not the root help
  if (!NOUNS.some((n) => n.name === topic)) return [...argv.slice(0, at), ...rest];
  return [...argv.slice(0, at), ...rest, "--help"];
}

/** The words of argv that are no flag or flag value; returns null when there are none, undefined at `--`. */
function* words(argv: readonly string[]): Generator<string, null | undefined> {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === "--") return undefined;
    if (a.startsWith("-")) {
      if (VALUE_FLAGS.has(a)) i++;
      continue;
    }
    yield a;
  }
  return null;
}
