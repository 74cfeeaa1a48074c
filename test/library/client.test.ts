import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
// Through the package's own `exports` (dist/lib and its emitted types), as an integrator imports it.
import {
  ConflictError,
  createClient,
  EXIT,
  InputError,
  InterruptedError,
  type RentctlClient,
  StalePlanError,
  type VehicleInput,
} from "rentctl";
import { createSandbox, type Sandbox, sampleVehicle } from "rentctl/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The typed client (issue "rentctl as a library", section 1) against the
 * in-process sandbox: every operation once, the guarded edit refusing a
 * concurrent change, fleet.apply stopped by an AbortSignal and resumed, two
 * clients for two owners side by side, and what importing it loads.
 */

const car = (userId: number, reg: string, extra: Partial<VehicleInput> = {}): VehicleInput => ({
  ...sampleVehicle(userId),
  vehicle_reg_number: reg,
  ...extra,
});

let sb: Sandbox;
let client: RentctlClient;
beforeAll(async () => {
  sb = await createSandbox();
  client = createClient({ baseUrl: sb.url, apiKey: sb.apiKey, userId: sb.userId });
});
afterAll(async () => {
  await client?.close();
  await sb?.close();
});

describe("createClient: every operation", () => {
  it("catalogs: one method per catalog of the contract, cached per client", async () => {
    const currencies = await client.catalog.currencies();
    expect(currencies.map((c) => c.code)).toContain("EUR");
    const brands = await client.catalog.brands({ segment_id: 1 });
    expect(brands.length).toBeGreaterThan(0);
    const models = await client.catalog.models({ brand_id: Number(brands[0]!.id) });
    expect(models.length).toBeGreaterThan(0);
    const before = sb.requests().length;
    await client.catalog.currencies();
    expect(sb.requests().length).toBe(before); // the second call is served from the client's cache
    for (const name of ["locales", "segments", "years", "classes", "transmissions", "extraOptions"] as const) {
      const params = name === "classes" || name === "transmissions" ? { segment_id: 1 } : {};
      expect((await client.catalog[name](params as never)).length, name).toBeGreaterThan(0);
    }
  });

  it("vehicles: list (one page, every page as an async iterator), get, create, edit, remove", async () => {
    const [first] = await collect(client.vehicles.list({ limit: 2 }));
    expect(first).toHaveLength(2);
    const pages = await collect(client.vehicles.list({ all: true }));
    const all = pages.flat();
    expect(all.map((v) => v.id)).toEqual([1, 2, 3]);
    expect((await client.vehicles.get(1)).vehicle_reg_number).toBe("B-SC 1001");

    const made = await client.vehicles.create(car(1001, "LIB 1", { price_per_day: 60 }));
    expect(made.record.vehicle_reg_number).toBe("LIB 1");
    const edit = await client.vehicles.edit(made.id, { price_per_day: 65 });
    expect(edit.changes).toEqual([{ field: "price_per_day", before: 60, after: 65 }]);
    expect((await client.vehicles.get(made.id)).price_per_day).toBe(65);
    expect((await client.vehicles.edit(made.id, { price_per_day: 65 })).changes).toEqual([]);
    await client.vehicles.remove(made.id);
    await expect(client.vehicles.get(made.id)).rejects.toMatchObject({ exitCode: EXIT.notFound });
  });

  it("vehicles.create checks the input with the CLI's rules: every problem named, nothing sent", async () => {
    const before = sb.requests().filter((r) => r.operation === "vehicles.create").length;
    const err = await client.vehicles
      .create(car(1001, "BAD 1", { price_per_day: -5, vehicle_activity: 3 as 0 }))
      .catch((e) => e);
    expect(err).toBeInstanceOf(InputError);
    expect(err.exitCode).toBe(EXIT.usage);
    expect(err.details.map((d: { field: string }) => d.field).sort()).toEqual(["price_per_day", "vehicle_activity"]);
    expect(sb.requests().filter((r) => r.operation === "vehicles.create").length).toBe(before);
  });

  it("images.upload: files from paths or bytes, ids in order", async () => {
    const dir = await mkdtemp(join(tmpdir(), "rentctl-lib-img-"));
    const path = join(dir, "front.jpg");
    execFileSync(process.execPath, [
      "-e",
      `require("fs").writeFileSync(${JSON.stringify(path)}, Buffer.from([0xff, 0xd8, 0xff, 0xe0]))`,
    ]);
    const ids = await client.images.upload([
      path,
      { name: "back.png", data: new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]) },
    ]);
    expect(ids).toHaveLength(2);
    const upload = sb.requests().findLast((r) => r.operation === "vehicles.upload")!;
    expect(upload.files.map((f) => f.fileName)).toEqual(["front.jpg", "back.png"]);
  });

  it("extras: list, get, create, update, enable/disable (idempotent), switch, remove (with the vehicles using it)", async () => {
    expect((await client.extras.list()).map((e) => e.id)).toEqual([1, 2, 3]);
    expect((await client.extras.get(1)).option_id).toBe(1);
    const made = await client.extras.create({ option_id: 2, price: 7, currency_id: 1, period: 1, quantity: 3 });
    expect((await client.extras.update(made.id, { price: 9 })).changes.map((c) => c.field)).toEqual(["price"]);
    expect(await client.extras.disable(made.id)).toEqual({ switched: true });
    expect(await client.extras.disable(made.id)).toEqual({ switched: false });
    expect(await client.extras.enable(made.id)).toEqual({ switched: true });
    await client.extras.switch(made.id);
    // is_active is not a contract member: reachable, typed unknown
    const switched: Readonly<Record<string, unknown>> = await client.extras.get(made.id);
    expect(switched.is_active).toBe(0);
    const used = await client.extras.remove(1); // vehicle 1 uses extra 1 in the demo seed
    expect(used.usedBy).toContain(1);
    await client.extras.remove(made.id);
    expect((await client.extras.list()).map((e) => e.id)).toEqual([2, 3]);
  });

  it("fleet.plan and fleet.apply: the reviewed plan, applied exactly once; a second apply is stale", async () => {
    const plan = await client.fleet.plan({
      vehicles: [{ vehicle_reg_number: "B-SC 1001", price_per_day: 49 }, car(1001, "LIB 2")],
    });
    expect(plan.changes).toBe(true);
    expect(plan.markdown).toContain("| ~ | B-SC 1001");
    expect(plan.saved.plan).toMatchObject({ vehicles: { create: [{ reg: "LIB 2" }] } });
    // the saved plan is the CLI's: JSON all the way (`rentctl account apply --plan FILE` takes it)
    expect(JSON.parse(JSON.stringify(plan.saved))).toEqual(plan.saved);
    const seen: string[] = [];
    const result = await client.fleet.apply(plan, { onProgress: (r) => seen.push(`${r.key}:${r.status}`) });
    expect(result.counts).toEqual({ changed: 1, created: 1 });
    expect(seen.sort()).toEqual(["B-SC 1001:changed", "LIB 2:created"]);
    expect((await client.vehicles.get(1)).price_per_day).toBe(49);
    const err = await client.fleet.apply(plan).catch((e) => e);
    expect(err).toBeInstanceOf(StalePlanError);
    expect(err.exitCode).toBe(EXIT.drift);
  });
});

