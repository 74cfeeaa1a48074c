import { describe, expect, it } from "vitest";
import type { CliContext } from "../../src/cli/shared.js";
import type { GlobalFlags } from "../../src/config/settings.js";

// Flag parsing apart from behaviour: the program is built with a context that
// records what the action would receive, and nothing runs.

async function parse(argv: string[]): Promise<{ flags: GlobalFlags; opts: Record<string, unknown>; args: unknown[] }> {
  const { buildProgram } = await import("../../src/cli/program.js");
  let seen: { flags: GlobalFlags; opts: Record<string, unknown>; args: unknown[] } | undefined;
  const ctx: CliContext = {
    makeDeps(flags) {
      seen = { flags, opts: {}, args: [] };
      // the action stops here: a Deps whose first use throws
      throw Object.assign(new Error("parsed"), { parsedFlags: flags });
    },
  };
  const program = await buildProgram(ctx);
  program.exitOverride();
  for (const c of program.commands) c.exitOverride();
  let leaf: import("commander").Command | undefined;
  program.hook("preAction", (_root, action) => {
    leaf = action;
  });
  await program.parseAsync(argv, { from: "user" }).catch((e: Error) => {
    if (e.message !== "parsed") throw e;
  });
  if (!seen || !leaf) throw new Error("no action reached");
  return { flags: seen.flags, opts: leaf.opts(), args: leaf.processedArgs };
}

describe("flag parsing (the typed options a verb receives)", () => {
  it("vehicle list: --all, --limit, --where (repeatable) and global flags", async () => {
    const p = await parse([
      "-o",
      "json",
      "--env",
      "sandbox",
      "vehicle",
      "list",
      "--all",
      "--limit",
      "50",
      "--where",
      "a=1",
      "--where",
      "b<2",
    ]);
    expect(p.opts).toMatchObject({ all: true, limit: "50", where: ["a=1", "b<2"] });
    expect(p.flags).toMatchObject({ output: "json", env: "sandbox" });
  });

  it("vehicle edit: ids, field flags in camelCase, aliases kept apart, --set repeatable", async () => {
    const p = await parse([
      "vehicle",
      "edit",
      "42",
      "43",
      "--price-per-day",
      "+10%",
      "--set",
      "x=1",
      "--set",
      "y=2",
      "--yes",
    ]);
    expect(p.args).toEqual([["42", "43"]]);
    expect(p.opts).toMatchObject({ pricePerDay: "+10%", set: ["x=1", "y=2"] });
    expect(p.flags.yes).toBe(true);
  });

  it("vehicle calendar: repeatable ranges and --clear-past", async () => {
    const p = await parse([
      "vehicle",
      "calendar",
      "7",
      "--block",
      "2026-12",
      "--block",
      "2027-01-01",
      "--unblock",
      "2026-12-31",
      "--clear-past",
    ]);
    expect(p.opts).toMatchObject({ block: ["2026-12", "2027-01-01"], unblock: ["2026-12-31"], clearPast: true });
  });

  it("a bad choice is a commander error before any action", async () => {
    await expect(parse(["-o", "xml", "vehicle", "list"])).rejects.toThrow(/xml/);
  });

  it("catalog models: --brand and --segment", async () => {
    const p = await parse(["catalog", "models", "--brand", "Toyota", "--segment", "cars"]);
    expect(p.opts).toMatchObject({ brand: "Toyota", segment: "cars" });
  });
});
