import { Command } from "commander";
import { afterAll, describe, expect, expectTypeOf, it } from "vitest";
import { EXIT, EXIT_MEANINGS, exitCodesLine, UsageError } from "../../src/base/errors.js";
import { verbCommand } from "../../src/cli/assemble.js";
import type { CliContext } from "../../src/cli/shared.js";
import { arg, flag, readArgs, readFlags } from "../../src/commands/flags.js";
import { vehicleFieldFlags } from "../../src/commands/vehicle/input-flags.js";
import { defineVerb } from "../../src/commands/verb.js";
import type { Deps } from "../../src/deps.js";
import { runMain, tempHome } from "../helpers/cli.js";

// The flag builders of src/commands/flags.ts: what commander is told (the
// declaration), and how its parsed values are read back into typed options.

/** The error `fn` throws (a UsageError is checked for its exit code and message). */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error("expected a throw");
}

describe("flag builders: declarations", () => {
  it("name the attribute commander stores the value under, and the flag for messages", () => {
    expect(flag.string("--from-file <file>", "d").options[0]).toMatchObject({
      flags: "--from-file <file>",
      key: "fromFile",
      name: "--from-file",
      repeatable: false,
      hidden: false,
      mandatory: false,
    });
    expect(flag.bool("--no-verify", "d").options[0]).toMatchObject({ key: "verify", name: "--no-verify" });
    expect(flag.string("-X, --method <m>", "d").options[0]).toMatchObject({ key: "method", name: "--method" });
    expect(flag.string("--html502-rate <r>", "d").options[0]?.key).toBe("html502Rate");
    expect(
      flag.string("--reg <text>", "d", { key: "alias_vehicle_reg_number", hidden: true }).options[0],
    ).toMatchObject({ key: "alias_vehicle_reg_number", hidden: true });
  });

  it("carry repeatable, choices, defaults and required", () => {
    expect(flag.list("--where <expr>", "d").options[0]?.repeatable).toBe(true);
    expect(flag.choice("--env <env>", "d", ["a", "b"]).options[0]?.choices).toEqual(["a", "b"]);
    expect(flag.string("--limit <n>", "d", { default: "20" }).options[0]?.defaultValue).toBe("20");
    expect(flag.string("-f, --file <f>", "d", { required: true }).options[0]?.mandatory).toBe(true);
  });
});

