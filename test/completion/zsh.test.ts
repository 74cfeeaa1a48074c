import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { hasCommand, hasShell, PROFILES, type Sandbox, setup, writeRecognisableCaches } from "./harness.js";

/**
 * A zsh completion harness: an interactive `zsh -f` in a pseudo-terminal
 * (zpty) with compinit loading `_rentctl` from $fpath; `compadd` is wrapped to
 * print each match it adds, and TAB is pressed after the line. The markers are
 * split in the source (`<<m""atch>>`) so the echo of the typed definitions
 * does not look like output.
 */
const HARNESS = `
zmodload zsh/zpty || exit 3
local fpdir=$1 input=$2
zpty z zsh -f -i
zpty -w z "PS1='' PROMPT='' RPROMPT=''"
zpty -w z "fpath=(\${(q)fpdir} \\$fpath); autoload -Uz compinit; compinit -u -D"
zpty -w z "zstyle ':completion:*' list-grouped false; zstyle ':completion:*' insert-tab false"
zpty -w z "bindkey '^I' complete-word"
zpty -w z 'compadd() {
  if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\\ * ]]; then builtin compadd "$@"; return $?; fi
  local -a __hits
  builtin compadd -A __hits "$@"
  local h; for h in $__hits; do print -r -- "<<m""atch>>$h"; done
  builtin compadd "$@"
}'
zpty -w z 'null-line () { print -r -- "<<d""one>>" }; comppostfuncs=(null-line exit)'
local line
integer deadline=$(( SECONDS + 20 ))
# Wait until the set-up has run before typing the line.
zpty -w z 'print -r -- "<<r""eady>>"'
while (( SECONDS < deadline )); do
  zpty -r z line || exit 4
  [[ $line == *'<<ready>>'* ]] && break
done
zpty -n -w z "$input"$'\\t'
while (( SECONDS < deadline )); do
  zpty -r z line || break
  line=\${line//$'\\r'/}
  [[ $line == *'<<done>>'* ]] && break
  [[ $line == *'<<match>>'* ]] && print -r -- "\${line#*<<match>>}"
done
zpty -d z
`;

const present = hasShell("zsh");
if (!present) console.log("zsh completion tests skipped: zsh is not installed (apt-get install -y zsh)");

describe.skipIf(!present)("zsh completion", () => {
  let sb: Sandbox;
  let harness: string;
  beforeAll(() => {
    sb = setup();
    writeRecognisableCaches(sb);
    harness = join(sb.dir, "harness.zsh");
    writeFileSync(harness, HARNESS);
    mkdirSync(join(sb.dir, "fpath"), { recursive: true });
  });

  function complete(line: string): string[] {
    const res = spawnSync("zsh", ["-f", harness, dirname(sb.scripts.zsh), line], {
      env: sb.env,
      encoding: "utf8",
      timeout: 25_000,
    });
    if (res.status !== 0) throw new Error(`zsh exited ${res.status}: ${res.stderr}`);
    return res.stdout.split("\n").filter(Boolean);
  }

  it("passes zsh -n", () => {
    const res = spawnSync("zsh", ["-n", sb.scripts.zsh], { encoding: "utf8" });
    expect(res.stderr).toBe("");
    expect(res.status).toBe(0);
  });

  it("completes command names", () => {
    expect(complete("rentctl cat")).toEqual(["catalog"]);
    expect(complete("rentctl catalog ")).toEqual(expect.arrayContaining(["currencies", "brands"]));
  });

  it("completes flag values: choices and profile names", () => {
    expect(complete("rentctl --output ")).toEqual(["table", "json", "ndjson", "csv", "yaml"]);
    // markdown where a verb prints it, right after the verb's name too
    expect(complete("rentctl account diff -o ")).toEqual(["table", "json", "ndjson", "csv", "yaml", "markdown"]);
    expect(complete("rentctl vehicle diff -f x.yaml --output ")).toEqual([
      "table",
      "json",
      "ndjson",
      "csv",
      "yaml",
      "markdown",
    ]);
    expect(complete("rentctl vehicle list -o ")).toEqual(["table", "json", "ndjson", "csv", "yaml"]);
    expect(complete("rentctl --env sandbox catalog brands --env ")).toEqual(["production", "test", "sandbox"]);
    expect(complete("rentctl -p ")).toEqual(PROFILES);
  });

  it.runIf(hasCommand("vehicle", "create"))("completes vehicle create flags", () => {
    expect(complete("rentctl vehicle create --vehicle-reg")).toEqual(
      expect.arrayContaining(["--vehicle-reg-number", "--vehicle-reg-number-country"]),
    );
  });

  it("honours the flags on the line and offers codes and listed vehicles", () => {
    expect(complete("rentctl catalog models --segment boats --brand ")).toEqual(
      expect.arrayContaining(["Beneteau", "Bayliner"]),
    );
    expect(complete("rentctl vehicle create --vehicle-currency-id ")).toEqual(expect.arrayContaining(["EUR", "USD"]));
    expect(complete("rentctl vehicle get ")).toEqual(expect.arrayContaining(["42", "43"]));
  });
});