describe("createClient: guards", () => {
  it("the guarded edit refuses a change made by someone else between its read and its write (nothing sent)", async () => {
    const other = createClient({ baseUrl: sb.url, apiKey: sb.apiKey, userId: sb.userId });
    let gets = 0;
    const sandbox = await createSandbox({
      onRequest: async (r) => {
        // the edit reads vehicle 2 twice: before the second read, another client changes it
        if (r.operation === "vehicles.get" && r.fields.vehicle_id === "2" && ++gets === 2)
          await otherOn(sandbox).vehicles.edit(2, { price_per_day: 99 });
      },
    });
    const mine = createClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, userId: sandbox.userId });
    try {
      const err = await mine.vehicles.edit(2, { price_per_day: 51 }).catch((e) => e);
      expect(err).toBeInstanceOf(ConflictError);
      expect(err.exitCode).toBe(EXIT.rejected);
      expect((await mine.vehicles.get(2)).price_per_day).toBe(99);
      const edits = sandbox.requests().filter((r) => r.operation === "vehicles.edit");
      expect(edits.map((r) => r.fields.price_per_day)).toEqual(["99"]);
    } finally {
      await mine.close();
      await other.close();
      await closeOthers();
      await sandbox.close();
    }
  });

  it("two clients for two owners in one process work side by side", async () => {
    const sb2 = await createSandbox();
    const key = (id: number) => sb2.owners.find((o) => o.userId === id)!.apiKey;
    const a = createClient({ baseUrl: sb2.url, apiKey: key(1001), userId: 1001 });
    const b = createClient({ baseUrl: sb2.url, apiKey: key(1003), userId: 1003 });
    try {
      const [ma, mb] = await Promise.all([
        a.vehicles.create(car(1001, "OWN A")),
        b.vehicles.create(car(1003, "OWN B")),
      ]);
      const regs = async (c: RentctlClient) =>
        (await collect(c.vehicles.list({ all: true }))).flat().map((v) => v.vehicle_reg_number);
      expect(await regs(a)).toContain("OWN A");
      expect(await regs(a)).not.toContain("OWN B");
      expect(await regs(b)).toEqual(["OWN B"]);
      expect(ma.id).not.toBe(mb.id);
    } finally {
      await a.close();
      await b.close();
      await sb2.close();
    }
  });

  it("fleet.apply stops on an AbortSignal with the rows in flight finished, and the same plan applied again finishes the rest", async () => {
    const sb3 = await createSandbox({ seed: "empty" });
    const owner = sb3.owners.find((o) => o.userId === 1003)!;
    const dataDir = await mkdtemp(join(tmpdir(), "rentctl-lib-data-"));
    const c = createClient({ baseUrl: sb3.url, apiKey: owner.apiKey, userId: 1003, dataDir });
    try {
      const vehicles = Array.from({ length: 12 }, (_, i) => car(1003, `ABT ${i + 1}`));
      const plan = await c.fleet.plan({ vehicles });
      const stop = new AbortController();
      const err = await c.fleet
        .apply(plan, { concurrency: 1, signal: stop.signal, onProgress: (_r, done) => done === 4 && stop.abort() })
        .catch((e) => e);
      expect(err).toBeInstanceOf(InterruptedError);
      expect(err.exitCode).toBe(EXIT.interrupted);
      const made = (await collect(c.vehicles.list({ all: true }))).flat().length;
      expect(made).toBeGreaterThanOrEqual(4);
      expect(made).toBeLessThan(12);
      // a second client on the same data dir (another process, as it were) resumes the journaled job
      const again = createClient({ baseUrl: sb3.url, apiKey: owner.apiKey, userId: 1003, dataDir });
      try {
        const result = await again.fleet.apply(plan);
        expect(result.counts.created).toBe(12 - made);
        const regs = (await collect(again.vehicles.list({ all: true }))).flat().map((v) => v.vehicle_reg_number);
        expect(regs.sort()).toEqual(vehicles.map((v) => v.vehicle_reg_number).sort());
        expect(sb3.requests().filter((r) => r.operation === "vehicles.create")).toHaveLength(12);
        expect(result.undoOp).toBeDefined(); // a data dir keeps the undo history (`rentctl undo OP`)
      } finally {
        await again.close();
      }
    } finally {
      await c.close();
      await sb3.close();
    }
  });

  it("without a dataDir nothing is kept: no undo history, the private journal directory removed on close", async () => {
    const before = new Set(await readdir(tmpdir()));
    const c = createClient({ baseUrl: sb.url, apiKey: sb.apiKey, userId: sb.userId });
    const plan = await c.fleet.plan({ vehicles: [{ vehicle_reg_number: "B-SC 1001", price_per_day: 47 }] });
    const r = await c.fleet.apply(plan);
    expect(r.undoOp).toBeUndefined();
    await c.close();
    const left = (await readdir(tmpdir())).filter((f) => f.startsWith("rentctl-lib-") && !before.has(f));
    expect(left).toEqual([]);
  });

  it("bad options and arguments are usage errors (exit 2), before any request", async () => {
    expect(() => createClient({})).toThrow(/baseUrl/);
    expect(() => createClient({ baseUrl: sb.url, retries: 0 })).toThrow(/retries/);
    expect(() => createClient({ env: "prod" as "production" })).toThrow(/env must be one of/);
    expect(() => createClient({ baseUrl: "not a url" })).toThrow(/http\(s\) address/);
    await expect(client.vehicles.get(0)).rejects.toMatchObject({ exitCode: EXIT.usage });
    const closed = createClient({ baseUrl: sb.url, apiKey: sb.apiKey, userId: sb.userId });
    await closed.close();
    await expect(async () => closed.vehicles.get(1)).rejects.toThrow(/client is closed/);
  });

  it("refuses what the CLI refuses, with nothing sent: unknown fields, another owner, a taken registration, a missing file", async () => {
    const writes = () =>
      sb
        .requests()
        .filter(
          (r) => r.operation !== undefined && !/\.(list|get)$/.test(r.operation) && !r.operation.startsWith("catalog."),
        ).length;
    const before = writes();
    const js = client as unknown as {
      vehicles: { edit(id: number, c: object): Promise<unknown>; create(i: object): Promise<unknown> };
    };
    await expect(js.vehicles.edit(1, { price_per_dya: 3 })).rejects.toMatchObject({
      exitCode: EXIT.usage,
      details: [{ field: "price_per_dya" }],
    });
    await expect(js.vehicles.edit(1, { user_id: 1002 })).rejects.toMatchObject({ exitCode: EXIT.usage });
    await expect(js.vehicles.create({ ...car(1001, "NEW 9"), colour: "red" })).rejects.toBeInstanceOf(InputError);
    await expect(client.vehicles.create(car(1001, "B-SC 1001"))).rejects.toThrow(
      /vehicle 1 already has registration number "B-SC 1001"/,
    );
    await expect(client.vehicles.edit(1, { vehicle_reg_number: "M-SC 2002" })).rejects.toThrow(
      /vehicle 2 already has registration number "M-SC 2002"/,
    );
    await expect(client.images.upload(["/nonexistent/x.png"])).rejects.toMatchObject({ exitCode: EXIT.usage });
    // a file that is no image: the hint in the library's words, not a CLI flag
    const notImage = await client.images
      .upload([{ name: "a.png", data: new TextEncoder().encode("<svg/>") }])
      .catch((e) => e);
    expect(notImage.exitCode).toBe(EXIT.usage);
    expect(notImage.hint).toMatch(/\{ anyType: true \}/);
    expect(notImage.hint).not.toMatch(/--/);
    expect(writes()).toBe(before);
  });
});

