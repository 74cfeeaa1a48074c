import { mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountRegs, countedSandbox, ndjson, vehicleRow } from "../fleet/helpers.js";
import { runBuilt, tempHome } from "../helpers/cli.js";
import { spawnServe } from "../sandbox/helpers.js";

/**
 * Hostile input and secrets at rest (issue "Hostile input"), through the built
 * CLI: every hostile file is exit 2 naming the row with 0 requests sent; the
 * identity rule folds Unicode forms, zero-width and look-alike spaces; files
 * the tool keeps are private; temp files of dead processes are cleaned; the
 * sandbox server answers an unparseable URL and stops cleanly on SIGTERM.
 */
let sb: Awaited<ReturnType<typeof countedSandbox>>;
let ctx: typeof sb.ctx;
let env: NodeJS.ProcessEnv;
let dir: string;
beforeAll(async () => {
  sb = await countedSandbox();
  ({ ctx, env } = sb);
  dir = join(ctx.env.HOME!, "files");
  mkdirSync(dir, { recursive: true });
});
afterAll(() => sb.close());

const writes = () => sb.writes();

async function refusedFile(name: string, content: string | Buffer, message: RegExp, cmd = "import") {
  const path = join(dir, name);
  writeFileSync(path, content);
  const before = writes();
  const r = await runBuilt(["vehicle", cmd, path], env);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toMatch(message);
  expect(r.stderr).not.toMatch(/this is a bug|at .*\.js:\d+|RangeError|URIError/);
  expect(writes() - before, "writes sent").toBe(0);
}

describe("hostile files: exit 2 naming the row, nothing sent", () => {
  it("JSON nested 100,000 deep", async () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    await refusedFile(
      "deep.json",
      `[${JSON.stringify(vehicleRow("D-1"))}, {"x": ${deep}}]`,
      /row 2: nesting deeper than 64/,
    );
  });

  it("a lone UTF-16 surrogate in a value: named by row and field", async () => {
    await refusedFile(
      "surrogate.ndjson",
      `${JSON.stringify(vehicleRow("S-1")).replace('"S-1"', '"S-\\ud800"')}\n`,
      /row 1[\s\S]*vehicle_reg_number: is not valid text \(an unpaired UTF-16 surrogate\)/,
    );
  });

  it("a 2 MiB ndjson row: refused at the 1 MiB limit", async () => {
    const row = vehicleRow("BIG-1", { vehicle_description: "x".repeat(2 * 1024 * 1024) });
    await refusedFile("big.ndjson", ndjson([row]), /row 1 is larger than the limit \(1 MiB per row\)/);
  });

  it("duplicate JSON keys, a duplicate csv column, invalid UTF-8, a NUL byte", async () => {
    await refusedFile(
      "dup.json",
      '[{"vehicle_reg_number": "A", "vehicle_reg_number": "B"}]',
      /member "vehicle_reg_number" is given twice/,
    );
    await refusedFile(
      "dup.csv",
      "vehicle_reg_number,price_per_day,price_per_day\nA,1,2\n",
      /column "price_per_day" appears twice/,
    );
    await refusedFile(
      "latin1.csv",
      Buffer.concat([
        Buffer.from("vehicle_reg_number,pickup_location\nA,M"),
        Buffer.from([0xfc]),
        Buffer.from("nchen\n"),
      ]),
      /line 2 is not valid UTF-8/,
    );
    await refusedFile("nul.ndjson", `{"vehicle_reg_number":"A\u0000"}\n`, /NUL byte/);
  });

  it("a control character in a registration number is refused by name", async () => {
    await refusedFile(
      "ctl.ndjson",
      ndjson([vehicleRow("CTL\t1")]),
      /vehicle_reg_number: contains a control character \(U\+0009\)/,
    );
  });
});

