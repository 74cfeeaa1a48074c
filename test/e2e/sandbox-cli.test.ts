import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { walPath } from "../../src/sandbox/store.js";
import { json, runBuilt, runMain, tempHome } from "../helpers/cli.js";
import { Api, KEY_1001, spawnServe } from "../sandbox/helpers.js";

let home: ReturnType<typeof tempHome>;
beforeEach(() => {
  home = tempHome();
});
afterEach(() => home.cleanup());

describe("sandbox commands", () => {
  it("--env sandbox runs the embedded sandbox over the default data file: state persists between commands", async () => {
    const env = { ...home.env, RENTCTL_ENV: "sandbox" };
    const list = await runBuilt(["vehicle", "list", "-q"], env);
    expect(list.code, list.stderr).toBe(0);
    const first = list.stdout.trim().split("\n")[0]!;
    expect((await runBuilt(["vehicle", "edit", first, "--price-per-day", "66", "-q"], env)).code).toBe(0);
    const got = await runBuilt(["vehicle", "get", first, "-o", "json"], env);
    expect(json<{ price_per_day: number }>(got.stdout).price_per_day).toBe(66);
    const reset = await runBuilt(["sandbox", "reset"], env);
    expect(reset.code, reset.stderr).toBe(0);
    const after = await runBuilt(["vehicle", "get", first, "-o", "json"], env);
    expect(json<{ price_per_day: number }>(after.stdout).price_per_day).not.toBe(66);
  });

  it("serve prints its address, answers, shows up in info -o json, and stops cleanly on SIGINT", async () => {
    const { child, url, stderr, exited } = await spawnServe([], home.env);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    try {
      const r = await runMain(["catalog", "currencies", "-o", "json"], {
        ...home.env,
        RENTCTL_ENV: "sandbox",
        RENTCTL_BASE_URL: url,
      });
      expect(r.code, r.stderr).toBe(0);
      const info = await runMain(["sandbox", "info", "-o", "json"], home.env);
      const data = json<{ url: string; running: boolean; owners: Array<{ user_id: number; api_key: string }> }>(
        info.stdout,
      );
      expect(data).toMatchObject({ url, running: true });
      expect(data.owners[0]).toEqual({ user_id: 1001, api_key: "sandbox-key-1001", name: expect.any(String) });
      expect(stderr()).toContain("not the marketplace");
    } finally {
      child.kill("SIGINT");
    }
    expect(await exited).toBe(0);
    const info = await runMain(["sandbox", "info", "-o", "json"], home.env);
    expect(json<{ running: boolean }>(info.stdout).running).toBe(false);
  });

  it("info: owners and keys readable in the table; url/running/mode when the embedded sandbox is the target", async () => {
    const table = await runBuilt(["sandbox", "info"], home.env);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).not.toContain("{");
    expect(table.stdout).not.toContain("…");
    for (const o of ["1001", "1002", "1003"])
      expect(table.stdout).toMatch(new RegExp(`^${o} +\\S.* +sandbox-key-${o}$`, "m"));
    expect(table.stdout).toMatch(/^running +false$/m);

    const embedded = await runBuilt(["sandbox", "info", "-o", "json"], { ...home.env, RENTCTL_ENV: "sandbox" });
    expect(embedded.code, embedded.stderr).toBe(0);
    const data = json<{ url: string; running: boolean; mode: string; owners: unknown[] }>(embedded.stdout);
    expect(data).toMatchObject({
      running: true,
      mode: "embedded",
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
    });
    expect(data.owners).toHaveLength(3);
  });

  it("rejects bad fault switch values before starting", async () => {
    const r = await runMain(["sandbox", "serve", "--fail-rate", "2"], home.env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--fail-rate: expected a number from 0 to 1/);
  });
});

/** The expected-failure shape: exit 2, one `error:` line (plus a hint), never a bug report or a stack. */
function expectCleanUsageFailure(r: { code: number; stderr: string }): void {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr.match(/^error:/gm)).toHaveLength(1);
  expect(r.stderr).not.toMatch(/unexpected|this is a bug|\n\s+at /);
}