describe("importing rentctl", () => {
  it("loads none of the CLI's own modules (commander, inquirer, chalk, tables, progress) nor the sandbox", () => {
    // what the import graph of dist/lib/index.js reaches statically
    const graph = staticImports(join(process.cwd(), "dist/lib/index.js"));
    for (const name of ["commander", "chalk", "@inquirer/prompts", "cli-table3", "cli-progress", "conf"])
      expect(graph.packages).not.toContain(name);
    // the sandbox's server (its answer to a wrong method) is in no module loaded on import
    expect(graph.files.some((f) => readFileSync(f, "utf8").includes("method not allowed"))).toBe(false);
    expect(graph.packages).not.toContain("node:http");
  });
});

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

const others = new Map<Sandbox, RentctlClient>();
function otherOn(s: Sandbox): RentctlClient {
  let c = others.get(s);
  if (!c) {
    c = createClient({ baseUrl: s.url, apiKey: s.apiKey, userId: s.userId });
    others.set(s, c);
  }
  return c;
}
async function closeOthers(): Promise<void> {
  for (const c of others.values()) await c.close();
  others.clear();
}

/** The files and packages a module reaches through static `import` statements. */
function staticImports(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const walk = (f: string) => {
    if (files.has(f)) return;
    files.add(f);
    const text = readFileSync(f, "utf8");
    for (const m of text.matchAll(/(?:^|[;}\s])import\s*(?:[\w$*{},\s]+from\s*)?"([^"]+)"/g)) {
      const spec = m[1]!;
      if (spec.startsWith(".")) walk(join(f, "..", spec));
      else packages.add(spec);
    }
  };
  walk(entry);
  return { files: [...files], packages: [...packages] };
}
