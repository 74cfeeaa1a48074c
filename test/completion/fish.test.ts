import { spawnSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { hasCommand, hasShell, PROFILES, type Sandbox, setup, writeRecognisableCaches } from "./harness.js";

const present = hasShell("fish");
if (!present) console.log("fish completion tests skipped: fish is not installed (apt-get install -y fish)");

describe.skipIf(!present)("fish completion", () => {
  let sb: Sandbox;
  beforeAll(() => {
    sb = setup();
    writeRecognisableCaches(sb);
  });

  /** `complete -C LINE` after sourcing the script: the candidates, descriptions dropped. */
  function complete(line: string): string[] {
    const res = spawnSync(
      "fish",
      ["--no-config", "-c", "source $argv[1]; and complete -C $argv[2]", sb.scripts.fish, line],
      {
        env: sb.env,
        encoding: "utf8",
      },
    );
    if (res.status !== 0) throw new Error(`fish exited ${res.status}: ${res.stderr}`);
    return res.stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => l.split("\t")[0]!);
  }

  it("passes fish -n", () => {
    const res = spawnSync("fish", ["--no-config", "-n", sb.scripts.fish], { encoding: "utf8" });
    expect(res.stderr).toBe("");
    expect(res.status).toBe(0);
  });

  it("completes command names and subcommands", () => {
    expect(complete("rentctl cat")).toEqual(["catalog"]);
    expect(complete("rentctl catalog ")).toEqual(expect.arrayContaining(["currencies", "brands"]));
    expect(complete("rentctl --env sandbox -o json catalog cur")).toEqual(["currencies"]);
  });

  it("completes flag values: choices and profile names", () => {
    expect(complete("rentctl --output ").sort()).toEqual(["csv", "json", "ndjson", "table", "yaml"]);
    expect(complete("rentctl account diff -o ").sort()).toEqual(["csv", "json", "markdown", "ndjson", "table", "yaml"]);
    expect(complete("rentctl --env ").sort()).toEqual(["production", "sandbox", "test"]);
    expect(complete("rentctl --profile ")).toEqual(PROFILES);
    expect(complete("rentctl completion ").sort()).toEqual(["bash", "fish", "zsh"]);
  });

  it.runIf(hasCommand("vehicle", "create"))("completes vehicle create flags and --set names", () => {
    expect(complete("rentctl vehicle create --vehicle-reg")).toEqual(
      expect.arrayContaining(["--vehicle-reg-number", "--vehicle-reg-number-country"]),
    );
    expect(complete("rentctl vehicle create --set vehicle_vi")).toEqual(["vehicle_vin="]);
  });

  it("honours the flags on the line and offers codes and listed vehicles", () => {
    expect(complete("rentctl catalog models --segment boats --brand ")).toEqual(
      expect.arrayContaining(["Beneteau", "Bayliner"]),
    );
    expect(complete("rentctl vehicle create --vehicle-currency-id ")).toEqual(expect.arrayContaining(["EUR", "USD"]));
    expect(complete("rentctl vehicle get ")).toEqual(expect.arrayContaining(["42", "43"]));
  });
});