describe("sandbox data problems are reported as such (spawned CLI)", () => {
  const dataOf = () => join(home.dir, "data-file", "sandbox.json");

  it("a second serve, and reset or repair, while a server holds the data file: one error line, exit 2", async () => {
    const file = dataOf();
    const first = await spawnServe(["--data", file], home.env);
    try {
      const second = await runBuilt(["sandbox", "serve", "--port", "0", "--data", file], home.env);
      expectCleanUsageFailure(second);
      expect(second.stderr).toContain(`sandbox data file ${file} is in use by process ${first.child.pid}`);
      for (const verb of ["reset", "repair"]) {
        const r = await runBuilt(["sandbox", verb, "--data", file], home.env);
        expectCleanUsageFailure(r);
        expect(r.stderr).toContain("is in use by process");
      }
    } finally {
      first.child.kill("SIGINT");
    }
    expect(await first.exited).toBe(0);
  }, 120_000);

  it("a --data path that cannot be a file (a directory): exit 2 naming it, for serve, reset and repair", async () => {
    const file = join(home.dir, "a-directory.json");
    mkdirSync(file);
    for (const args of [["serve", "--port", "0"], ["reset"], ["repair"]]) {
      const r = await runBuilt(["sandbox", ...args, "--data", file], home.env);
      expectCleanUsageFailure(r);
      expect(r.stderr).toContain(`error: cannot use the sandbox data file ${file} (EISDIR`);
    }
  }, 120_000);

  it("a port in use is a usage error, not a bug", async () => {
    const first = await spawnServe(["--memory"], home.env);
    try {
      const port = new URL(first.url).port;
      const r = await runBuilt(["sandbox", "serve", "--memory", "--port", port], home.env);
      expectCleanUsageFailure(r);
      expect(r.stderr).toContain(`:${port}: the port is in use`);
    } finally {
      first.child.kill("SIGINT");
    }
    await first.exited;
  }, 120_000);

  it("a garbled journal line: serve exits 2 naming file and line; repair keeps the rest, moves the file aside", async () => {
    const file = dataOf();
    const sb = await spawnServe(["--data", file], home.env);
    const api = new Api(sb.url, KEY_1001);
    for (let i = 0; i < 4; i++) expect((await api.post("vehicles/extras/switch", { extra_id: 1 })).status).toBe(200);
    sb.child.kill("SIGKILL"); // a crash: the journal is left as it was (a clean stop folds it into the snapshot)
    await sb.exited;

    const damaged = walPath(file);
    const text = readFileSync(damaged, "utf8").split("\n");
    expect(text.filter(Boolean)).toHaveLength(4);
    text[1] = `${text[1]!.slice(0, 10)}#garbled#`;
    writeFileSync(damaged, text.join("\n"));

    const serve = await runBuilt(["sandbox", "serve", "--port", "0", "--data", file], home.env);
    expectCleanUsageFailure(serve);
    expect(serve.stderr).toContain(`error: sandbox data is damaged: ${damaged} line 2:`);
    expect(serve.stderr).toContain(`hint: run \`rentctl sandbox repair --data ${file}\``);

    const repair = await runBuilt(["sandbox", "repair", "--data", file], home.env);
    expect(repair.code, repair.stderr).toBe(0);
    expect(repair.stderr).toMatch(
      /repaired .*: kept 5 vehicles, 4 extras, 3 images \(1 journal entry replayed\); dropped 3 entries from the damage on/,
    );
    const aside = readdirSync(join(home.dir, "data-file")).filter((n) => n.includes(".damaged-"));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(home.dir, "data-file", aside[0]!), "utf8")).toBe(text.join("\n"));

    const again = await spawnServe(["--data", file], home.env);
    again.child.kill("SIGINT");
    expect(await again.exited).toBe(0);
    const clean = await runBuilt(["sandbox", "repair", "--data", file, "-o", "json"], home.env);
    expect(json<{ repaired: boolean }>(clean.stdout).repaired).toBe(false);
  }, 120_000);

  it("a torn last journal line is recovered at start with a warning naming what was dropped", async () => {
    const file = dataOf();
    const sb = await spawnServe(["--data", file], home.env);
    sb.child.kill("SIGINT");
    await sb.exited;
    writeFileSync(walPath(file), '{"s":99,"m":[{"op":"vehicle.del","id":2');
    const again = await spawnServe(["--data", file], home.env);
    try {
      const api = new Api(again.url, KEY_1001);
      expect((await api.get("vehicles/list/id", { vehicle_id: 2, locale_id: 40 })).status).toBe(200);
      expect(again.stderr()).toMatch(
        /line 1 was cut off by a crash mid-write \(\d+ bytes, entry 99: vehicle\.del id 2\)/,
      );
    } finally {
      again.child.kill("SIGINT");
    }
    expect(await again.exited).toBe(0);
    expect(existsSync(file)).toBe(true);
  }, 120_000);
});
