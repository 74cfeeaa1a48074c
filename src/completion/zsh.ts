import type { CommandSpec, CompletionModel, OptionSpec, ValueSource } from "./model.js";
import { COMPLETE_COMMAND, functionName, header } from "./text.js";

/**
 * The zsh script: one `_arguments` function per command (the global flags
 * are accepted at every level, as commander does), `_describe` for
 * subcommands, static value lists inline. Works autoloaded from `$fpath` as
 * `_rentctl` and sourced (`source <(rentctl completion zsh)`).
 */

/** A single-quoted zsh word. */
function q(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Text inside an `_arguments` `[description]`. */
function bracket(s: string): string {
  return s.replace(/\\/g, "\\\\").replace(/([[\]:])/g, "\\$1");
}

/** A colon-separated field of an `_arguments` spec (message, `_describe` name). */
function colon(s: string): string {
  return s.replace(/\\/g, "\\\\").replace(/:/g, "\\:");
}

function funcName(fn: string, path: readonly string[]): string {
  return [fn, ...path.map((p) => p.replace(/[^A-Za-z0-9_]/g, "_"))].join("__");
}

class Actions {
  /** Long word lists become one helper function each, shared by every flag that uses them. */
  readonly helpers = new Map<string, string>();
  constructor(private readonly fn: string) {}

  action(v: ValueSource): string {
    switch (v.kind) {
      case "none":
        return " ";
      case "file":
        return "_files";
      case "words":
        return v.words.length > 12
          ? this.helper(`compadd -- ${v.words.map(q).join(" ")}`)
          : `(${v.words.map((w) => w.replace(/([\\\s()'"])/g, "\\$1")).join(" ")})`;
      case "assign":
        return this.helper(`${this.fn}_assign ${v.words.map(q).join(" ")}`);
      case "list":
        return this.helper(`${this.fn}_list ${v.words.map(q).join(" ")}`);
      case "dynamic":
        return `{${this.fn}_dynamic ${v.args.join(" ")}}`;
    }
  }

  private helper(body: string): string {
    let name = this.helpers.get(body);
    if (!name) {
      name = `${this.fn}_values_${this.helpers.size + 1}`;
      this.helpers.set(body, name);
    }
    // The {…} form runs as written: a plain command would get compadd options inserted before its arguments.
    return `{${name}}`;
  }
}

function optionSpecs(o: OptionSpec, actions: Actions): string[] {
  const names: string[] = [];
  if (o.short) names.push(`${o.short}${o.takesValue ? "+" : ""}`);
  if (o.long) names.push(`${o.long}${o.takesValue ? "=" : ""}`);
  const value = o.takesValue
    ? `:${o.valueOptional ? ":" : ""}${colon(o.valueName || "value")}:${actions.action(o.values)}`
    : "";
  const rest = `[${bracket(o.description)}]${value}`;
  if (names.length > 1) {
    const prefix = o.repeatable ? "'*'" : q(`(${[o.short, o.long].join(" ")})`);
    return [`${prefix}{${names.join(",")}}${q(rest)}`];
  }
  return [q(`${o.repeatable ? "*" : ""}${names[0]!}${rest}`)];
}

export function zshScript(model: CompletionModel): string {
  const p = model.program;
  const fn = functionName(p, "_");
  const actions = new Actions(fn);
  const body: string[] = [];
  const line = (s = "") => body.push(s);
  const globalsFn = `${fn}_globals`;

  const sameGlobals = (c: CommandSpec) =>
    c.globals.every((g, i) => JSON.stringify(g.values) === JSON.stringify(model.globals[i]!.values));

  const emit = (c: CommandSpec) => {
    const name = funcName(fn, c.path);
    const visibleSubs = c.commands.filter((s) => !s.hidden);
    // Hidden subcommands are not completed: a command with only those completes as a leaf.
    const hasSubs = visibleSubs.length > 0;
    const specs: string[] = [];
    for (const o of c.options) if (!o.hidden) specs.push(...optionSpecs(o, actions));
    const globals = sameGlobals(c) ? "$reply" : null;
    const inlineGlobals = globals ? [] : c.globals.filter((o) => !o.hidden).flatMap((o) => optionSpecs(o, actions));
    const label = [p, ...c.path].join(" ");
    line(`# ${label}`);
    line(`${name}() {`);
    if (hasSubs) {
      line("  local curcontext=$curcontext state state_descr line ret=1");
      line("  typeset -A opt_args");
    }
    if (globals) line(`  ${globalsFn}`);
    const args = [...(globals ? [globals] : inlineGlobals), ...specs];
    if (hasSubs) {
      args.push(q("1: :->command"), q("*:: :->argument"));
    } else {
      for (const a of c.args) {
        const head = a.variadic ? "*:" : a.required ? ":" : "::";
        args.push(q(`${head}${colon(a.name)}:${actions.action(a.values)}`));
      }
    }
    // a parent stops at its subcommand's name: the options after it are the subcommand's (`account diff -o`)
    line(`  _arguments ${hasSubs ? "-C -A '-*' " : ""}-s -S : \\`);
    args.forEach((a, i) => {
      line(`    ${a}${i < args.length - 1 ? " \\" : hasSubs ? " && ret=0" : ""}`);
    });
    if (hasSubs) {
      line("  case $state in");
      line("    command)");
      line("      local -a commands=(");
      for (const s of visibleSubs) line(`        ${q(`${colon(s.name)}:${s.description}`)}`);
      line("      )");
      line(`      _describe -t commands ${q(`${label} command`)} commands && ret=0`);
      line("      ;;");
      line("    argument)");
      line("      case $words[1] in");
      for (const s of visibleSubs) {
        line(`        ${[s.name, ...s.aliases].map(q).join("|")}) ${funcName(fn, s.path)} && ret=0 ;;`);
      }
      line("      esac");
      line("      ;;");
      line("  esac");
      line("  return ret");
    }
    line("}");
    line();
    for (const s of visibleSubs) emit(s);
  };
  emit(model.root);

  const out: string[] = [];
  const o = (s = "") => out.push(s);
  o(`#compdef ${p}`);
  o(`# zsh completion for ${p}`);
  for (const h of header(p, "zsh")) o(`# ${h}`);
  o("#");
  o(`# Install: save as _${p} in a directory of $fpath (before compinit runs),`);
  o(`# or: source <(${p} completion zsh)   (in ~/.zshrc, after compinit)`);
  o();
  o("# The flags every command accepts.");
  o(`${globalsFn}() {`);
  o("  reply=(");
  for (const g of model.globals) if (!g.hidden) for (const s of optionSpecs(g, actions)) o(`    ${s}`);
  o("  )");
  o("}");
  o();
  o(ZSH_HELPERS.replaceAll("__FN__", fn).replaceAll("__PROG__", p).replaceAll("__COMPLETE__", COMPLETE_COMMAND));
  for (const [code, name] of actions.helpers) {
    o(`${name}() {`);
    o(`  ${code}`);
    o("}");
    o();
  }
  out.push(...body);
  o(`if [[ $funcstack[1] == ${fn} ]]; then`);
  o(`  ${fn} "$@"`);
  o("else");
  o(`  compdef ${fn} ${p}`);
  o("fi");
  return `${out.join("\n")}\n`;
}

const ZSH_HELPERS = `# Values known only at TAB time (profile names, cached catalogs), asked of
# \`__PROG__ __COMPLETE__ ARGS\`: one "value<TAB>description" per line.
__FN___dynamic() {
  local -a lines described plain
  local l v
  lines=(\${(f)"$(RENTCTL_COMPLETE_WORDS="\${(pj:\\n:)words[2,CURRENT-1]}" command __PROG__ __COMPLETE__ "$@" 2>/dev/null)"})
  for l in $lines; do
    v=\${l%%$'\\t'*}
    [[ -n $v ]] || continue
    if [[ $l == *$'\\t'* ]]; then
      described+=("\${v//:/\\\\:}:\${l#*$'\\t'}")
    else
      plain+=("$v")
    fi
  done
  (( $#described )) && _describe -t values value described
  (( $#plain )) && compadd -- $plain
  return 0
}

# NAME=VALUE pairs: offer NAME= and no space after it.
__FN___assign() {
  [[ $PREFIX == *=* ]] && return 1
  compadd -S = -- "$@"
}

# A comma-separated list of these words.
__FN___list() {
  _values -s , value "$@"
}
`;
