import { afterAll, describe, expect, it } from "vitest";
import { runBuilt, tempHome } from "../helpers/cli.js";

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
});