describe("flag builders: reading parsed values", () => {
  it("string: the value, or undefined when not given", () => {
    const f = flag.string("--from-file <file>", "d");
    expect(f.read({ fromFile: "car.yaml" })).toBe("car.yaml");
    expect(f.read({})).toBeUndefined();
    expectTypeOf(f.read({})).toEqualTypeOf<string | undefined>();
    expectTypeOf(flag.string("--host <h>", "d", { default: "x" }).read({ host: "x" })).toEqualTypeOf<string>();
  });

  it("bool: false when not given; --no-x reads true unless given", () => {
    expect(flag.bool("--all", "d").read({})).toBe(false);
    expect(flag.bool("--all", "d").read({ all: true })).toBe(true);
    expect(flag.bool("--no-verify", "d").read({})).toBe(true);
    expect(flag.bool("--no-verify", "d").read({ verify: false })).toBe(false);
    expectTypeOf(flag.bool("--all", "d").read({})).toEqualTypeOf<boolean>();
  });

  it("list: every occurrence in order, [] when never given", () => {
    const f = flag.list("--where <expr>", "d");
    expect(f.read({ where: ["a=1", "b<2"] })).toEqual(["a=1", "b<2"]);
    expect(f.read({})).toEqual([]);
    expectTypeOf(f.read({})).toEqualTypeOf<string[]>();
  });

  it("int: a whole number in range; a bad value is a usage error (exit 2) naming the flag", () => {
    const limit = flag.int("--limit <n>", "d", { min: 1 });
    expect(limit.read({ limit: "50" })).toBe(50);
    expect(limit.read({ limit: " 7 " })).toBe(7);
    expect(limit.read({})).toBeUndefined();
    expect(limit.read({ limit: "" })).toBeUndefined(); // `--limit "$UNSET"`
    expectTypeOf(limit.read({})).toEqualTypeOf<number | undefined>();
    for (const bad of ["x", "0", "-1", "1.5", "1e3"]) {
      const e = thrown(() => limit.read({ limit: bad }));
      expect(e).toBeInstanceOf(UsageError);
      expect((e as UsageError).exitCode).toBe(EXIT.usage);
      expect((e as UsageError).message).toBe(
        `--limit: expected a whole number of at least 1, got ${JSON.stringify(bad)}`,
      );
    }
    const concurrency = flag.int("--concurrency <n>", "d", { min: 1, max: 16 });
    expect(concurrency.read({ concurrency: "16" })).toBe(16);
    expect(() => concurrency.read({ concurrency: "17" })).toThrow(
      '--concurrency: expected a whole number from 1 to 16, got "17"',
    );
    const withDefault = flag.int("--months <n>", "d", { min: 1, default: "3" });
    expectTypeOf(withDefault.read({ months: "3" })).toEqualTypeOf<number>();
  });

  it("number: fractions allowed, in range", () => {
    const rate = flag.number("--fail-rate <r>", "d", { min: 0, max: 1 });
    expect(rate.read({ failRate: "0.25" })).toBe(0.25);
    expect(() => rate.read({ failRate: "2" })).toThrow('--fail-rate: expected a number from 0 to 1, got "2"');
    expect(() => rate.read({ failRate: "lots" })).toThrow(UsageError);
    expect(flag.number("--latency <ms>", "d", { min: 0 }).read({ latency: "12.5" })).toBe(12.5);
    expect(() => flag.number("--latency <ms>", "d", { min: 0 }).read({ latency: "-1" })).toThrow(
      '--latency: expected a number of at least 0, got "-1"',
    );
  });

  it("choice: one of the words, typed as their union", () => {
    const env = flag.choice("--env <env>", "d", ["production", "test", "sandbox"]);
    expect(env.read({ env: "test" })).toBe("test");
    expectTypeOf(env.read({})).toEqualTypeOf<"production" | "test" | "sandbox" | undefined>();
    expect(() => env.read({ env: "staging" })).toThrow(
      '--env: expected one of production, test, sandbox, got "staging"',
    );
  });

  it("a value of the wrong type from the parser is a bug, not a usage error", () => {
    const e = thrown(() => flag.string("--x <v>", "d").read({ x: true }));
    expect(e).toBeInstanceOf(Error);
    expect(e).not.toBeInstanceOf(UsageError);
    expect(() => flag.list("--w <e>", "d").read({ w: [1] })).toThrow(/--w: expected a list of values/);
  });

  it("readFlags: a record of flags reads into typed options", () => {
    const flags = {
      limit: flag.int("--limit <n>", "d", { min: 1 }),
      all: flag.bool("--all", "d"),
      where: flag.list("--where <expr>", "d"),
      sort: flag.string("--sort <f>", "d"),
      absent: undefined,
    };
    const o = readFlags(flags, { limit: "5", where: ["a=1"] });
    expect(o).toEqual({ limit: 5, all: false, where: ["a=1"], sort: undefined });
    expectTypeOf(o).toEqualTypeOf<{
      limit: number | undefined;
      all: boolean;
      where: string[];
      sort: string | undefined;
      absent: undefined;
    }>();
  });

  it("a group reads several flags into one value: the vehicle field flags by wire name, aliases folded", () => {
    const keys = vehicleFieldFlags.options.map((o) => o.key);
    expect(keys).toContain("vehicleRegNumber");
    expect(keys).toContain("alias_vehicle_reg_number");
    expect(vehicleFieldFlags.options.find((o) => o.key === "alias_vehicle_reg_number")?.hidden).toBe(true);
    expect(vehicleFieldFlags.read({ alias_vehicle_reg_number: "B-1", pricePerDay: "60" })).toEqual({
      vehicle_reg_number: "B-1",
      price_per_day: "60",
    });
    // one value: the field's own flag wins over its alias; arrays: the alias's values first
    const arrays = vehicleFieldFlags.options.filter((o) => o.repeatable);
    expect(arrays.length).toBeGreaterThan(0);
    expect(vehicleFieldFlags.read({ alias_vehicle_reg_number: "B-1", vehicleRegNumber: "B-2" })).toEqual({
      vehicle_reg_number: "B-2",
    });
    expect(vehicleFieldFlags.read({ vehicleBenefitsId: ["1", "3"] })).toEqual({ vehicle_benefits_id: ["1", "3"] });
  });

  it("arguments: required, optional and variadic", () => {
    const args = { id: arg.required("vehicle id"), file: arg.optional(), rest: arg.variadic() };
    const a = readArgs(args, ["42", undefined, ["x", "y"]]);
    expect(a).toEqual({ id: "42", file: undefined, rest: ["x", "y"] });
    expectTypeOf(a).toEqualTypeOf<{ id: string; file: string | undefined; rest: string[] }>();
  });
});

