import { appendFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BusyError } from "../../src/base/lock.js";
import { serverInfoPath } from "../../src/sandbox/persistence/lock.js";
import { sampleVehicleInput } from "../../src/sandbox/seed.js";
import { resetSandboxData, type SandboxOptions, startSandbox } from "../../src/sandbox/server.js";
import { lockPath, SandboxDataCorruptError, SandboxDataInUseError, Store, walPath } from "../../src/sandbox/store.js";
import { Api, KEY_1001, start, tempDir } from "./helpers.js";

let dir: string;
let cleanup: () => void;
let file: string;
beforeEach(() => {
  ({ dir, cleanup } = tempDir());
  file = join(dir, "nested", "sandbox.json");
});
afterEach(() => cleanup());

const open = (opts: SandboxOptions = {}) => start({ dataFile: file, ...opts });

const journalLines = () =>
  existsSync(walPath(file))
    ? readFileSync(walPath(file), "utf8")
        .split("\n")
        .filter((l) => l.trim())
    : [];

async function everything(api: Api) {
  const vehicles = (await api.get("vehicles/list", { user_id: 1001, locale_id: 40, limit: 1000 })).body.data;
  const extras = (await api.get("vehicles/extras/list", { locale_id: 40, limit: 1000 })).body.data;
  return { vehicles, extras };
}

