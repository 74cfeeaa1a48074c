import { allCommands, type CompletionModel, type OptionSpec, type ValueSource } from "./model.js";
import { COMPLETE_COMMAND, functionName, header, scriptLines } from "./text.js";

/**
 * The bash script: the command tree as `case` tables (subcommands, flags,
 * which flags take a value, how values complete) and one function that walks
 * the words before the cursor through them. Only dynamic values call back
 * into the CLI.
 */

/** A single-quoted bash word. */
function q(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

const key = (path: readonly string[]) => path.join(" ");

/** A `case` pattern matching exactly this text. */
function pat(s: string): string {
  return /^[-A-Za-z0-9_.,/+@%]+$/.test(s) ? s : q(s);
}

function flagsOf(o: OptionSpec): string[] {
  return [o.short, o.long].filter((f): f is string => Boolean(f));
}

/** The shell code completing a value, or "" for nothing. */
function valueCode(fn: string, v: ValueSource): string {
  switch (v.kind) {
    case "none":
      return "";
    case "file":
      return `${fn}_files`;
    case "words":
      return `${fn}_words ${q(v.words.join(" "))}`;
    case "assign":
      return `${fn}_assign ${q(v.words.join(" "))}`;
    case "list":
      return `${fn}_list ${q(v.words.join(" "))}`;
    case "dynamic":
      return `${fn}_dynamic ${v.args.map(q).join(" ")}`;
  }
}

/** `case` arms grouping the patterns that run the same code, in first-seen order. */
function arms(entries: Array<[pattern: string, code: string]>, indent: string): string[] {
  const groups = new Map<string, string[]>();
  for (const [pattern, code] of entries) {
    const g = groups.get(code) ?? [];
    g.push(pattern);
    groups.set(code, g);
  }
  return [...groups].map(([code, patterns]) => `${indent}${patterns.join(` |\\\n${indent}`)}) ${code || ":"} ;;`);
}

export function bashScript(model: CompletionModel): string {
  const p = model.program;
  const fn = functionName(p, "_");
  const commands = allCommands(model.root);
  const { line, text } = scriptLines();

  line(`# bash completion for ${p}`);
  for (const h of header(p, "bash")) line(`# ${h}`);
  line("#");
  line(`# Install: source <(${p} completion bash)   (in ~/.bashrc), or copy this file to`);
  line(`# ~/.local/share/bash-completion/completions/${p}`);
  line();

  // Subcommands: PATH|WORD -> the child's path (aliases and hidden commands included, for the walk).
  line(`# ${fn}_child PATH WORD: REPLY is the path of the subcommand WORD of PATH.`);
  line(`${fn}_child() {`);
  line(`  case "$1|$2" in`);
  for (const c of commands) {
    for (const s of c.commands) {
      for (const n of [s.name, ...s.aliases]) line(`    ${q(`${key(c.path)}|${n}`)}) REPLY=${q(key(s.path))} ;;`);
    }
  }
  line("    *) return 1 ;;");
  line("  esac");
  line("}");
  line();

  line(`# ${fn}_commands PATH: REPLY lists the subcommands of PATH to offer.`);
  line(`${fn}_commands() {`);
  line("  case $1 in");
  for (const c of commands) {
    const names = c.commands.filter((s) => !s.hidden).map((s) => s.name);
    if (names.length) line(`    ${q(key(c.path))}) REPLY=${q(names.join(" "))} ;;`);
  }
  line("    *) REPLY='' ;;");
  line("  esac");
  line("}");
  line();

  const globalFlags = model.globals.filter((o) => !o.hidden).flatMap(flagsOf);
  line(`# ${fn}_flags PATH: REPLY lists the flags of PATH, the global ones included.`);
  line(`${fn}_flags() {`);
  line("  case $1 in");
  for (const c of commands) {
    const flags = c.options.filter((o) => !o.hidden).flatMap(flagsOf);
    if (flags.length) line(`    ${q(key(c.path))}) REPLY=${q(flags.join(" "))} ;;`);
  }
  line("    *) REPLY='' ;;");
  line("  esac");
  line(`  REPLY+=${q(` ${globalFlags.join(" ")}`)}`);
  line("}");
  line();

  line(`# ${fn}_takes_value PATH FLAG: succeeds when FLAG takes a value under PATH.`);
  line(`${fn}_takes_value() {`);
  line("  case $1 in");
  for (const c of commands) {
    const valued = c.options.filter((o) => o.takesValue).flatMap(flagsOf);
    if (valued.length) line(`    ${q(key(c.path))}) case $2 in ${valued.map(pat).join(" | ")}) return 0 ;; esac ;;`);
  }
  line("  esac");
  const globalValued = model.globals.filter((o) => o.takesValue).flatMap(flagsOf);
  if (globalValued.length) {
    line("  case $2 in");
    line(`    ${globalValued.join(" | ")}) return 0 ;;`);
    line("  esac");
  }
  line("  return 1");
  line("}");
  line();

  line(`# ${fn}_flag_values PATH FLAG: complete the value of FLAG under PATH.`);
  line(`${fn}_flag_values() {`);
  line(`  case "$1|$2" in`);
  const valueArms: Array<[string, string]> = [];
  const valuedGlobals = new Set(model.globals.filter((g) => g.takesValue).flatMap(flagsOf));
  for (const c of commands) {
    for (const o of c.options) {
      if (!o.takesValue) continue;
      for (const f of flagsOf(o)) {
        const code = valueCode(fn, o.values);
        // An arm doing nothing is needed only to hide a global flag of the same name.
        if (code || valuedGlobals.has(f)) valueArms.push([q(`${key(c.path)}|${f}`), code]);
      }
    }
    // Global flags completing differently here (e.g. --fields under vehicle).
    c.globals.forEach((g, i) => {
      const base = model.globals[i]!;
      if (!g.takesValue || JSON.stringify(g.values) === JSON.stringify(base.values)) return;
      for (const f of flagsOf(g)) valueArms.push([q(`${key(c.path)}|${f}`), valueCode(fn, g.values)]);
    });
  }
  const globalArms: Array<[string, string]> = [];
  for (const g of model.globals) {
    if (!g.takesValue) continue;
    for (const f of flagsOf(g)) globalArms.push([`*${q(`|${f}`)}`, valueCode(fn, g.values)]);
  }
  for (const a of [...arms(valueArms, "    "), ...arms(globalArms, "    ")]) line(a);
  line("  esac");
  line("}");
  line();

  line(`# ${fn}_arg_values PATH INDEX: complete the positional argument INDEX (from 0) of PATH.`);
  line(`${fn}_arg_values() {`);
  const exact: Array<[string, string]> = [];
  const rest: Array<[string, string]> = [];
  for (const c of commands) {
    if (c.commands.some((s) => !s.hidden) || !c.args.length) continue;
    const variadic = c.args.find((a) => a.variadic && a.values.kind !== "none");
    c.args.forEach((a, i) => {
      const code = valueCode(fn, a.values);
      if (a.variadic) {
        if (code) rest.push([`${q(`${key(c.path)}|`)}*`, code]);
      } else if (code || variadic) {
        // An arm doing nothing is needed only before a variadic argument that completes.
        exact.push([q(`${key(c.path)}|${i}`), code]);
      }
    });
  }
  if (exact.length || rest.length) {
    line(`  case "$1|$2" in`);
    for (const a of arms(exact, "    ")) line(a);
    for (const a of arms(rest, "    ")) line(a);
    line("  esac");
  }
  line("  :");
  line("}");
  line();

  line(
    BASH_ENGINE.replaceAll("%{", "${")
      .replaceAll("__FN__", fn)
      .replaceAll("__PROG__", p)
      .replaceAll("__COMPLETE__", COMPLETE_COMMAND),
  );
  line(`complete -F ${fn} ${p}`);
  return text();
}

/** The engine, with `%{` standing for `${` (String.raw would read it as an interpolation). */
const BASH_ENGINE = String.raw`# Helpers: each adds to COMPREPLY the candidates that start with $cur.
__FN___words() {
  local w words
  read -ra words <<<"$1"
  for w in "%{words[@]}"; do
    [[ $w == "$cur"* ]] && COMPREPLY+=("$w")
  done
}

# NAME=VALUE pairs: offer NAME= and no space after it.
__FN___assign() {
  [[ $cur == *=* ]] && return
  local w words
  read -ra words <<<"$1"
  for w in "%{words[@]}"; do
    [[ $w= == "$cur"* ]] && COMPREPLY+=("$w=")
  done
  compopt -o nospace 2>/dev/null
}

# A comma-separated list: complete its last item, skip the ones already given.
__FN___list() {
  local last=%{cur##*,} w words
  local head=%{cur%"$last"}
  read -ra words <<<"$1"
  for w in "%{words[@]}"; do
    [[ $w == "$last"* && ,$head != *",$w,"* ]] && COMPREPLY+=("$head$w")
  done
  compopt -o nospace 2>/dev/null
}

__FN___files() {
  local f
  compopt -o filenames 2>/dev/null
  while IFS= read -r f; do COMPREPLY+=("$f"); done < <(compgen -f -- "$cur")
}

# Values known only at TAB time (profile names, cached catalogs): asked of
# "__PROG__ __COMPLETE__ ARGS", one "value<TAB>description" per line; the words
# already on the line go along in RENTCTL_COMPLETE_WORDS (one per line).
__FN___dynamic() {
  local line value
  while IFS= read -r line; do
    value=%{line%%$'\t'*}
    [[ -n $value && $value == "$cur"* ]] || continue
    value=%{value//\\/\\\\}
    value=%{value// /\\ }
    value=%{value//\'/\\\'}
    value=%{value//\"/\\\"}
    value=%{value//(/\\(}
    value=%{value//)/\\)}
    COMPREPLY+=("$value")
  done < <(RENTCTL_COMPLETE_WORDS="$(printf '%s\n' "%{words[@]:1:cword-1}")" command __PROG__ __COMPLETE__ "$@" 2>/dev/null)
}

# __FN___is_sep WORD: WORD is only word-break characters ("=" or ":").
__FN___is_sep() {
  [[ -n $seps && -n $1 && -z %{1//["$seps"]/} ]]
}

__FN__() {
  local cur i w gap pos=0 rest trimmed seps='' line=%{COMP_LINE-}
  local words=() cword=0
  COMPREPLY=()
  [[ %{COMP_WORDBREAKS-=:} == *=* ]] && seps+='='
  [[ %{COMP_WORDBREAKS-=:} == *:* ]] && seps+=':'

  # bash splits "--output=json" and "https://x" at "=" and ":"; join them back.
  for ((i = 0; i < %{#COMP_WORDS[@]}; i++)); do
    w=%{COMP_WORDS[i]}
    if [[ -n $line ]]; then
      rest=%{line:pos}
      trimmed=%{rest#"%{rest%%[![:space:]]*}"}
      gap=$((%{#rest} - %{#trimmed}))
      pos=$((pos + gap + %{#w}))
    elif [[ -n $w ]]; then
      gap=0
    else
      gap=1
    fi
    if ((i > 0 && gap == 0)) && { __FN___is_sep "$w" || __FN___is_sep "%{COMP_WORDS[i - 1]}"; }; then
      words[%{#words[@]} - 1]+=$w
    else
      words+=("$w")
    fi
    ((i == COMP_CWORD)) && cword=$((%{#words[@]} - 1))
  done
  cur=%{words[cword]-}

  # Walk the words before the cursor: the command path, positional count, pending flag.
  local path='' nargs=0 expect='' dashdash=0
  for ((i = 1; i < cword; i++)); do
    w=%{words[i]}
    if [[ -n $expect ]]; then
      expect=''
    elif ((dashdash)); then
      nargs=$((nargs + 1))
    else
      case $w in
        --) dashdash=1 ;;
        -) nargs=$((nargs + 1)) ;;
        --*=*) ;;
        -*) __FN___takes_value "$path" "$w" && expect=$w ;;
        *)
          if ((nargs == 0)) && __FN___child "$path" "$w"; then
            path=$REPLY
          else
            nargs=$((nargs + 1))
          fi
          ;;
      esac
    fi
  done

  if [[ -n $expect ]]; then
    __FN___flag_values "$path" "$expect"
  elif ((!dashdash)) && [[ $cur == --*=* ]]; then
    local flag=%{cur%%=*}
    cur=%{cur#*=}
    __FN___takes_value "$path" "$flag" && __FN___flag_values "$path" "$flag"
  elif ((!dashdash)) && [[ $cur == -* ]]; then
    __FN___flags "$path"
    __FN___words "$REPLY"
  else
    __FN___commands "$path"
    if ((nargs == 0)) && [[ -n $REPLY ]]; then
      __FN___words "$REPLY"
    else
      __FN___arg_values "$path" "$nargs"
    fi
  fi

  # readline replaces only what follows the last "=" or ":" of the word.
  if [[ -n $seps && $cur == *["$seps"]* ]]; then
    local pre=%{cur%"%{cur##*["$seps"]}"}
    COMPREPLY=("%{COMPREPLY[@]#"$pre"}")
  fi
  return 0
}
`;