describe("one identity for registration numbers", () => {
  it("NFD, zero-width characters and look-alike spaces are the same vehicle: an import creates nothing twice", async () => {
    const base = [vehicleRow("MÜ-É 12"), vehicleRow("K-AB 7")];
    writeFileSync(join(dir, "ids-1.ndjson"), ndjson(base));
    const first = await runBuilt(["vehicle", "import", join(dir, "ids-1.ndjson")], env);
    expect(first.code, first.stderr).toBe(0);
    const variants = [
      vehicleRow("MU\u0308-E\u0301 12"), // NFD
      vehicleRow("K-\u200BAB\u00A07"), // zero-width space, no-break space
    ];
    writeFileSync(join(dir, "ids-2.ndjson"), ndjson(variants));
    const before = writes();
    const second = await runBuilt(["vehicle", "import", join(dir, "ids-2.ndjson")], env);
    expect(second.code, second.stderr).toBe(0);
    expect(writes()).toBe(before);
    const regs = await accountRegs(ctx.env, 1001);
    expect(regs.filter((r) => r.normalize("NFC").startsWith("MÜ"))).toHaveLength(1);
    // and as a handle
    const got = await runBuilt(["vehicle", "get", "k-ab\u00A0 7", "-o", "json"], env);
    expect(got.code, got.stderr).toBe(0);
  });
});

describe("what is printed and kept", () => {
  it("--locale =b --raw: exit 2 with nothing on stdout (the lookup's body is not a result)", async () => {
    const r = await runBuilt(["vehicle", "list", "--locale", "=b", "--raw"], env);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
  });

  it("the data dir and every file in it are private (0700 / 0600)", async () => {
    const home = tempHome();
    try {
      const e: NodeJS.ProcessEnv = { ...home.env, RENTCTL_ENV: "sandbox" };
      for (const args of [
        ["catalog", "currencies"],
        ["vehicle", "list"],
        ["vehicle", "edit", "1", "--price-per-day", "+1"],
      ])
        expect((await runBuilt(args, e)).code).toBe(0);
      const data = String(e.RENTCTL_DATA_DIR);
      const walk = (d: string): string[] =>
        readdirSync(d, { withFileTypes: true }).flatMap((f) =>
          f.isDirectory() ? [join(d, f.name), ...walk(join(d, f.name))] : [join(d, f.name)],
        );
      const all = walk(data);
      expect(all.length).toBeGreaterThan(3);
      for (const f of all) {
        const mode = statSync(f).mode & 0o777;
        expect(mode.toString(8), f).toBe(statSync(f).isDirectory() ? "700" : "600");
      }
    } finally {
      home.cleanup();
    }
  });

  it("a temp file left by a killed export is removed by the next export of that file", async () => {
    const target = join(dir, "out.ndjson");
    const stale = join(dir, ".out.ndjson.999999.abc.tmp");
    writeFileSync(stale, "half");
    const old = new Date(Date.now() - 10 * 60_000);
    utimesSync(stale, old, old);
    const r = await runBuilt(["vehicle", "export", target], env);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(dir).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });
});

describe("the sandbox server", () => {
  it("answers a request whose URL cannot be parsed with 400 and closes; SIGTERM is a clean stop, exit 143", async () => {
    const home = tempHome();
    const data = join(home.dir, "sb", "sandbox.json");
    const sb = await spawnServe(["--data", data], home.env);
    try {
      const { hostname, port } = new URL(sb.url);
      const answer = await new Promise<string>((resolve, reject) => {
        const s = connect(Number(port), hostname, () => s.write("GET //[bad HTTP/1.1\r\nHost: x\r\n\r\n"));
        let got = "";
        s.on("data", (d) => {
          got += d;
        });
        s.on("end", () => resolve(got));
        s.on("error", reject);
      });
      expect(answer).toMatch(/^HTTP\/1\.1 400/);
    } finally {
      sb.child.kill("SIGTERM");
    }
    expect(await sb.exited).toBe(143);
    expect(readdirSync(join(home.dir, "sb")).filter((n) => n.endsWith(".lock") || n.endsWith(".server.json"))).toEqual(
      [],
    );
    home.cleanup();
  });
});

describe("found by the fuzz test", () => {
  it("a handle of invisible characters is a usage error, not a crash", async () => {
    const r = await runBuilt(["vehicle", "edit", "\u200B", "--price-per-day", "1", "--dry-run"], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/give an id or a registration number/);
  });

  it("a yaml file with an unknown directive: no Node warning on stderr (runBuilt fails on one)", async () => {
    const path = join(dir, "directive.yaml");
    writeFileSync(path, "%\n");
    const r = await runBuilt(["vehicle", "import", path, "--dry-run"], env);
    expect([0, 2]).toContain(r.code);
  });

  it("a registration number of invisible characters only is refused by the contract check", async () => {
    await refusedFile(
      "invisible.ndjson",
      ndjson([vehicleRow("\u200B\u00A0")]),
      /vehicle_reg_number: holds no visible characters/,
    );
  });
});
