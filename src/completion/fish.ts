import { allCommands, type CompletionModel, type OptionSpec, type ValueSource } from "./model.js";
import { COMPLETE_COMMAND, functionName, header, scriptLines } from "./text.js";

/**
 * The fish script: `complete` lines conditioned on the command path at the
 * cursor, which one function works out from the tokens before it (with the
 * tables of subcommands and of flags taking a value).
 */

/** A single-quoted fish word. */
function q(s: string): string {
  return `'${s.replace(/[\\']/g, "\\$&")}'`;
}

const key = (path: readonly string[]) => path.join(" ");

function flagsOf(o: OptionSpec): string[] {
  return [o.short, o.long].filter((f): f is string => Boolean(f));
}

export function fishScript(model: CompletionModel): string {
  const p = model.program;
  const fn = functionName(p, "__");
  const commands = allCommands(model.root);
  const { line, text } = scriptLines();

  /** `-a …` (with `-f`/`-F`) completing a value. */
  const valueArgs = (v: ValueSource): string => {
    switch (v.kind) {
      case "none":
        return "-f";
      case "file":
        return "-F";
      case "words":
        return `-f -a ${q(v.words.map((w) => w.replace(/([\\\s'"()$*?{}[\];&|<>#~])/g, "\\$1")).join(" "))}`;
      case "assign":
        return `-f -a ${q(v.words.map((w) => `${w}=`).join(" "))}`;
      case "list":
        return `-f -a ${q(`(${fn}_list ${v.words.join(" ")})`)}`;
      case "dynamic":
        return `-f -a ${q(`(${fn}_dynamic ${v.args.join(" ")})`)}`;
    }
  };
  const optionLine = (o: OptionSpec, condition: string | undefined): string => {
    const parts = [`complete -c ${p}`];
    if (condition) parts.push(`-n ${q(condition)}`);
    if (o.short) parts.push(`-s ${o.short.slice(1)}`);
    if (o.long) parts.push(`-l ${o.long.slice(2)}`);
    if (o.takesValue) parts.push(o.valueOptional ? "" : "-r", valueArgs(o.values));
    parts.push(`-d ${q(o.description)}`);
    return parts.filter(Boolean).join(" ");
  };
  const paths = (ps: ReadonlyArray<readonly string[]>) => ps.map((x) => q(key(x))).join(" ");

  line(`# fish completion for ${p}`);
  for (const h of header(p, "fish")) line(`# ${h}`);
  line("#");
  line(`# Install: copy to ~/.config/fish/completions/${p}.fish`);
  line(`# or: ${p} completion fish | source`);
  line();
  line(`complete -c ${p} -e`);
  line(`# No file names unless a flag or argument takes a file.`);
  line(`complete -c ${p} -f`);
  line();

  line(`# ${fn}_child PATH WORD: print the path of the subcommand WORD of PATH.`);
  line(`function ${fn}_child`);
  line(`    switch "$argv[1]|$argv[2]"`);
  for (const c of commands) {
    for (const s of c.commands) {
      const names = [s.name, ...s.aliases].map((n) => q(`${key(c.path)}|${n}`));
      line(`        case ${names.join(" ")}`);
      line(`            echo ${q(key(s.path))}`);
    }
  }
  line("        case '*'");
  line("            return 1");
  line("    end");
  line("end");
  line();

  line(`# ${fn}_takes_value PATH FLAG: FLAG takes a value under PATH.`);
  line(`function ${fn}_takes_value`);
  line('    switch "$argv[1]"');
  for (const c of commands) {
    const valued = c.options.filter((o) => o.takesValue).flatMap(flagsOf);
    if (!valued.length) continue;
    line(`        case ${q(key(c.path))}`);
    line(`            contains -- $argv[2] ${valued.map(q).join(" ")}; and return 0`);
  }
  line("    end");
  const globalValued = model.globals.filter((o) => o.takesValue).flatMap(flagsOf);
  if (globalValued.length) {
    line(`    contains -- $argv[2] ${globalValued.map(q).join(" ")}; and return 0`);
  }
  line("    return 1");
  line("end");
  line();

  line(FISH_HELPERS.replaceAll("__FN__", fn).replaceAll("__PROG__", p).replaceAll("__COMPLETE__", COMPLETE_COMMAND));

  line("# Subcommands");
  for (const c of commands) {
    for (const s of c.commands.filter((x) => !x.hidden)) {
      line(`complete -c ${p} -n ${q(`${fn}_needs_command ${q(key(c.path))}`)} -a ${q(s.name)} -d ${q(s.description)}`);
    }
  }
  line();

  line("# Flags of each command");
  for (const c of commands) {
    for (const o of c.options.filter((x) => !x.hidden)) line(optionLine(o, `${fn}_using ${q(key(c.path))}`));
  }
  line();

  line("# Global flags (every command accepts them)");
  model.globals.forEach((g, i) => {
    if (g.hidden) return;
    // Commands where this flag's value completes differently, grouped by how.
    const overrides = new Map<string, { spec: OptionSpec; paths: Array<readonly string[]> }>();
    for (const c of commands) {
      const here = c.globals[i]!;
      if (JSON.stringify(here.values) === JSON.stringify(g.values)) continue;
      const k = JSON.stringify(here.values);
      const entry = overrides.get(k) ?? { spec: here, paths: [] };
      entry.paths.push(c.path);
      overrides.set(k, entry);
    }
    const elsewhere = [...overrides.values()].flatMap((e) => e.paths);
    line(optionLine(g, elsewhere.length ? `not ${fn}_using ${paths(elsewhere)}` : undefined));
    for (const e of overrides.values()) line(optionLine(e.spec, `${fn}_using ${paths(e.paths)}`));
  });
  line();

  line("# Positional arguments");
  for (const c of commands) {
    if (c.commands.some((s) => !s.hidden)) continue;
    c.args.forEach((a, i) => {
      if (a.values.kind === "none") return;
      const cond = `${fn}_arg ${q(key(c.path))} ${i}${a.variadic ? " more" : ""}`;
      line(`complete -c ${p} -n ${q(cond)} ${valueArgs(a.values)}`);
    });
  }
  return text();
}

