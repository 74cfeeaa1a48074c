import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { sampleVehicleInput } from "../../src/sandbox/seed.js";
import { lockPath, Store } from "../../src/sandbox/store.js";
import { type CliResult, json, ROOT, runBuilt, tempHome } from "../helpers/cli.js";
import { type EmbeddedProcess, removeEmbeddedBundle, spawnEmbedded } from "../helpers/embedded.js";
import { Terminal } from "../helpers/pty.js";
import { Api, allVehicles, KEY_1003, type ServeProcess, spawnServe } from "../sandbox/helpers.js";

/**
 * The embedded sandbox (`--env sandbox`, no address) holds its data file only
 * while it answers a request, never between requests: a command left open
 * (the wizard at its review, a long import) keeps nobody else out, and each
 * request first reads what other processes wrote meanwhile. Only a running
 * `rentctl sandbox serve` holding the file makes an embedded command fail
 * (exit 2, naming its pid and address). Real processes throughout.
 */

const USER = 1003;
const example = parse(readFileSync(join(ROOT, "examples/vehicle.yaml"), "utf8")) as Record<string, unknown>;

let home: ReturnType<typeof tempHome>;
let env: NodeJS.ProcessEnv;
let dataFile: string;
const cleanups: Array<() => unknown> = [];
beforeEach(() => {
  home = tempHome();
  // A short bound: a command that waited for a file held between requests would fail fast (exit 9).
  env = { ...home.env, RENTCTL_ENV: "sandbox", RENTCTL_LOCK_TIMEOUT: "3", TERM: "xterm-256color" };
  dataFile = join(home.dir, "data", "sandbox.json");
});
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
  home.cleanup();
});
afterAll(() => removeEmbeddedBundle());

function wizard(reg: string): Terminal {
  const file = join(home.dir, `${reg}.json`);
  writeFileSync(file, JSON.stringify({ ...example, vehicle_reg_number: reg }));
  const t = new Terminal(
    ["vehicle", "wizard", "--from-file", file, "--user", String(USER)],
    env,
    join(home.dir, `${reg}.out`),
  );
  cleanups.push(() => t.kill());
  return t;
}

function embedded(opts: NodeJS.ProcessEnv = {}): Promise<EmbeddedProcess> {
  return spawnEmbedded(dataFile, opts).then((p) => {
    cleanups.push(() => p.child.exitCode === null && p.child.kill("SIGKILL"));
    return p;
  });
}

function serve(): Promise<ServeProcess> {
  return spawnServe(["--data", dataFile], home.env).then((s) => {
    cleanups.push(async () => {
      if (s.child.exitCode === null) s.child.kill("SIGINT");
      await s.exited;
    });
    return s;
  });
}

const create = (reg: string): Promise<CliResult> =>
  runBuilt(
    [
      "vehicle",
      "create",
      "--from-file",
      join(ROOT, "examples/vehicle.yaml"),
      "--reg",
      reg,
      "--user",
      String(USER),
      "-q",
    ],
    env,
  );

async function regs(): Promise<Array<{ id: number; reg: string }>> {
  const r = await runBuilt(["vehicle", "list", "--all", "-o", "json", "--user", String(USER)], env);
  expect(r.code, r.stderr).toBe(0);
  return json<Array<Record<string, unknown>>>(r.stdout).map((v) => ({
    id: Number(v.id),
    reg: String(v.vehicle_reg_number),
  }));
}

describe("a long-lived command on the embedded sandbox holds the data file only per request (built CLI)", () => {
  it("the wizard open at its review: others list and create meanwhile; its create then sees their writes", async () => {
    expect((await create("TURN-1")).code).toBe(0);
    const t = wizard("TURN-2");
    await t.waitFor(/\? What now\?/, "the review");
    expect(t.screen).toMatch(/New vehicle on \S*sandbox\S* as owner 1003/);

    // The wizard's process runs the embedded sandbox on the data file and stays alive, waiting for input.
    const list = await runBuilt(["vehicle", "list", "-o", "json", "--user", String(USER)], env);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stderr).not.toMatch(/waiting for the sandbox data file/);
    expect(json<Array<{ vehicle_reg_number: string }>>(list.stdout).map((v) => v.vehicle_reg_number)).toEqual([
      "TURN-1",
    ]);
    const other = await create("TURN-3");
    expect(other.code, other.stderr).toBe(0);
    expect(t.child.exitCode).toBeNull();

    t.send("\r"); // "Create the vehicle"
    const made = await t.waitFor(/vehicle (\d+) created/, "the success message");
    expect(await t.exit).toBe(0);
    const all = await regs();
    expect(all.map((v) => v.reg).sort()).toEqual(["TURN-1", "TURN-2", "TURN-3"]);
    expect(new Set(all.map((v) => v.id)).size).toBe(3);
    expect(all.find((v) => v.reg === "TURN-2")?.id).toBe(Number(made[1]));
    expect(existsSync(lockPath(dataFile))).toBe(false);
  }, 60_000);
});