describe("a verb through the assembler (src/cli/assemble.ts)", () => {
  const seen: unknown[] = [];
  const verb = defineVerb({
    name: "try",
    description: "a verb for the test",
    args: { ids: arg.variadic("ids") },
    flags: {
      limit: flag.int("--limit <n>", "at most N", { min: 1, max: 100 }),
      where: flag.list("--where <expr>", "repeat: all must hold"),
      format: flag.choice("--format <f>", "how", ["json", "csv"]),
    },
    examples: ["rentctl try 1 2 --limit 5"],
    async run(_deps, args, opts) {
      expectTypeOf(opts.limit).toEqualTypeOf<number | undefined>();
      expectTypeOf(opts.format).toEqualTypeOf<"json" | "csv" | undefined>();
      expectTypeOf(args.ids).toEqualTypeOf<string[]>();
      seen.push({ args, opts });
    },
  });
  const ctx: CliContext = { makeDeps: async (flags) => ({ flags }) as unknown as Deps };

  async function parse(argv: string[]): Promise<void> {
    const program = new Command("rentctl").exitOverride();
    program.addCommand(verbCommand(ctx, verb).exitOverride());
    await program.parseAsync(["try", ...argv], { from: "user" });
  }

  it("runs with typed arguments and options", async () => {
    seen.length = 0;
    await parse(["1", "2", "--limit", "5", "--where", "a=1", "--where", "b=2", "--format", "csv"]);
    expect(seen).toEqual([{ args: { ids: ["1", "2"] }, opts: { limit: 5, where: ["a=1", "b=2"], format: "csv" } }]);
  });

  it("a bad value stops before Deps are built, as a usage error", async () => {
    seen.length = 0;
    const err = await parse(["--limit", "500"]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).message).toBe('--limit: expected a whole number from 1 to 100, got "500"');
    expect(seen).toEqual([]);
  });

  it("declares the options commander shows and the completion reads (repeatable collectors marked)", () => {
    const cmd = verbCommand(ctx, verb);
    const where = cmd.options.find((o) => o.long === "--where");
    expect((where?.parseArg as { repeatable?: boolean } | undefined)?.repeatable).toBe(true);
    expect(cmd.options.find((o) => o.long === "--format")?.argChoices).toEqual(["json", "csv"]);
    expect(cmd.registeredArguments.map((a) => [a.name(), a.variadic, a.required])).toEqual([["ids", true, false]]);
  });
});

describe("exit codes", () => {
  it("root help's line lists every code the tool uses, in order, from the one table", () => {
    const line = exitCodesLine();
    expect(line).toBe(
      "Exit codes: 0 ok · 1 internal · 2 usage or input rejected (nothing sent) · 3 API rejected (400) · 4 not authenticated · 5 not found · 6 network/server · 7 bulk partly failed · 8 a diff found changes, or a saved plan is stale · 9 busy (held by another rentctl process) · 10 lint findings at or above --fail-on · 130 interrupted · 143 terminated",
    );
    for (const code of Object.values(EXIT)) expect(line).toContain(` ${code} ${EXIT_MEANINGS[code]}`);
  });

  it("is what `rentctl --help` prints", async () => {
    const r = await runMain(["--help"], { COLUMNS: "80", NO_COLOR: "1" });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`\n${exitCodesLine()}\n`);
  });
});

describe("flag values through main: usage errors before anything runs", () => {
  const home = tempHome();
  afterAll(() => home.cleanup());
  it.each([
    [["sandbox", "serve", "--port", "x"], '--port: expected a number from 0 to 65535, got "x"'],
    [["extra", "list", "--page", "0"], '--page: expected a whole number of at least 1, got "0"'],
    [["vehicle", "list", "--offset", "-3"], '--offset: expected a whole number of at least 0, got "-3"'],
  ])("%j", async (argv, message) => {
    const r = await runMain(argv, home.env);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toBe(`error: ${message}\n`);
    const j = await runMain([...argv, "-o", "json"], home.env);
    expect(JSON.parse(j.stderr)).toEqual({ error: { kind: "usage", message, exit_code: 2 } });
  });
});