const FISH_HELPERS = `# __FN___state: print the number of positional arguments, then the command
# path, for the tokens before the cursor (remembered for the line).
function __FN___state
    set -l line (commandline -opc)
    if set -q __FN___state_key; and test "$__FN___state_key" = "$line"
        printf '%s\\n' $__FN___state_value
        return
    end
    set -l tokens $line
    set -e tokens[1]
    set -l cmdpath ''
    set -l nargs 0
    set -l expect 0
    set -l dashdash 0
    set -l child
    for t in $tokens
        if test $expect = 1
            set expect 0
        else if test $dashdash = 1
            set nargs (math $nargs + 1)
        else
            switch $t
                case '--'
                    set dashdash 1
                case '-'
                    set nargs (math $nargs + 1)
                case '--*=*'
                case '-*'
                    __FN___takes_value "$cmdpath" $t; and set expect 1
                case '*'
                    if test $nargs = 0; and set child (__FN___child "$cmdpath" $t)
                        set cmdpath $child
                    else
                        set nargs (math $nargs + 1)
                    end
            end
        end
    end
    set -g __FN___state_key "$line"
    set -g __FN___state_value $nargs $cmdpath
    printf '%s\\n' $nargs $cmdpath
end

# __FN___using PATH…: the cursor is under one of these commands.
function __FN___using
    set -l s (__FN___state)
    contains -- "$s[2]" $argv
end

# __FN___needs_command PATH: the cursor is where a subcommand of PATH goes.
function __FN___needs_command
    set -l s (__FN___state)
    test "$s[2]" = "$argv[1]"; and test "$s[1]" = 0
end

# __FN___arg PATH INDEX [more]: the cursor is on positional argument INDEX (or later, with "more") of PATH.
function __FN___arg
    set -l s (__FN___state)
    test "$s[2]" = "$argv[1]"; or return 1
    if set -q argv[3]
        test "$s[1]" -ge "$argv[2]"
    else
        test "$s[1]" = "$argv[2]"
    end
end

# A comma-separated list: complete its last item.
function __FN___list
    set -l token (commandline -ct)
    set -l token (string replace -r -- '^--?[^=]*=' '' $token)
    set -l head (string replace -r -- '[^,]*$' '' $token)
    for w in $argv
        contains -- $w (string split , -- $head); or printf '%s%s\\n' $head $w
    end
end

# Values known only at TAB time (profile names, cached catalogs), asked of
# \`__PROG__ __COMPLETE__ ARGS\`: one "value<TAB>description" per line.
function __FN___dynamic
    set -lx RENTCTL_COMPLETE_WORDS (string join \\n -- (commandline -opc)[2..-1] | string collect)
    command __PROG__ __COMPLETE__ $argv 2>/dev/null
end
`;