describe("two processes on one data file, both alive (embedded sandboxes)", () => {
  const vehicle = (reg: string) => ({ ...sampleVehicleInput(USER), vehicle_reg_number: reg });

  it("alternate writes: each one is seen by the other process's next request; ids never collide", async () => {
    const a = await embedded();
    const b = await embedded();
    const apiA = new Api(a.url, KEY_1003);
    const apiB = new Api(b.url, KEY_1003);
    const made: string[] = [];
    for (let i = 0; i < 6; i++) {
      const [writer, reader] = i % 2 === 0 ? [apiA, apiB] : [apiB, apiA];
      const r = await writer.post("vehicles/create", vehicle(`ALT-${i}`));
      expect(r.status, r.text).toBe(200);
      made.push(`ALT-${i}`);
      expect((await allVehicles(reader, USER)).map((v) => v.vehicle_reg_number)).toEqual(made);
    }
    // A change of a record the other process created (an edit sends the whole record), and a removal.
    const [first, second] = await allVehicles(apiA, USER);
    const edit = { ...vehicle("ALT-0"), vehicle_id: first!.id, price_per_day: 77 };
    expect((await apiB.post("vehicles/edit", edit)).status).toBe(200);
    expect((await apiA.get("vehicles/list/id", { vehicle_id: first!.id, locale_id: 40 })).body.data.price_per_day).toBe(
      77,
    );
    expect((await apiA.post("vehicles/remove", { user_id: USER, vehicle_id: second!.id })).status).toBe(200);
    expect((await apiB.get("vehicles/list/id", { vehicle_id: second!.id, locale_id: 40 })).status).toBe(404);

    expect(await a.stop()).toBe(0);
    expect(await b.stop()).toBe(0);
    const store = await Store.open(dataFile);
    expect(store.ownerVehicles(USER).map((v) => v.fields.vehicle_reg_number)).toEqual(
      made.filter((r) => r !== "ALT-1"),
    );
    await store.close();
  }, 60_000);

  it("both writing at once, 8 requests in flight each, compacting all along: every write kept, once", async () => {
    // A journal bound this small makes nearly every turn compact: the other process must load it all again.
    const a = await embedded({ CHILD_COMPACT_BYTES: "4096" });
    const b = await embedded({ CHILD_COMPACT_BYTES: "4096" });
    const apis = [new Api(a.url, KEY_1003), new Api(b.url, KEY_1003)];
    const acked = new Map<string, number>();
    await Promise.all(
      Array.from({ length: 16 }, async (_, w) => {
        for (let i = 0; i < 10; i++) {
          const reg = `PAR-${w}-${i}`;
          const r = await apis[w % 2]!.post("vehicles/create", vehicle(reg));
          expect(r.status, r.text).toBe(200);
          acked.set(reg, r.body.data.id);
        }
      }),
    );
    expect(new Set(acked.values()).size).toBe(160);
    for (const api of apis) {
      const seen = await allVehicles(api, USER);
      expect(seen).toHaveLength(160);
      for (const v of seen) expect(acked.get(String(v.vehicle_reg_number))).toBe(v.id);
    }
    expect(await a.stop()).toBe(0);
    expect(await b.stop()).toBe(0);
    expect(a.stderr() + b.stderr()).toBe("");
    const store = await Store.open(dataFile);
    expect(store.vehicleCount(USER)).toBe(160);
    await store.close();
  }, 60_000);
});

describe("a running `sandbox serve` on the data file", () => {
  it("an embedded command fails at once with exit 2, naming its pid and address", async () => {
    expect((await create("SRV-1")).code).toBe(0); // the data file exists
    const s = await serve();
    const r = await runBuilt(["vehicle", "list", "--user", String(USER)], env);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.match(/^error:/gm)).toHaveLength(1);
    expect(r.stderr).toContain(
      `is in use by a running \`rentctl sandbox serve\` (pid ${s.child.pid}, address ${s.url})`,
    );
    expect(r.stderr).toContain(`--base-url ${s.url}`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    // Through the address named, the same data.
    const via = await runBuilt(["vehicle", "list", "-q", "--user", String(USER)], { ...env, RENTCTL_BASE_URL: s.url });
    expect(via.code, via.stderr).toBe(0);
    expect(via.stdout.trim().split("\n")).toHaveLength(1);
  }, 60_000);

  it("started while commands are open: their next request fails, naming its pid and address", async () => {
    const t = wizard("SRV-2");
    await t.waitFor(/\? What now\?/, "the review");
    const p = await embedded();
    const api = new Api(p.url, KEY_1003);
    expect((await api.get("vehicles/list", { user_id: USER, locale_id: 40 })).status).toBe(200);

    const s = await serve(); // takes the file: nobody holds it between requests
    for (let i = 0; i < 2; i++) {
      const r = await api.get("vehicles/list", { user_id: USER, locale_id: 40 });
      expect(r.status).toBe(503);
      expect(r.body.errors.message).toContain(
        `in use by process ${s.child.pid} (a running \`rentctl sandbox serve\` at ${s.url})`,
      );
    }

    // The wizard says so at "Create" (and stays at its review, nothing created).
    t.send("\r");
    await t.waitFor(
      new RegExp(
        `in use by a running \`rentctl sandbox serve\` \\(pid ${s.child.pid}, address ${s.url.replace(/\./g, "\\.")}\\)`,
      ),
      "the error naming the server",
    );
    await t.waitFor(/\? What now\?/, "the review again");
    t.send("\x03");
    expect(await t.exit).toBe(130);
    expect(await allVehicles(new Api(s.url, KEY_1003), USER)).toEqual([]);
  }, 60_000);
});
