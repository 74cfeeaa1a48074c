import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { VEHICLE_EDITABLE_FIELDS } from "../../src/contract/vehicle-fields.js";
import { ROOT, runBuilt, tempHome } from "../helpers/cli.js";

// Walks the whole command tree through the BUILT CLI: every --help shows the
// global flags it inherits and at least one example (issue 17 item 10).
const home = tempHome();
afterAll(() => home.cleanup());
const env = { ...home.env, COLUMNS: "80" };

function subcommands(help: string): string[] {
  const m = /\nCommands:\n([\s\S]*?)\n\n/.exec(help);
  if (!m) return [];
  return (m?.[1] ?? "")
    .split("\n")
    .filter((l) => /^ {2}\S/.test(l))
    .map((l) => l.trim().split(/\s+/)[0]?.split("|")[0] ?? "")
    .filter((name) => name !== "" && name !== "help");
}

describe("help of every command", () => {
  it("has INHERITED FLAGS (below the root) and an example, and vehicle create fits 80 columns", async () => {
    const seen: string[] = [];
    const noExample: string[] = [];
    const queue: string[][] = [[]];
    while (queue.length > 0) {
      const path = queue.shift() as string[];
      const r = await runBuilt([...path, "--help"], env);
      expect(r.code, `rentctl ${path.join(" ")} --help`).toBe(0);
      const label = `rentctl ${path.join(" ")} --help`;
      if (path.length > 0)
        expect(r.stdout, label).toContain(
          "\nINHERITED FLAGS (described in rentctl --help):\n  -V, --version  -p, --profile <name>",
        );
      if (!/\nExamples:\n {2}[^\n]*rentctl /.test(r.stdout)) noExample.push(label);
      if (path.join(" ") === "vehicle create") {
        const long = r.stdout.split("\n").filter((l) => l.length > 80);
        expect(long, label).toEqual([]);
      }
      seen.push(path.join(" "));
      for (const sub of subcommands(r.stdout)) queue.push([...path, sub]);
    }
    expect(noExample).toEqual([]);
    expect(seen).toEqual(expect.arrayContaining(["", "vehicle", "vehicle create", "catalog", "catalog currencies"]));
  }, 240_000);

  it("vehicle create --help names every field a create needs, fits 70 lines, and its example files exist", async () => {
    const r = await runBuilt(["vehicle", "create", "--help"], env);
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split("\n").length).toBeLessThanOrEqual(70);
    const text = r.stdout.replace(/\s+/g, " ");
    // every required field of the contract the caller fills (user_id is the profile's): a flag, or named in the notes
    const needed = VEHICLE_EDITABLE_FIELDS.filter((f) => f.required === true);
    expect(needed.length).toBeGreaterThan(20);
    for (const f of needed)
      expect(text.includes(`--${f.name.replace(/_/g, "-")} `) || new RegExp(`\\b${f.name}\\b`).test(text), f.name).toBe(
        true,
      );
    // the examples' files are the shipped ones
    const files = [...r.stdout.matchAll(/rentctl vehicle create .*--from-file (\S+)/g)].map((m) => m[1]!);
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(existsSync(join(ROOT, f)), f).toBe(true);
  }, 60_000);

  it("vehicle create --help lists the common fields and fits a screen; --help-all lists every field flag", async () => {
    const short = await runBuilt(["vehicle", "create", "--help"], env);
    expect(short.code).toBe(0);
    expect(short.stdout.split("\n").length).toBeLessThan(80);
    expect(short.stdout).toContain("--price-per-day <n>");
    expect(short.stdout).not.toContain("--vehicle-protection-plans-cdw1-price-day");
    expect(short.stdout).toMatch(/--help-all\s+display help with every flag \(\d+ more field\s+flags\)/);
    const all = await runBuilt(["vehicle", "create", "--help-all"], env);
    expect(all.code, all.stderr).toBe(0);
    for (const f of ["--vehicle-protection-plans-cdw1-price-day", "--vehicle-booking-lead-time", "--price-per-day"])
      expect(all.stdout).toContain(f);
    expect(all.stdout.split("\n").length).toBeGreaterThan(short.stdout.split("\n").length + 60);
    // the rare flags still work and still complete
    const bash = await runBuilt(["completion", "bash"], env);
    expect(bash.stdout).toMatch(/'vehicle create'\) REPLY='[^']*--vehicle-protection-plans-cdw1-price-day/);
  }, 60_000);
});