describe("persistence", () => {
  it("creates the data file from the seed, directories included", async () => {
    const { sb } = await open();
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ format: "rentctl-sandbox", version: 1, seq: 0 });
    expect(readFileSync(lockPath(file), "utf8")).toBe(`${process.pid} serve`);
    await sb.close();
    expect(existsSync(lockPath(file))).toBe(false);
  });

  it("state survives a restart: create, edit, remove, upload, extras", async () => {
    const first = await open();
    const created = (await first.api.post("vehicles/create", sampleVehicleInput(1001))).body.data;
    await first.api.post("vehicles/edit", { user_id: 1001, vehicle_id: 2, price_per_day: 1 });
    await first.api.post("vehicles/remove", { user_id: 1001, vehicle_id: 3 });
    const fd = new FormData();
    fd.append("user_id", "1001");
    fd.append("file", new Blob(["img"]), "a.jpg");
    const image = (await first.api.multipart("vehicles/upload", fd)).body.data[0];
    await first.api.post("vehicles/extras/switch", { extra_id: 1 });
    await first.api.post("vehicles/extras/delete", { extra_id: 2 });
    const before = await everything(first.api);
    // each mutating request is one journal line; the snapshot is untouched
    expect(journalLines()).toHaveLength(6);
    expect(JSON.parse(readFileSync(file, "utf8")).seq).toBe(0);
    await first.sb.close();

    const second = await open();
    expect(await everything(second.api)).toEqual(before);
    const got = await second.api.get("vehicles/list/id", { vehicle_id: created.id, locale_id: 40 });
    expect(got.body.data).toEqual(created);
    expect((await second.api.get("vehicles/list/id", { vehicle_id: 3, locale_id: 40 })).status).toBe(404);
    // ids keep counting after the restart (never reused)
    const next = (await second.api.post("vehicles/create", sampleVehicleInput(1001))).body.data.id;
    expect(next).toBe(created.id + 1);
    const car = await second.api.post("vehicles/create", { ...sampleVehicleInput(1001), vehicle_images: [image.id] });
    expect(car.status).toBe(200);
    await second.sb.close();
  });

  it("a removed highest id is not reused after a restart", async () => {
    const first = await open();
    const id = (await first.api.post("vehicles/create", sampleVehicleInput(1001))).body.data.id;
    await first.api.post("vehicles/remove", { user_id: 1001, vehicle_id: id });
    await first.sb.close();
    const second = await open();
    expect((await second.api.post("vehicles/create", sampleVehicleInput(1001))).body.data.id).toBe(id + 1);
    await second.sb.close();
  });

  it("journal compaction keeps the state and shortens the journal", async () => {
    const first = await open({ walLimit: 5 });
    for (let i = 0; i < 23; i++) {
      await first.api.post("vehicles/create", { ...sampleVehicleInput(1001), vehicle_reg_number: `C-${i}` });
      if (i % 4 === 0) await first.api.post("vehicles/extras/switch", { extra_id: 1 });
    }
    await first.api.post("vehicles/edit", { user_id: 1001, vehicle_id: 7, price_per_day: 3 });
    const before = await everything(first.api);
    await first.sb.close();
    const snap = JSON.parse(readFileSync(file, "utf8"));
    expect(snap.seq).toBeGreaterThan(0);
    expect(snap.vehicles.length).toBeGreaterThan(5);
    expect(journalLines().length).toBeLessThan(30);
    // every line left in the journal is newer than the snapshot
    for (const line of journalLines()) expect(JSON.parse(line).s).toBeGreaterThan(snap.seq);
    expect(readdirSync(join(dir, "nested")).filter((n) => n.endsWith(".tmp"))).toEqual([]);

    const second = await open({ walLimit: 5 });
    expect(await everything(second.api)).toEqual(before);
    await second.sb.close();
  });

  it("an explicit compaction folds everything into the snapshot", async () => {
    const store = await Store.open(file, {});
    const row = { ...[...store.vehicles.values()][0]!, id: store.allocate("vehicle") };
    store.commit([{ op: "vehicle.put", row }]);
    expect(journalLines()).toHaveLength(1);
    await store.compact();
    expect(journalLines()).toHaveLength(0);
    await store.close();
    const snap = JSON.parse(readFileSync(file, "utf8"));
    expect(snap.seq).toBe(1);
    expect(snap.vehicles.map((v: { id: number }) => v.id)).toContain(row.id);
    const again = await Store.open(file, {});
    expect(again.vehicles.get(row.id)).toEqual(row);
    await again.close();
  });

  it("lines already in the snapshot are skipped on replay (crash between snapshot and journal rewrite)", async () => {
    const store = await Store.open(file, {});
    const row = { ...store.vehicles.get(1)!, fields: { user_id: 1001 } };
    store.commit([{ op: "vehicle.put", row }]);
    const journal = readFileSync(walPath(file), "utf8");
    await store.compact();
    await store.close();
    writeFileSync(walPath(file), journal); // as if the rewrite never happened
    const again = await Store.open(file, {});
    expect(again.vehicles.get(1)?.fields).toEqual({ user_id: 1001 });
    await again.close();
  });

  it("a torn last journal line is ignored; a bad line in the middle is corruption", async () => {
    const { sb, api } = await open();
    await api.post("vehicles/extras/switch", { extra_id: 1 });
    await sb.close();
    appendFileSync(walPath(file), '{"s":2,"m":[{"op":"vehicle.del","i');
    const second = await open();
    expect((await second.api.get("vehicles/list/id", { vehicle_id: 1, locale_id: 40 })).status).toBe(200);
    expect((await second.api.get("vehicles/extras/list/id", { extra_id: 1, locale_id: 40 })).body.data.is_active).toBe(
      0,
    );
    await second.sb.close();

    writeFileSync(walPath(file), `garbage\n${readFileSync(walPath(file), "utf8")}{"s":99,"m":[]}\n`);
    await expect(open()).rejects.toBeInstanceOf(SandboxDataCorruptError);
    expect(existsSync(lockPath(file))).toBe(false);
  });

  it("a corrupt snapshot is reported, not silently replaced", async () => {
    writeFileSync(file.replace("nested/", ""), "{ not json");
    await expect(startSandbox({ port: 0, dataFile: file.replace("nested/", "") })).rejects.toThrow(
      /damaged: .*line 1: not a rentctl sandbox file/,
    );
    writeFileSync(file.replace("nested/", ""), JSON.stringify({ hello: 1 }));
    await expect(startSandbox({ port: 0, dataFile: file.replace("nested/", "") })).rejects.toThrow(
      /not a rentctl sandbox file/,
    );
  });

  it("one sandbox per data file; a stale lock of a dead process is taken over", async () => {
    const { sb } = await open();
    await expect(open()).rejects.toBeInstanceOf(SandboxDataInUseError);
    await expect(resetSandboxData(file)).rejects.toBeInstanceOf(SandboxDataInUseError);
    await sb.close();
    writeFileSync(lockPath(file), "999999999");
    const again = await open();
    await again.sb.close();
  });

  it("resetSandboxData wipes back to the seed", async () => {
    const { sb, api } = await open();
    const seeded = await everything(api);
    await api.post("vehicles/create", sampleVehicleInput(1001));
    await api.post("vehicles/extras/delete", { extra_id: 1 });
    await sb.close();
    writeFileSync(`${file}.123.abc.tmp`, "leftover");
    await resetSandboxData(file);
    expect(existsSync(walPath(file))).toBe(false);
    expect(readdirSync(join(dir, "nested")).filter((n) => n.endsWith(".tmp"))).toEqual([]);
    const fresh = await open();
    expect(await everything(fresh.api)).toEqual(seeded);
    await fresh.sb.close();
    // reset also works on a file that does not exist yet
    await resetSandboxData(join(dir, "other", "x.json"));
    expect(existsSync(join(dir, "other", "x.json"))).toBe(true);
  });

  it("a failed compaction is reported and the store keeps working", async () => {
    const errors: unknown[] = [];
    const store = await Store.open(file, { walLimit: 1, onError: (e) => errors.push(e) });
    rmSync(join(dir, "nested"), { recursive: true, force: true }); // the snapshot can no longer be written
    const base = store.vehicles.get(1)!;
    for (let i = 0; i < 5; i++) {
      store.commit([{ op: "vehicle.put", row: { ...base, id: store.allocate("vehicle") } }]);
      await store.idle();
    }
    expect(errors).toHaveLength(1); // no retry storm: the next attempt waits for the journal to grow
    expect(store.vehicleCount(1001)).toBe(8);
    await store.close();
  });

  it("dataFile null keeps nothing on disk", async () => {
    const sb = await startSandbox({ port: 0, dataFile: null });
    const api = new Api(sb.url, KEY_1001);
    await api.post("vehicles/create", sampleVehicleInput(1001));
    await sb.close();
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("compaction on close", () => {
  it("a server's clean stop (compactOnClose) folds the journal in; by default only a journal worth it is folded", async () => {
    const store = await Store.open(file, {});
    const base = store.vehicles.get(1)!;
    const extra = store.extras.get(1)!;
    store.commit([{ op: "extra.put", row: { ...extra, is_active: 0 } }]);
    await store.close(); // one short line against the seed snapshot: not worth a rewrite
    expect(journalLines()).toHaveLength(1);

    const many = await Store.open(file, {});
    for (let i = 0; i < 20; i++) many.commit([{ op: "vehicle.put", row: { ...base, id: many.allocate("vehicle") } }]);
    await many.close(); // the journal is now over an eighth of the snapshot
    expect(journalLines()).toHaveLength(0);

    const served = await Store.open(file, { compactOnClose: true });
    served.commit([{ op: "vehicle.put", row: { ...base, id: served.allocate("vehicle") } }]);
    await served.close();
    expect(journalLines()).toHaveLength(0);
    const again = await Store.open(file, {});
    expect(again.vehicleCount(1001)).toBe(3 + 21);
    expect(again.extras.get(1)?.is_active).toBe(0);
    await again.close();
  });
});

describe("an embedded store holds the data file only for a turn", () => {
  const embedded = (opts: Parameters<typeof Store.open>[1] = {}) => Store.open(file, { role: "embedded", ...opts });

  it("the lock exists only while a turn runs; two stores of one file take turns and see each other's writes", async () => {
    const a = await embedded();
    const b = await embedded();
    expect(existsSync(lockPath(file))).toBe(false);
    const base = a.vehicles.get(1)!;
    const put = (s: Store) => () => {
      expect(readFileSync(lockPath(file), "utf8")).toBe(`${process.pid} embedded`);
      const id = s.allocate("vehicle");
      s.commit([{ op: "vehicle.put", row: { ...base, id } }]);
      return id;
    };
    const ids = [await a.turn(put(a)), await b.turn(put(b)), await a.turn(put(a)), await b.turn(put(b))];
    expect(new Set(ids).size).toBe(4);
    expect(existsSync(lockPath(file))).toBe(false);
    expect(await a.turn(() => a.vehicleCount(1001))).toBe(3 + 4);
    expect(() => a.commit([])).toThrow(/outside a turn/);

    // A reset between turns: the next turn loads the seed again.
    await resetSandboxData(file);
    expect(await b.turn(() => b.vehicleCount(1001))).toBe(3);
    await a.close();
    await b.close();
  });

  it("a live holder: the turn waits, bounded, then fails with exit 9 naming it, and so does every later request", async () => {
    const { sb, api } = await open({ embedded: true, lockTimeoutMs: 300 });
    expect((await api.get("vehicles/list", { user_id: 1001, locale_id: 40 })).status).toBe(200);
    writeFileSync(lockPath(file), `${process.ppid} embedded`); // another command's turn (a live process)
    const waited = Date.now();
    const r = await api.get("vehicles/list", { user_id: 1001, locale_id: 40 });
    expect(Date.now() - waited).toBeGreaterThanOrEqual(300);
    expect(r.status).toBe(503);
    const lost = sb.unavailable()!;
    expect(lost).toBeInstanceOf(BusyError);
    expect((lost as BusyError).exitCode).toBe(9);
    expect(lost.message).toContain(`another rentctl command (pid ${process.ppid}) uses it`);
    rmSync(lockPath(file));
    expect((await api.get("vehicles/list", { user_id: 1001, locale_id: 40 })).status).toBe(503);
    await sb.close();
  });

  it("a lock left by a dead process is taken over; one still being written is waited for", async () => {
    const a = await embedded({ lockTimeoutMs: 5_000 });
    writeFileSync(lockPath(file), "999999999 embedded");
    expect(await a.turn(() => a.vehicleCount(1001))).toBe(3);
    writeFileSync(lockPath(file), ""); // created, its holder not yet written
    setTimeout(() => rmSync(lockPath(file)), 100);
    const started = Date.now();
    expect(await a.turn(() => a.vehicleCount(1001))).toBe(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    await a.close();
  });

  it("a server holding the file: an embedded store fails at once, naming its pid and the address it wrote", async () => {
    const { sb } = await open(); // role serve
    writeFileSync(serverInfoPath(file), JSON.stringify({ url: sb.url, pid: process.pid }));
    const err = await embedded().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SandboxDataInUseError);
    expect((err as SandboxDataInUseError).address).toBe(sb.url);
    expect((err as Error).message).toContain(
      `in use by process ${process.pid} (a running \`rentctl sandbox serve\` at ${sb.url})`,
    );
    await sb.close();
  });
});
