import { UsageError } from "../base/errors.js";

/**
 * Flags and positional arguments as data, read into typed values. A verb
 * (./verb.ts) declares its flags with the builders below; src/cli/assemble.ts
 * turns each `OptionDecl` into a commander option (so help, the completion
 * scripts and the build-time help pages read the same declaration), and the
 * verb reads commander's parsed values back through each flag's `read`:
 * typeof checks, never a cast. A bad value is a UsageError (exit 2) naming
 * the flag.
 *
 * No commander here, and nothing heavy: every verb module imports this.
 */

/** Parsed option values as commander stores them, by attribute name. */
export type ParsedValues = Readonly<Record<string, unknown>>;

/** One commander option, as data. */
export interface OptionDecl {
  /** commander's flags string: `-l, --limit <n>`, `--all`, `--no-verify`. */
  readonly flags: string;
  readonly description: string;
  /** Where the parsed value is stored and read (commander's camelCase name unless given; the assembler sets it). */
  readonly key: string;
  /** The long flag (or the short one), for messages: `--limit`. */
  readonly name: string;
  /** Every occurrence is collected into an array (the completion scripts offer the flag again). */
  readonly repeatable: boolean;
  /** The only values commander accepts (help lists them). */
  readonly choices?: readonly string[];
  /** Choices accepted but not listed by help or offered by completion (`-o markdown`: two commands print it). */
  readonly unlisted?: readonly string[];
  /** The value when the flag is not given, as help shows it (`(default: "20")`). */
  readonly defaultValue?: string;
  /** Accepted, but not listed in help. */
  readonly hidden: boolean;
  /** Rarely used: listed by `--help-all` only (completion offers it as any other). */
  readonly rare?: boolean;
  /** commander refuses the command without it. */
  readonly mandatory: boolean;
}

/** A flag (or a group of flags) and how its parsed value is read. */
export interface Flag<T> {
  /** The options it declares, in help order. */
  readonly options: readonly OptionDecl[];
  /** The typed value from commander's parsed values; a UsageError for a bad one. */
  read(values: ParsedValues): T;
}

/** A verb's flags by the name its typed options use; `undefined` leaves one out (flags built from a table). */
export type Flags = { readonly [name: string]: Flag<unknown> | undefined };

type ValueOf<X> = X extends Flag<infer T> ? T : undefined;

/** The typed options a flags record reads into. */
export type FlagValues<F extends Flags> = { -readonly [K in keyof F]: ValueOf<F[K]> };

/** One positional argument (its name is its key in the verb's `args`). */
export interface Arg<T> {
  readonly description?: string;
  readonly required: boolean;
  readonly variadic: boolean;
  read(value: unknown, name: string): T;
}

export type Args = { readonly [name: string]: Arg<unknown> };

/** The typed arguments an args record reads into. */
export type ArgValues<A extends Args> = { -readonly [K in keyof A]: A[K] extends Arg<infer T> ? T : never };

/** `{ name: reader }` read into `{ name: value }`, each value from its own reader. */
function readRecord<X, R>(
  spec: { readonly [name: string]: X | undefined } | undefined,
  read: (item: X, name: string, index: number) => unknown,
): R {
  const out: Record<string, unknown> = {};
  Object.entries(spec ?? {}).forEach(([name, item], index) => {
    if (item !== undefined) out[name] = read(item, name, index);
  });
  // Every member is what its own reader returned, so the record has the mapped type R; TypeScript cannot follow a
  // mapped type through a loop over keys. The one assertion of the flag machinery: no parsed value is cast.
  return out as R;
}

/** Read every flag of a record: the typed options of a verb. */
export function readFlags<F extends Flags>(flags: F | undefined, values: ParsedValues): FlagValues<F> {
  return readRecord<Flag<unknown>, FlagValues<F>>(flags, (f) => f.read(values));
}

/** Read positional arguments in declaration order from commander's processed arguments. */
export function readArgs<A extends Args>(args: A | undefined, processed: readonly unknown[]): ArgValues<A> {
  return readRecord<Arg<unknown>, ArgValues<A>>(args, (a, name, i) => a.read(processed[i], name));
}

/** Every option of a flags record, in order (groups expanded). */
export function optionsOf(flags: Flags): OptionDecl[] {
  return Object.values(flags).flatMap((f) => f?.options ?? []);
}

