import { spawnSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import {
  hasCommand,
  hasShell,
  PROFILES,
  type Sandbox,
  setup,
  writeBrandsCache,
  writeRecognisableCaches,
} from "./harness.js";

/**
 * Real bash: source the generated script, split the line into COMP_WORDS the
 * way readline does (at blanks, and at the "=" and ":" of COMP_WORDBREAKS),
 * call the function `complete -p rentctl` names, print COMPREPLY.
 */
const DRIVER = `
source "$1" || exit 3
line=$2
read -ra raw <<<"$line"
COMP_WORDS=()
for t in "\${raw[@]}"; do
  while [[ $t =~ ^([^=:]*)([=:]+)(.*)$ ]]; do
    [[ -n \${BASH_REMATCH[1]} ]] && COMP_WORDS+=("\${BASH_REMATCH[1]}")
    COMP_WORDS+=("\${BASH_REMATCH[2]}")
    t=\${BASH_REMATCH[3]}
  done
  [[ -n $t ]] && COMP_WORDS+=("$t")
done
[[ $line == *' ' ]] && COMP_WORDS+=("")
COMP_CWORD=$((\${#COMP_WORDS[@]} - 1))
COMP_LINE=$line
COMP_POINT=\${#line}
[[ -n $NO_LINE ]] && unset COMP_LINE COMP_POINT
spec=$(complete -p rentctl) || exit 4
fn=\${spec##*-F }
fn=\${fn%% *}
"$fn" rentctl "\${COMP_WORDS[COMP_CWORD]}" "\${COMP_WORDS[COMP_CWORD - 1]}"
for c in "\${COMPREPLY[@]}"; do printf '%s\\n' "$c"; done
`;

const present = hasShell("bash");
if (!present) console.log("bash completion tests skipped: bash is not installed");

describe.skipIf(!present)("bash completion", () => {
  let sb: Sandbox;
  beforeAll(() => {
    sb = setup();
    writeBrandsCache(sb);
    writeRecognisableCaches(sb);
  });

  function complete(line: string, opts: { withoutLine?: boolean } = {}): string[] {
    const res = spawnSync("bash", ["--norc", "--noprofile", "-c", DRIVER, "driver", sb.scripts.bash, line], {
      env: opts.withoutLine ? { ...sb.env, NO_LINE: "1" } : sb.env,
      encoding: "utf8",
    });
    if (res.status !== 0) throw new Error(`bash exited ${res.status}: ${res.stderr}`);
    return res.stdout.split("\n").filter(Boolean);
  }

  it("registers a completion function for rentctl", () => {
    const res = spawnSync("bash", ["--norc", "-c", `source "$1" && complete -p rentctl`, "x", sb.scripts.bash], {
      encoding: "utf8",
    });
    expect(res.stdout).toMatch(/^complete -F _rentctl rentctl$/m);
  });

  it("completes command names", () => {
    expect(complete("rentctl cat")).toEqual(["catalog"]);
    expect(complete("rentctl catalog ")).toEqual(expect.arrayContaining(["currencies", "brands", "models", "help"]));
    expect(complete("rentctl catalog b")).toEqual(["brands", "benefits"]);
    expect(complete("rentctl help cat")).toEqual(["catalog"]);
  });

  it("offers the flags of the command and the global ones", () => {
    const flags = complete("rentctl catalog models --");
    expect(flags).toEqual(expect.arrayContaining(["--brand", "--segment", "--help", "--output", "--profile", "--env"]));
    expect(flags).not.toContain("--version");
    expect(complete("rentctl sandbox serve --po")).toEqual(["--port"]);
  });

  it("offers the output formats for --output and -o, with or without =", () => {
    const formats = ["table", "json", "ndjson", "csv", "yaml"];
    expect(complete("rentctl --output ")).toEqual(formats);
    expect(complete("rentctl catalog currencies -o ")).toEqual(formats);
    expect(complete("rentctl catalog currencies -o nd")).toEqual(["ndjson"]);
    expect(complete("rentctl --output=")).toEqual(formats);
    expect(complete("rentctl --output=js")).toEqual(["json"]);
    // markdown: only where a verb prints it (account diff, vehicle diff)
    expect(complete("rentctl account diff -o ")).toEqual([...formats, "markdown"]);
    expect(complete("rentctl vehicle diff -f x.yaml --output=m")).toEqual(["markdown"]);
    expect(complete("rentctl vehicle list -o m")).toEqual([]);
  });

  it("offers the environments for --env", () => {
    expect(complete("rentctl --env ")).toEqual(["production", "test", "sandbox"]);
    expect(complete("rentctl catalog brands --env s")).toEqual(["sandbox"]);
  });

  it("skips flag values while walking to the command", () => {
    expect(complete("rentctl --env sandbox -o json cat")).toEqual(["catalog"]);
    expect(complete("rentctl --base-url https://partner.example catalog cur")).toEqual(["currencies"]);
    expect(complete("rentctl --output=json catalog cur")).toEqual(["currencies"]);
  });

  it("works from COMP_WORDS / COMP_CWORD alone (no COMP_LINE)", () => {
    const bare = { withoutLine: true };
    expect(complete("rentctl cat", bare)).toEqual(["catalog"]);
    expect(complete("rentctl catalog currencies -o nd", bare)).toEqual(["ndjson"]);
    expect(complete("rentctl --output=js", bare)).toEqual(["json"]);
    expect(complete("rentctl --base-url https://partner.example catalog cur", bare)).toEqual(["currencies"]);
  });

  it("offers the profile names from the config file for --profile / -p", () => {
    expect(complete("rentctl --profile ")).toEqual(PROFILES);
    expect(complete("rentctl -p st")).toEqual(["staging"]);
    expect(complete("rentctl profile use ")).toEqual(PROFILES);
  });

  it("offers cached catalog names for --brand, escaped for the shell", () => {
    expect(complete("rentctl catalog models --brand ")).toEqual(["Toyota", "Land\\ Rover", "BMW"]);
    expect(complete("rentctl catalog models --brand La")).toEqual(["Land\\ Rover"]);
    // No cache for locales: nothing, and no network.
    expect(complete("rentctl --locale ")).toEqual([]);
  });

  it("honours the flags already on the line: boat brands after --segment boats", () => {
    expect(complete("rentctl catalog models --segment boats --brand ")).toEqual(["Beneteau", "Bayliner"]);
    expect(complete("rentctl catalog models --segment=3 --brand B")).toEqual(["Beneteau", "Bayliner"]);
    // No --segment: the car brands.
    expect(complete("rentctl catalog models --brand ")).toEqual(["Toyota", "Land\\ Rover", "BMW"]);
    // A segment nobody has cached brands for: nothing rather than the wrong brands.
    expect(complete("rentctl catalog models --segment motorcycles --brand ")).toEqual([]);
  });

  it("offers what a person recognises: currency codes, fuel policies, listed vehicles", () => {
    expect(complete("rentctl vehicle create --currency ")).toEqual(["EUR", "USD"]);
    expect(complete("rentctl vehicle create --vehicle-fuel-policy ")).toEqual(["1", "2"]);
    expect(complete("rentctl vehicle create --segment boats --brand Be")).toEqual(["Beneteau"]);
    expect(complete("rentctl vehicle get ")).toEqual(["42", "43"]);
    expect(complete("rentctl vehicle remove 42 4")).toEqual(["42", "43"]);
  });

  it("offers the shells and the profile keys as arguments", () => {
    expect(complete("rentctl completion ")).toEqual(["bash", "zsh", "fish"]);
    expect(complete("rentctl profile set ba")).toEqual(["base-url"]);
    expect(complete("rentctl api vehicles/bra")).toEqual(["vehicles/brands"]);
  });

  describe.runIf(hasCommand("vehicle"))("vehicle", () => {
    it("completes the noun and its subcommands", () => {
      expect(complete("rentctl veh")).toEqual(["vehicle"]);
      expect(complete("rentctl vehicle ")).toEqual(expect.arrayContaining(["create", "list"]));
    });

    it.runIf(hasCommand("vehicle", "create"))("offers the registration flags of vehicle create", () => {
      expect(complete("rentctl vehicle create --vehicle-reg")).toEqual(
        expect.arrayContaining(["--vehicle-reg-number", "--vehicle-reg-number-country"]),
      );
    });

    it.runIf(hasCommand("vehicle", "create"))("offers field names as NAME= for --set", () => {
      expect(complete("rentctl vehicle create --set vehicle_reg_n")).toEqual([
        "vehicle_reg_number_country=",
        "vehicle_reg_number=",
      ]);
      expect(complete("rentctl vehicle create --set vehicle_vin=")).toEqual([]);
    });

    it.runIf(hasCommand("vehicle", "list"))("offers vehicle field names for --fields, as a list", () => {
      expect(complete("rentctl vehicle list --fields vehicle_v")).toEqual(["vehicle_vin"]);
      expect(complete("rentctl vehicle list --fields id,vehicle_v")).toEqual(["id,vehicle_vin"]);
    });
  });
});
