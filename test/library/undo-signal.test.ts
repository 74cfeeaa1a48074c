import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activeOf } from "../../src/contract/extra-fields.js";
import {
  createClient,
  InterruptedError,
  type RentctlClient,
  TimeoutError,
  UsageError,
} from "../../src/library/index.js";
import { createSandbox, type Sandbox, sampleVehicle } from "../../src/library/sandbox.js";

/**
 * Issue 40 (the library's undo, history and per-call signal / timeout), in this process against
 * the in-process sandbox: an edit and an extra's delete undone through client.undo (the extra back
 * off, under a new id, on the vehicle that used it), history listing them; a listing stopped by its
 * signal asks for no further page; a per-call timeout overrides the client's.
 */

describe("client.undo and client.history", () => {
  let sb: Sandbox;
  let dataDir: string;
  let client: RentctlClient;
  beforeAll(async () => {
    sb = await createSandbox();
    dataDir = await mkdtemp(join(tmpdir(), "rentctl-undo-lib-"));
    client = createClient({ baseUrl: sb.url, apiKey: sb.apiKey, userId: sb.userId, dataDir });
  });
  afterAll(async () => {
    await client?.close();
    await sb?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("restores an edit: the record as it was, the op marked undone", async () => {
    const before = await client.vehicles.get(1);
    const edit = await client.vehicles.edit(1, { price_per_day: before.price_per_day + 7 });
    expect(edit.undoOp).toBeDefined();
    expect((await client.vehicles.get(1)).price_per_day).toBe(before.price_per_day + 7);
    const r = await client.undo(edit.undoOp!);
    expect(r).toMatchObject({ kind: "restored", op: edit.undoOp, id: 1, sent: true, undone: true, recreated: [] });
    if (r.kind !== "restored") throw new Error("not a restore");
    expect(r.changes.map((c) => c.field)).toEqual(["price_per_day"]);
    expect((await client.vehicles.get(1)).price_per_day).toBe(before.price_per_day);
    // a second undo of the same op is refused in the library's words
    const again = await client.undo(edit.undoOp!).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(UsageError);
    expect((again as UsageError).message).toMatch(/already undone/);
  });

  it("re-creates a deleted extra as it was: off, on the vehicle that used it, under a new id", async () => {
    const made = await client.extras.create({ option_id: 1, price: 9, currency_id: 1, period: 1, quantity: 1 });
    await client.vehicles.edit(2, { vehicle_extras: [made.id] });
    await client.extras.disable(made.id);
    const gone = await client.extras.remove(made.id);
    expect(gone.usedBy).toEqual([2]);
    const r = await client.undo(gone.undoOp!);
    if (r.kind !== "recreated") throw new Error(`not a re-create: ${r.kind}`);
    expect(r.from).toBe(made.id);
    expect(r.id).toBeDefined();
    expect(r.id).not.toBe(made.id);
    expect(r.recreated).toEqual([{ kind: "extra", from: made.id, to: r.id }]);
    expect(r.reattached).toEqual([2]);
    expect(r.notReattached).toEqual([]);
    const back = await client.extras.get(r.id!);
    expect(back.price).toBe(9);
    expect(activeOf(back as never)).toBe(false);
    expect(((await client.vehicles.get(2)).vehicle_extras ?? []).map(Number)).toContain(r.id);
  });

  it("history lists the ops newest first, the undone ones with their time", async () => {
    const rows = await client.history();
    expect(rows.map((h) => h.action).slice(0, 5)).toEqual([
      "extra.delete",
      "extra.switch",
      "vehicle.edit",
      "extra.create",
      "vehicle.edit",
    ]);
    expect(rows[0]!.undone).not.toBeNull(); // the delete, undone
    expect(rows.at(-1)!.undone).not.toBeNull(); // the first edit, undone
    expect(await client.history({ limit: 2 })).toHaveLength(2);
    await expect(client.history({ limit: 0 })).rejects.toThrow(UsageError);
  });

  it("history lists the client's owner's ops; allOwners every one's, with user_id", async () => {
    const other = createClient({ baseUrl: sb.url, apiKey: sb.apiKey, userId: 1002, dataDir });
    try {
      expect(await other.history()).toEqual([]);
      const all = await other.history({ allOwners: true });
      expect(all.map((h) => h.op)).toEqual((await client.history()).map((h) => h.op));
      expect(new Set(all.map((h) => h.user_id))).toEqual(new Set([sb.userId]));
    } finally {
      await other.close();
    }
  });

  it("an unknown op, and a client without dataDir, are refused in the library's words", async () => {
    await expect(client.undo("999")).rejects.toThrow(/no undo entry "999"/);
    const e = (await client.undo("999").catch((x: unknown) => x)) as UsageError;
    expect(e.hint).toBe("list them with client.history()");
    const bare = createClient({ baseUrl: sb.url, apiKey: sb.apiKey, userId: sb.userId });
    try {
      await expect(bare.undo("1")).rejects.toThrow(/dataDir/);
      expect(await bare.history()).toEqual([]);
    } finally {
      await bare.close();
    }
  });
});

describe("vehicles.list / get: a per-call signal and timeout", () => {
  let sb: Sandbox;
  let client: RentctlClient;
  let hold: Promise<void> | undefined;
  beforeAll(async () => {
    // 250 vehicles: three pages of 100 for a whole listing
    const vehicles = Array.from({ length: 250 }, (_, i) => ({
      ...sampleVehicle(1002),
      user_id: 1002,
      vehicle_reg_number: `S-IG ${i + 1}`,
    }));
    sb = await createSandbox({ seed: { vehicles }, onRequest: () => hold });
    const owner = sb.owners.find((o) => o.userId === 1002)!;
    client = createClient({ baseUrl: sb.url, apiKey: owner.apiKey, userId: owner.userId, attempts: 1 });
    await client.catalog.locales(); // the locale read once, before the counts
  });
  afterAll(async () => {
    await client?.close();
    await sb?.close();
  });
  const listed = () => sb.requests().filter((r) => r.operation === "vehicles.list").length;

  it("a listing aborted between pages asks for no further page and rejects with InterruptedError", async () => {
    const before = listed();
    const stop = new AbortController();
    const pages = client.vehicles.list({ all: true, signal: stop.signal })[Symbol.asyncIterator]();
    const first = await pages.next();
    expect(first.value).toHaveLength(100);
    stop.abort();
    await expect(pages.next()).rejects.toThrow(InterruptedError);
    expect(listed() - before).toBe(1); // the walk would have asked for 3 pages
    // without a signal the same walk reads all of them
    let n = 0;
    for await (const page of client.vehicles.list({ all: true })) n += page.length;
    expect(n).toBe(250);
  });

  it("a request in flight is aborted by the signal (InterruptedError, nothing else sent)", async () => {
    const stop = new AbortController();
    let release!: () => void;
    hold = new Promise<void>((r) => {
      release = r;
    });
    try {
      const before = listed();
      const pages = client.vehicles.list({ signal: stop.signal })[Symbol.asyncIterator]();
      const next = pages.next();
      // the sandbox holds the answer; the request is recorded once it arrives
      await expect.poll(() => listed() - before).toBe(1);
      stop.abort();
      await expect(next).rejects.toThrow(InterruptedError);
      // a signal aborted before the call: nothing is sent
      await expect(client.vehicles.get(1, { signal: stop.signal })).rejects.toThrow(InterruptedError);
    } finally {
      release();
      hold = undefined;
    }
  });

  it("a per-call timeout overrides the client's (30 s): TimeoutError naming it", async () => {
    let release!: () => void;
    hold = new Promise<void>((r) => {
      release = r;
    });
    try {
      const e = await client.vehicles.get(1, { timeout: 20 }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(TimeoutError);
      expect((e as TimeoutError).message).toMatch(/timed out after 0\.02s/);
      expect((e as TimeoutError).operation).toBe("vehicles.get");
      await expect(client.vehicles.get(1, { timeout: -1 })).rejects.toThrow(UsageError);
    } finally {
      release();
      hold = undefined;
    }
    expect((await client.vehicles.get(1)).id).toBe(1);
  });
});
