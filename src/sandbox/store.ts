import {
  closeSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { mkdir, open, readdir, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { ExtraRow, ImageRow, SandboxState, VehicleRow } from "./rows.js";
import { seedState } from "./seed.js";

/**
 * Sandbox state and its persistence.
 *
 * On disk, beside each other:
 * - `<dataFile>`          snapshot: one JSON document
 *                         `{"format":"rentctl-sandbox","version":1,"seq":N,"next":{...},"vehicles":[...],"extras":[...],"images":[...]}`
 * - `<dataFile>.journal`  append-only journal, one JSON line per committed request:
 *                         `{"s":<seq>,"m":[<mutation>, ...]}`; a mutation is a whole-row put or a delete.
 * - `<dataFile>.lock`     the pid of the process serving this file (one server per file).
 *
 * A request appends one line (no fsync, no rewrite). When the journal grows
 * past a bound (as many bytes as the last snapshot, at least 4 MiB, or
 * `journalLimit` lines when given), a new snapshot is written in the
 * background: rows are captured synchronously (rows are immutable: every
 * change puts a new row object), serialised in chunks to a temp file that is
 * fsynced and renamed over the snapshot, then the journal is rewritten to
 * hold only the lines committed meanwhile. Replay skips lines whose seq the
 * snapshot already holds, so a crash at any point loses at most the lines
 * not yet written, and a torn last journal line is ignored.
 */

export const SNAPSHOT_FORMAT = "rentctl-sandbox";
export const SNAPSHOT_VERSION = 1;
const MIN_COMPACT_BYTES = 4 * 1024 * 1024;
const CHUNK_ROWS = 500;

export type Mutation =
  | { op: "vehicle.put"; row: VehicleRow }
  | { op: "vehicle.del"; id: number }
  | { op: "extra.put"; row: ExtraRow }
  | { op: "extra.del"; id: number }
  | { op: "image.put"; row: ImageRow };

export interface StoreOptions {
  /** Compact once the journal holds this many lines (tests); default: by size only. */
  journalLimit?: number;
  /** Called with background errors (a failed compaction); the store keeps working. */
  onError?: (err: unknown) => void;
}

/** Another live process (or another sandbox in this process) serves this data file. */
export class SandboxDataInUseError extends Error {
  readonly code = "ESANDBOXBUSY";
  constructor(
    readonly dataFile: string,
    readonly pid: number,
  ) {
    super(`sandbox data file ${dataFile} is in use by process ${pid}; stop that sandbox first`);
    this.name = "SandboxDataInUseError";
  }
}

/** The data file (snapshot or journal) cannot be read back. */
export class SandboxDataCorruptError extends Error {
  readonly code = "ESANDBOXCORRUPT";
  constructor(
    readonly dataFile: string,
    detail: string,
  ) {
    super(`sandbox data file ${dataFile} is unreadable (${detail}); reset it to start over from the seed`);
    this.name = "SandboxDataCorruptError";
  }
}

export const journalPath = (dataFile: string): string => `${dataFile}.journal`;
export const lockPath = (dataFile: string): string => `${dataFile}.lock`;

/** Ids of one owner's rows, ascending, for O(1) counts and O(page) slices. */
class OwnerIndex {
  private readonly byOwner = new Map<number, number[]>();

  add(owner: number, id: number): void {
    let ids = this.byOwner.get(owner);
    if (!ids) {
      ids = [];
      this.byOwner.set(owner, ids);
    }
    const last = ids[ids.length - 1];
    if (last === undefined || last < id) {
      ids.push(id);
      return;
    }
    const at = lowerBound(ids, id);
    if (ids[at] !== id) ids.splice(at, 0, id);
  }

  remove(owner: number, id: number): void {
    const ids = this.byOwner.get(owner);
    if (!ids) return;
    const at = lowerBound(ids, id);
    if (ids[at] === id) ids.splice(at, 1);
  }

  count(owner: number): number {
    return this.byOwner.get(owner)?.length ?? 0;
  }

  slice(owner: number, offset: number, limit: number): number[] {
    return this.byOwner.get(owner)?.slice(offset, offset + limit) ?? [];
  }

  all(owner: number): readonly number[] {
    return this.byOwner.get(owner) ?? [];
  }
}

function lowerBound(a: readonly number[], x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((a[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

interface Snapshot {
  seq: number;
  next: SandboxState["next"];
  vehicles: readonly VehicleRow[];
  extras: readonly ExtraRow[];
  images: readonly ImageRow[];
}

export class Store {
  readonly vehicles = new Map<number, VehicleRow>();
  readonly extras = new Map<number, ExtraRow>();
  readonly images = new Map<number, ImageRow>();
  private readonly vehicleIndex = new OwnerIndex();
  private readonly extraIndex = new OwnerIndex();
  private next: SandboxState["next"] = { vehicle: 1, extra: 1, image: 1 };
  private seq = 0;

  private journalFd: number | null = null;
  private journalBytes = 0;
  private journalLines = 0;
  private snapshotBytes = 0;
  private compaction: Promise<void> | null = null;
  /** Lines committed while a compaction runs; they form the journal after it. */
  private pending: string[] | null = null;
  private closed = false;
  /** After a failed compaction, no new attempt before the journal has this many lines. */
  private retryCompactionAt = 0;

  private constructor(
    readonly dataFile: string | null,
    private readonly opts: StoreOptions,
  ) {}

  /** Open (or create from the seed) the state in `dataFile`; `null` keeps it in memory only. */
  static async open(dataFile: string | null, opts: StoreOptions = {}): Promise<Store> {
    const store = new Store(dataFile, opts);
    if (dataFile === null) {
      store.load({ seq: 0, ...seedState() });
      return store;
    }
    await mkdir(dirname(dataFile), { recursive: true });
    acquireLock(dataFile);
    try {
      store.openFile(dataFile);
    } catch (err) {
      releaseLock(dataFile);
      throw err;
    }
    return store;
  }

  private openFile(dataFile: string): void {
    const jpath = journalPath(dataFile);
    let text: string | null = null;
    try {
      text = readFileSync(dataFile, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
    if (text === null) {
      // No snapshot: start from the seed. A journal without its snapshot is meaningless; drop it.
      const snap: Snapshot = { seq: 0, ...seedState() };
      this.snapshotBytes = writeSnapshotSync(dataFile, snap);
      removeIfExists(jpath);
      this.load(snap);
    } else {
      this.snapshotBytes = Buffer.byteLength(text);
      this.load(parseSnapshot(dataFile, text));
      this.replayJournal(dataFile, jpath);
    }
    this.journalFd = openSync(jpath, "a");
  }

  private load(snap: Snapshot): void {
    this.seq = snap.seq;
    this.next = { ...snap.next };
    for (const row of snap.vehicles) this.putVehicle(row);
    for (const row of snap.extras) this.putExtra(row);
    for (const row of snap.images) this.putImage(row);
  }

  private replayJournal(dataFile: string, jpath: string): void {
    let text: string;
    try {
      text = readFileSync(jpath, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
      throw err;
    }
    this.journalBytes = Buffer.byteLength(text);
    const lines = text.split("\n");
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as string;
      if (line.trim() === "") continue;
      let entry: { s: number; m: Mutation[] };
      try {
        entry = JSON.parse(line);
        if (typeof entry.s !== "number" || !Array.isArray(entry.m)) throw new Error("bad entry");
      } catch {
        // A torn last line (crash mid-append) is dropped; anything else is corruption.
        if (lines.slice(i + 1).every((l) => l.trim() === "")) break;
        throw new SandboxDataCorruptError(dataFile, `journal line ${i + 1} is not valid`);
      }
      this.journalLines++;
      if (entry.s <= this.seq) continue;
      for (const m of entry.m) this.apply(m);
      this.seq = entry.s;
    }
  }

  // ------------------------------------------------------------ reads

  vehicleCount(owner: number): number {
    return this.vehicleIndex.count(owner);
  }

  vehiclePage(owner: number, offset: number, limit: number): VehicleRow[] {
    return this.vehicleIndex.slice(owner, offset, limit).map((id) => this.vehicles.get(id) as VehicleRow);
  }

  ownerVehicles(owner: number): VehicleRow[] {
    return this.vehicleIndex.all(owner).map((id) => this.vehicles.get(id) as VehicleRow);
  }

  extraCount(owner: number): number {
    return this.extraIndex.count(owner);
  }

  extraPage(owner: number, offset: number, limit: number): ExtraRow[] {
    return this.extraIndex.slice(owner, offset, limit).map((id) => this.extras.get(id) as ExtraRow);
  }

  /** A fresh id; ids are never reused, even after a delete and a restart. */
  allocate(kind: keyof SandboxState["next"]): number {
    const id = this.next[kind];
    this.next[kind] = id + 1;
    return id;
  }

  // ------------------------------------------------------------ writes

  /** Apply one request's mutations and record them in the journal (one line). */
  commit(mutations: Mutation[]): void {
    if (this.closed) throw new Error("sandbox store is closed");
    if (mutations.length === 0) return;
    const seq = this.seq + 1;
    if (this.journalFd !== null) {
      const line = `${JSON.stringify({ s: seq, m: mutations })}\n`;
      writeSync(this.journalFd, line);
      this.journalBytes += Buffer.byteLength(line);
      this.journalLines++;
      this.pending?.push(line);
    }
    this.seq = seq;
    for (const m of mutations) this.apply(m);
    if (this.journalFd !== null && !this.compaction && this.shouldCompact()) this.startCompaction();
  }

  private shouldCompact(): boolean {
    if (this.journalLines < this.retryCompactionAt) return false;
    if (this.opts.journalLimit !== undefined && this.journalLines >= this.opts.journalLimit) return true;
    return this.journalBytes >= Math.max(MIN_COMPACT_BYTES, this.snapshotBytes);
  }

  private apply(m: Mutation): void {
    switch (m.op) {
      case "vehicle.put":
        this.putVehicle(m.row);
        break;
      case "vehicle.del": {
        const row = this.vehicles.get(m.id);
        if (row) {
          this.vehicles.delete(m.id);
          this.vehicleIndex.remove(row.owner, m.id);
        }
        break;
      }
      case "extra.put":
        this.putExtra(m.row);
        break;
      case "extra.del": {
        const row = this.extras.get(m.id);
        if (row) {
          this.extras.delete(m.id);
          this.extraIndex.remove(row.owner, m.id);
        }
        break;
      }
      case "image.put":
        this.putImage(m.row);
        break;
    }
  }

  private putVehicle(row: VehicleRow): void {
    this.vehicles.set(row.id, row);
    this.vehicleIndex.add(row.owner, row.id);
    if (row.id >= this.next.vehicle) this.next.vehicle = row.id + 1;
  }

  private putExtra(row: ExtraRow): void {
    this.extras.set(row.id, row);
    this.extraIndex.add(row.owner, row.id);
    if (row.id >= this.next.extra) this.next.extra = row.id + 1;
  }

  private putImage(row: ImageRow): void {
    this.images.set(row.id, row);
    if (row.id >= this.next.image) this.next.image = row.id + 1;
  }

  // ------------------------------------------------------------ compaction

  /** Write a snapshot now (in the background) unless one is being written; resolves when done. */
  compact(): Promise<void> {
    if (this.journalFd === null) return Promise.resolve();
    if (!this.compaction) this.startCompaction();
    return this.compaction ?? Promise.resolve();
  }

  /** Resolves when no compaction is running. */
  async idle(): Promise<void> {
    while (this.compaction) await this.compaction;
  }

  private startCompaction(): void {
    const dataFile = this.dataFile as string;
    const snap: Snapshot = {
      seq: this.seq,
      next: { ...this.next },
      vehicles: [...this.vehicles.values()],
      extras: [...this.extras.values()],
      images: [...this.images.values()],
    };
    this.pending = [];
    this.compaction = writeSnapshot(dataFile, snap)
      .then((bytes) => {
        this.snapshotBytes = bytes;
        this.rewriteJournal(dataFile, this.pending ?? []);
      })
      .catch((err) => {
        this.retryCompactionAt = this.journalLines + Math.max(100, this.journalLines);
        this.opts.onError?.(err);
      })
      .finally(() => {
        this.pending = null;
        this.compaction = null;
      });
  }

  /** Replace the journal by `lines` (synchronous, so no append can interleave). */
  private rewriteJournal(dataFile: string, lines: string[]): void {
    const jpath = journalPath(dataFile);
    const text = lines.join("");
    const tmp = tempPath(jpath);
    writeFileDurable(tmp, text);
    if (this.journalFd !== null) closeSync(this.journalFd);
    this.journalFd = null;
    renameSync(tmp, jpath);
    this.journalFd = openSync(jpath, "a");
    this.journalBytes = Buffer.byteLength(text);
    this.journalLines = lines.length;
  }

  /** Finish a running compaction, close the journal and release the data file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.idle();
    if (this.journalFd !== null) {
      closeSync(this.journalFd);
      this.journalFd = null;
    }
    if (this.dataFile !== null) releaseLock(this.dataFile);
  }
}

// ---------------------------------------------------------------- files

let tempCounter = 0;
function tempPath(file: string): string {
  return `${file}.${process.pid}.${Date.now().toString(36)}${(tempCounter++).toString(36)}.tmp`;
}

function removeIfExists(file: string): void {
  try {
    unlinkSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
}

function writeFileDurable(file: string, text: string): void {
  const fd = openSync(file, "w");
  try {
    writeFileSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function snapshotHead(snap: Snapshot): string {
  return `{"format":${JSON.stringify(SNAPSHOT_FORMAT)},"version":${SNAPSHOT_VERSION},"seq":${snap.seq},"next":${JSON.stringify(snap.next)}`;
}

/** Synchronous atomic snapshot write (small states: the seed, a reset). Returns the byte size. */
function writeSnapshotSync(dataFile: string, snap: Snapshot): number {
  const parts = [snapshotHead(snap)];
  for (const [name, rows] of [
    ["vehicles", snap.vehicles],
    ["extras", snap.extras],
    ["images", snap.images],
  ] as const) {
    parts.push(`,\n${JSON.stringify(name)}:[`, rows.map((r) => `\n${JSON.stringify(r)}`).join(","), "\n]");
  }
  parts.push("}\n");
  const text = parts.join("");
  const tmp = tempPath(dataFile);
  writeFileDurable(tmp, text);
  renameSync(tmp, dataFile);
  return Buffer.byteLength(text);
}

/**
 * Asynchronous atomic snapshot write, serialising CHUNK_ROWS rows at a time
 * so a large state never blocks requests for long. Returns the byte size.
 */
async function writeSnapshot(dataFile: string, snap: Snapshot): Promise<number> {
  const tmp = tempPath(dataFile);
  const fh = await open(tmp, "w");
  let bytes = 0;
  const write = async (s: string): Promise<void> => {
    const buf = Buffer.from(s);
    bytes += buf.length;
    await fh.write(buf);
  };
  try {
    await write(snapshotHead(snap));
    for (const [name, rows] of [
      ["vehicles", snap.vehicles],
      ["extras", snap.extras],
      ["images", snap.images],
    ] as const) {
      await write(`,\n${JSON.stringify(name)}:[`);
      for (let i = 0; i < rows.length; i += CHUNK_ROWS) {
        const chunk = rows.slice(i, i + CHUNK_ROWS).map((r) => `\n${JSON.stringify(r)}`);
        await write((i === 0 ? "" : ",") + chunk.join(","));
      }
      await write("\n]");
    }
    await write("}\n");
    await fh.sync();
  } catch (err) {
    await fh.close().catch(() => {});
    await unlink(tmp).catch(() => {});
    throw err;
  }
  await fh.close();
  await rename(tmp, dataFile);
  return bytes;
}

function parseSnapshot(dataFile: string, text: string): Snapshot {
  let doc: Record<string, unknown>;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new SandboxDataCorruptError(dataFile, `not JSON: ${(err as Error).message}`);
  }
  if (doc?.format !== SNAPSHOT_FORMAT) throw new SandboxDataCorruptError(dataFile, "not a rentctl sandbox file");
  if (doc.version !== SNAPSHOT_VERSION) throw new SandboxDataCorruptError(dataFile, `unknown version ${doc.version}`);
  const next = doc.next as SandboxState["next"] | undefined;
  if (
    typeof doc.seq !== "number" ||
    !next ||
    !Array.isArray(doc.vehicles) ||
    !Array.isArray(doc.extras) ||
    !Array.isArray(doc.images)
  ) {
    throw new SandboxDataCorruptError(dataFile, "members missing");
  }
  return {
    seq: doc.seq,
    next,
    vehicles: doc.vehicles as VehicleRow[],
    extras: doc.extras as ExtraRow[],
    images: doc.images as ImageRow[],
  };
}

// ---------------------------------------------------------------- lock

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The live pid holding `dataFile`, if any (a lock left by a dead process does not count). */
function lockHolder(dataFile: string): number | null {
  let text: string;
  try {
    text = readFileSync(lockPath(dataFile), "utf8");
  } catch {
    return null;
  }
  const pid = Number(text.trim());
  if (!Number.isSafeInteger(pid) || pid <= 0) return null;
  if (pid === process.pid) return heldHere.has(dataFile) ? pid : null;
  return pidAlive(pid) ? pid : null;
}

const heldHere = new Set<string>();

function acquireLock(dataFile: string): void {
  const lock = lockPath(dataFile);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lock, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      heldHere.add(dataFile);
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const holder = lockHolder(dataFile);
      if (holder !== null) throw new SandboxDataInUseError(dataFile, holder);
      removeIfExists(lock); // stale: its process is gone
    }
  }
  throw new SandboxDataInUseError(dataFile, Number(readFileSync(lock, "utf8").trim()) || 0);
}

function releaseLock(dataFile: string): void {
  if (!heldHere.delete(dataFile)) return;
  try {
    if (readFileSync(lockPath(dataFile), "utf8").trim() === String(process.pid)) unlinkSync(lockPath(dataFile));
  } catch {
    // already gone
  }
}

/**
 * Put `dataFile` back to the seed: a fresh snapshot, no journal, no stray
 * temp files. Refuses while a sandbox serves the file.
 */
export async function resetData(dataFile: string): Promise<void> {
  await mkdir(dirname(dataFile), { recursive: true });
  const holder = lockHolder(dataFile);
  if (holder !== null) throw new SandboxDataInUseError(dataFile, holder);
  writeSnapshotSync(dataFile, { seq: 0, ...seedState() });
  removeIfExists(journalPath(dataFile));
  const dir = dirname(dataFile);
  const base = basename(dataFile);
  for (const name of await readdir(dir)) {
    if (name.startsWith(`${base}.`) && name.endsWith(".tmp")) await unlink(join(dir, name)).catch(() => {});
  }
}
