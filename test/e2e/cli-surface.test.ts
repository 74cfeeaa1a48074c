import { afterEach, describe, expect, it } from "vitest";
import { EXIT, EXIT_MEANINGS, exitCodesLine } from "../../src/base/errors.js";
import { runMain, sandboxEnv, tempHome } from "../helpers/cli.js";

/** Small promises of the command-line surface (issue 41 items 10 and 11), run in-process. */
describe("the command-line surface", () => {
  let home: ReturnType<typeof tempHome>;
  afterEach(() => home?.cleanup());

  it("`help NOUN VERB` shows the verb's help, as `NOUN VERB --help` does", async () => {
    home = tempHome();
    const viaHelp = await runMain(["help", "vehicle", "list"], home.env);
    const viaFlag = await runMain(["vehicle", "list", "--help"], home.env);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toContain("Usage: rentctl vehicle list");
    expect(viaHelp.stdout).toBe(viaFlag.stdout);
    // global flags before `help` stay global flags
    const withFlag = await runMain(["--env", "sandbox", "help", "extra", "get"], home.env);
    expect(withFlag.stdout).toContain("Usage: rentctl extra get");
    // `help` of no command is the usage error the command itself is (exit 2, did-you-mean)
    const typo = await runMain(["help", "vehicel"], home.env);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/unknown command 'vehicel'/);
    // `help` alone is still the root help
    expect((await runMain(["help"], home.env)).stdout).toContain("Usage: rentctl [options] [command]");
  });

  it("with -o json a usage error is one JSON object on stderr, like every other error", async () => {
    home = tempHome();
    for (const args of [
      ["-o", "json", "vehicle", "lsit"],
      ["vehicle", "list", "--bogus", "--json"],
    ]) {
      const r = await runMain(args, home.env);
      expect(r.code).toBe(EXIT.usage);
      expect(r.stdout).toBe("");
      const lines = r.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      const { error } = JSON.parse(lines[0]!) as { error: Record<string, unknown> };
      expect(error.kind).toBe("usage");
      expect(error.exit_code).toBe(EXIT.usage);
      expect(String(error.message)).toMatch(/unknown (command 'lsit'|option '--bogus')/);
    }
    const typo = JSON.parse((await runMain(["-o", "json", "vehicle", "lsit"], home.env)).stderr) as {
      error: { hint?: string };
    };
    expect(typo.error.hint).toBe("Did you mean list?");
    // without json the message stays a line of text
    expect((await runMain(["vehicle", "lsit"], home.env)).stderr).toMatch(/^error: unknown command 'lsit'/);
  });

  it("-o lists markdown among its choices in help", async () => {
    home = tempHome();
    const r = await runMain(["--help"], home.env);
    expect(r.stdout.replace(/\s+/g, " ")).toMatch(/choices: "table", "json", "ndjson", "csv", "yaml", "markdown"/);
  });

  it("auth login checks that the key can be kept before it asks for it", async () => {
    home = tempHome();
    const asked: string[] = [];
    const prompt = {
      confirm: async () => true,
      password: async (message: string) => {
        asked.push(message);
        return "a-key-typed-for-nothing";
      },
    };
    const r = await runMain(
      ["auth", "login", "--env", "test", "--base-url", "http://127.0.0.1:9", "--user", "1001"],
      { ...home.env, RENTCTL_KEYCHAIN: "off" },
      { tty: true, overrides: { prompt } },
    );
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toMatch(/no system keychain is usable here, so no key was asked for/);
    expect(r.stderr).toMatch(/--insecure-storage/);
    expect(asked).toEqual([]);
  });

  it("the exit-code table says 8 also means a stale plan", () => {
    expect(EXIT_MEANINGS[EXIT.drift]).toMatch(/stale/);
    expect(exitCodesLine()).toContain("8 a diff found changes, or a saved plan is stale");
  });

  it("catalog brands names the segment in a table; json keeps the items as sent", async () => {
    const sandbox = await sandboxEnv();
    try {
      const table = await runMain(["catalog", "brands", "--segment", "boats"], sandbox.env);
      expect(table.code, table.stderr).toBe(0);
      expect(table.stdout.split("\n")[0]).toMatch(/SEGMENT_ID\s+SEGMENT/);
      expect(table.stdout).toMatch(/Beneteau\s+3\s+Boats/);
      const json = await runMain(["catalog", "brands", "--segment", "boats", "-o", "json"], sandbox.env);
      const items = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
      expect(items[0]).toMatchObject({ name: "Beneteau", segment_id: 3 });
      expect(items[0]).not.toHaveProperty("segment");
    } finally {
      await sandbox.cleanup();
    }
  });
});
