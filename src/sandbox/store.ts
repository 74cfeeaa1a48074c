import { appendFileSync, readFileSync, truncateSync } from "node:fs";
import { mkdir, readdir, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { SandboxDataInUseError } from "./persistence/errors.js";
import { removeIfExists, removeStrayTemps } from "./persistence/files.js";
import { acquireLock, lockHolder, releaseLock } from "./persistence/lock.js";
import { parseSnapshot, writeSnapshot, writeSnapshotSync } from "./persistence/snapshot.js";
import { readWal, WriteAheadLog, walPath } from "./persistence/wal.js";
import { seedState } from "./seed.js";
import { type Mutation, type Snapshot, State } from "./state.js";

/**
 * The sandbox's state (state.ts) made durable by the files of persistence/.
 *
 * On disk, beside each other:
 * - `<dataFile>`          snapshot (persistence/snapshot.ts)
 * - `<dataFile>.journal`  append-only journal, one line per committed request (persistence/journal.ts)
 * - `<dataFile>.lock`     the pid of the process serving this file (persistence/lock.ts)
 *
 * A request appends one line (no fsync, no rewrite). When the journal grows
 * past a bound (as many bytes as the last snapshot and at least 1 MiB, or
 * `compactBytes` bytes or `walLimit` lines when given), and on close
 * (see `compactOnClose`), a new snapshot is written (in the background while
 * serving): rows are captured synchronously (rows are immutable: every
 * change puts a new row object), serialised in chunks to a temp file that is
 * fsynced and renamed over the snapshot, then the journal is rewritten to
 * hold only the lines committed meanwhile. Replay skips lines whose seq the
 * snapshot already holds, so a crash at any point loses at most the lines
 * not yet written, and a torn last journal line is ignored.
 */

export { SandboxDataCorruptError, SandboxDataInUseError } from "./persistence/errors.js";
export { lockPath } from "./persistence/lock.js";
export { SNAPSHOT_FORMAT, SNAPSHOT_VERSION } from "./persistence/snapshot.js";
export { walPath } from "./persistence/wal.js";
export type { Mutation } from "./state.js";

/** The journal is compacted once it holds this many bytes (or the snapshot's size, if larger). */
export const MIN_COMPACT_BYTES = 1024 * 1024;

export interface StoreOptions {
  /** Compact once the journal holds this many lines (tests); default: by size only. */
  walLimit?: number;
  /** Who holds the data file: a server (default) or a CLI command's embedded sandbox. */
  role?: "serve" | "embedded";
  /** Compact once the journal holds this many bytes; default: the snapshot's size, at least 1 MiB. */
  compactBytes?: number;
  /**
   * On close, fold any journal into the snapshot (a server's clean stop). Default: only when the
   * journal holds at least an eighth of the snapshot's bytes, so a short-lived embedded sandbox
   * does not rewrite a large snapshot after every command.
   */
  compactOnClose?: boolean;
  /** Called with background errors (a failed compaction); the store keeps working. */
  onError?: (err: unknown) => void;
  /** Called with things recovered on open (a torn last journal line dropped). */
  onWarning?: (message: string) => void;
}

export class Store extends State {
  private wal: WriteAheadLog | null = null;
  private walBytes = 0;
  private walLines = 0;
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
  ) {
    super();
  }

  /** Open (or create from the seed) the state in `dataFile`; `null` keeps it in memory only. */
  static async open(dataFile: string | null, opts: StoreOptions = {}): Promise<Store> {
    const store = new Store(dataFile, opts);
    if (dataFile === null) {
      store.load({ seq: 0, ...seedState() });
      return store;
    }
    await mkdir(dirname(dataFile), { recursive: true });
    acquireLock(dataFile, opts.role);
    try {
      removeStrayTemps(dataFile); // a crash mid-compaction leaves one; the lock says none is being written
      store.openFile(dataFile);
    } catch (err) {
      releaseLock(dataFile);
      throw err;
    }
    return store;
  }

  private openFile(dataFile: string): void {
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
      removeIfExists(walPath(dataFile));
      this.load(snap);
    } else {
      this.snapshotBytes = Buffer.byteLength(text);
      this.load(parseSnapshot(dataFile, text));
      const { entries, bytes, goodBytes, torn, missingNewline } = readWal(dataFile);
      this.walBytes = bytes;
      if (torn) {
        // A crash cut the last append short: that request was never answered. Cut it off the
        // file too, or the next append would glue onto it and damage the journal for good.
        truncateSync(walPath(dataFile), goodBytes);
        this.walBytes = goodBytes;
        this.opts.onWarning?.(
          `${walPath(dataFile)} line ${torn.line} was cut off by a crash mid-write (${torn.bytes} bytes, ${torn.summary}); ` +
            "dropped it: that request was never answered",
        );
      } else if (missingNewline) {
        appendFileSync(walPath(dataFile), "\n");
        this.walBytes++;
      }
      for (const entry of entries) {
        this.walLines++;
        if (entry.s <= this.seq) continue;
        for (const m of entry.m) this.apply(m);
        this.seq = entry.s;
      }
    }
    this.wal = new WriteAheadLog(dataFile);
  }

  // ------------------------------------------------------------ writes

  /** Apply one request's mutations and record them in the journal (one line). */
  commit(mutations: Mutation[]): void {
    if (this.closed) throw new Error("sandbox store is closed");
    if (mutations.length === 0) return;
    const seq = this.seq + 1;
    if (this.wal !== null) {
      const line = `${JSON.stringify({ s: seq, m: mutations })}\n`;
      this.wal.append(line);
      this.walBytes += Buffer.byteLength(line);
      this.walLines++;
      this.pending?.push(line);
    }
    this.seq = seq;
    for (const m of mutations) this.apply(m);
    if (this.wal !== null && !this.compaction && this.shouldCompact()) this.startCompaction();
  }

  private shouldCompact(): boolean {
    if (this.walLines < this.retryCompactionAt) return false;
    if (this.opts.walLimit !== undefined && this.walLines >= this.opts.walLimit) return true;
    const bound = this.opts.compactBytes ?? Math.max(MIN_COMPACT_BYTES, this.snapshotBytes);
    return this.walBytes >= bound;
  }

  // ------------------------------------------------------------ compaction

  /** Write a snapshot now (in the background) unless one is being written; resolves when done. */
  compact(): Promise<void> {
    if (this.wal === null) return Promise.resolve();
    if (!this.compaction) this.startCompaction();
    return this.compaction ?? Promise.resolve();
  }

  /** Resolves when no compaction is running. */
  async idle(): Promise<void> {
    while (this.compaction) await this.compaction;
  }

  private startCompaction(): void {
    const dataFile = this.dataFile as string;
    const snap = this.capture();
    this.pending = [];
    this.compaction = writeSnapshot(dataFile, snap)
      .then((bytes) => {
        this.snapshotBytes = bytes;
        const lines = this.pending ?? [];
        this.wal?.rewrite(lines);
        this.walBytes = lines.reduce((n, l) => n + Buffer.byteLength(l), 0);
        this.walLines = lines.length;
      })
      .catch((err) => {
        this.retryCompactionAt = this.walLines + Math.max(100, this.walLines);
        this.opts.onError?.(err);
      })
      .finally(() => {
        this.pending = null;
        this.compaction = null;
      });
  }

  /** Finish a running compaction, fold the journal into the snapshot, close it and release the data file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.idle();
    const worth = this.opts.compactOnClose === true || this.walBytes * 8 >= this.snapshotBytes;
    if (this.wal !== null && this.walLines > 0 && worth) {
      this.startCompaction();
      await this.idle();
    }
    this.wal?.close();
    this.wal = null;
    if (this.dataFile !== null) releaseLock(this.dataFile);
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
  removeIfExists(walPath(dataFile));
  const dir = dirname(dataFile);
  const base = basename(dataFile);
  for (const name of await readdir(dir)) {
    if (name.startsWith(`${base}.`) && name.endsWith(".tmp")) await unlink(join(dir, name)).catch(() => {});
  }
}