// --- declaring options ---------------------------------------------------------------------------------------------

interface Common {
  /** Accepted, not listed in help (an alias). */
  hidden?: boolean;
  /** Listed by `--help-all` only (a rarely used field flag). */
  rare?: boolean;
  /** Store the value under this attribute instead of the camelCase name (two flags for one field stay apart). */
  key?: string;
  /** choice only: of its choices, those help and completion do not list. */
  unlisted?: readonly string[];
}

/** The attribute name commander gives a flags string: `--from-file <f>` -> fromFile, `--no-verify` -> verify. */
export function attributeOf(flags: string): string {
  const long = /(?:^|[\s,|])--([^\s,|<[]+)/.exec(flags)?.[1];
  const short = /(?:^|[\s,|])-([^-\s,|])/.exec(flags)?.[1];
  const name = long !== undefined ? long.replace(/^no-/, "") : (short ?? flags);
  return name.split("-").reduce((s, w) => s + (w[0] ?? "").toUpperCase() + w.slice(1));
}

function flagName(flags: string): string {
  return /(?:^|[\s,|])(--[^\s,|<[]+)/.exec(flags)?.[1] ?? /(?:^|[\s,|])(-[^-\s,|])/.exec(flags)?.[1] ?? flags;
}

function decl(flags: string, description: string, o: Common, more: Partial<OptionDecl> = {}): OptionDecl {
  return {
    flags,
    description,
    key: o.key ?? attributeOf(flags),
    name: flagName(flags),
    repeatable: false,
    hidden: o.hidden ?? false,
    ...(o.rare ? { rare: true } : {}),
    mandatory: false,
    ...more,
  };
}

/** commander gave something the declaration cannot produce: a bug in the wiring, not a user's mistake. */
function wiring(d: OptionDecl, v: unknown, expected: string): Error {
  return new Error(`${d.name}: expected ${expected} from the parser, got ${typeof v}`);
}

function text(d: OptionDecl, values: ParsedValues): string | undefined {
  const v = values[d.key];
  if (v === undefined || typeof v === "string") return v;
  throw wiring(d, v, "text");
}

function single<T>(d: OptionDecl, read: (values: ParsedValues) => T): Flag<T> {
  return { options: [d], read };
}

// --- the builders ----------------------------------------------------------------------------------------------------

/** A switch: `--all`; `--no-verify` reads true unless given. */
function bool(flags: string, description: string, o: Common = {}): Flag<boolean> {
  const d = decl(flags, description, o);
  const negated = /(?:^|[\s,|])--no-/.test(flags);
  return single(d, (values) => {
    const v = values[d.key];
    if (v === undefined) return negated;
    if (typeof v === "boolean") return v;
    throw wiring(d, v, "a switch");
  });
}

interface Given {
  /** The value when the flag is not given (help shows it). */
  default: string;
}
interface Required {
  /** commander refuses the command without the flag. */
  required: true;
}

/** A value: `--from-file <file>`. With a default or required: always a string. */
function string(flags: string, description: string, o: Common & (Given | Required)): Flag<string>;
function string(flags: string, description: string, o?: Common): Flag<string | undefined>;
function string(flags: string, description: string, o: Common & Partial<Given> & { required?: true } = {}) {
  const d = decl(flags, description, o, { defaultValue: o.default, mandatory: o.required === true });
  return single(d, (values) => {
    const v = text(d, values);
    if (v === undefined && (d.mandatory || d.defaultValue !== undefined)) throw wiring(d, v, "a value");
    return v;
  });
}

/** A switch that may take a value: `--allow-writes` is true, `--allow-writes=sandbox` the word. */
function optional(flags: string, description: string, o: Common = {}): Flag<string | true | undefined> {
  const d = decl(flags, description, o);
  return single(d, (values) => {
    const v = values[d.key];
    if (v === undefined || v === true || typeof v === "string") return v;
    throw wiring(d, v, "a switch or a value");
  });
}

/** A repeatable value: `--where <expr>` given any number of times, in order ([] when never). */
function list(flags: string, description: string, o: Common = {}): Flag<string[]> {
  const d = decl(flags, description, o, { repeatable: true });
  return single(d, (values) => {
    const v = values[d.key];
    if (v === undefined) return [];
    const out: string[] = [];
    if (Array.isArray(v)) for (const s of v) if (typeof s === "string") out.push(s);
    if (!Array.isArray(v) || out.length !== v.length) throw wiring(d, v, "a list of values");
    return out;
  });
}

/** One of fixed words: commander refuses others (and help lists them). */
function choice<const C extends string>(
  flags: string,
  description: string,
  choices: readonly C[],
  o: Common & Given,
): Flag<C>;
function choice<const C extends string>(
  flags: string,
  description: string,
  choices: readonly C[],
  o?: Common,
): Flag<C | undefined>;
function choice<const C extends string>(
  flags: string,
  description: string,
  choices: readonly C[],
  o: Common & Partial<Given> = {},
) {
  const d = decl(flags, description, o, {
    choices,
    defaultValue: o.default,
    ...(o.unlisted ? { unlisted: o.unlisted } : {}),
  });
  return single(d, (values) => {
    const v = text(d, values);
    if (v === undefined) return undefined;
    const c = choices.find((x) => x === v) ?? choices.find((x) => x.toLowerCase() === v.toLowerCase());
    if (c === undefined)
      throw new UsageError(`${d.name}: expected one of ${choices.join(", ")}, got ${JSON.stringify(v)}`);
    return c;
  });
}

interface Range {
  min: number;
  max?: number;
}

function numeric(whole: boolean) {
  function build(flags: string, description: string, o: Common & Range & Given): Flag<number>;
  function build(flags: string, description: string, o: Common & Range): Flag<number | undefined>;
  function build(flags: string, description: string, o: Common & Range & Partial<Given>) {
    const d = decl(flags, description, o, { defaultValue: o.default });
    const kind = whole ? "a whole number" : "a number";
    const range = o.max !== undefined ? `from ${o.min} to ${o.max}` : `of at least ${o.min}`;
    return single(d, (values) => {
      const raw = text(d, values);
      // An empty value is no value (`--limit "$LIMIT"` with LIMIT unset), as for the settings.
      if (raw === undefined || raw.trim() === "") return undefined;
      const s = raw.trim();
      const n = Number(s);
      const shaped = whole ? (o.min >= 0 ? /^\d+$/ : /^-?\d+$/).test(s) : Number.isFinite(n);
      if (!shaped || n < o.min || (o.max !== undefined && n > o.max))
        throw new UsageError(`${d.name}: expected ${kind} ${range}, got ${JSON.stringify(raw)}`);
      return n;
    });
  }
  return build;
}

/**
 * Several flags read as one value: `read` gets the members' typed values by
 * their names (the vehicle field flags, read into one record by wire name).
 */
function group<F extends Flags, T>(members: F, read: (values: FlagValues<F>) => T): Flag<T> {
  return { options: optionsOf(members), read: (values) => read(readFlags(members, values)) };
}

export const flag = {
  bool,
  string,
  optional,
  list,
  choice,
  /** A whole number in a range: `--limit <n>`; a UsageError names the flag and the range. */
  int: numeric(true),
  /** A number in a range (fractions allowed): `--fail-rate <r>`. */
  number: numeric(false),
  group,
};

// --- positional arguments --------------------------------------------------------------------------------------------

function argText(value: unknown, name: string): string | undefined {
  if (value === undefined || typeof value === "string") return value;
  throw new Error(`argument ${name}: expected text from the parser, got ${typeof value}`);
}

export const arg = {
  /** `<id>`: commander refuses the command without it. */
  required(description?: string): Arg<string> {
    return {
      description,
      required: true,
      variadic: false,
      read(value, name) {
        const v = argText(value, name);
        if (v === undefined) throw new Error(`argument ${name}: missing after parsing`);
        return v;
      },
    };
  },
  /** `[file]`. */
  optional(description?: string): Arg<string | undefined> {
    return { description, required: false, variadic: false, read: argText };
  },
  /** `[ids...]` (or `<files...>` with required): every remaining word. */
  variadic(description?: string, o: { required?: boolean } = {}): Arg<string[]> {
    return {
      description,
      required: o.required ?? false,
      variadic: true,
      read(value, name) {
        if (value === undefined) return [];
        const out: string[] = [];
        if (Array.isArray(value)) for (const s of value) if (typeof s === "string") out.push(s);
        if (!Array.isArray(value) || out.length !== value.length)
          throw new Error(`argument ${name}: expected words from the parser`);
        return out;
      },
    };
  },
};
