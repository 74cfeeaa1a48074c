import { appendFileSync, readFileSync, statSync, truncateSync } from "node:fs";
import { mkdir, readdir, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { removeIfExists, removeStrayTemps } from "./persistence/files.js";
import { acquireLock, acquireLockAsync, type LockHolder, type LockWait, releaseLock } from "./persistence/lock.js";
import { parseSnapshot, writeSnapshot, writeSnapshotSync } from "./persistence/snapshot.js";
import { readWal, type ScannedWal, type WalEntry, WriteAheadLog, walPath } from "./persistence/wal.js";
import type { SandboxState } from "./rows.js";
import { seedState } from "./seed.js";
import { type Mutation, type Snapshot, State } from "./state.js";

/**
 * The sandbox's state (state.ts) made durable by the files of persistence/.
 *
 * On disk, beside each other:
 * - `<dataFile>`          snapshot (persistence/snapshot.ts)
 * - `<dataFile>.journal`  append-only journal, one line per committed request (persistence/journal.ts)
 * - `<dataFile>.lock`     who holds this file: pid and role (persistence/lock.ts)
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
 *
 * A server (role `serve`) holds the file from open to close. An embedded
 * sandbox (role `embedded`, a CLI command's own) holds it only for a turn:
 * each request takes the lock, first reads what other processes wrote since
 * this one last held it (the journal's new lines, or everything when another
 * process compacted or reset it), answers, appends its line, finishes any
 * compaction it started, and lets go. Between requests nothing is held, so
 * any number of commands share the file, each seeing every write answered
 * before its request.
 */

export { SandboxDataCorruptError, SandboxDataInUseError } from "./persistence/errors.js";
export { lockPath } from "./persistence/lock.js";
export { SNAPSHOT_FORMAT, SNAPSHOT_VERSION } from "./persistence/snapshot.js";
export { walPath } from "./persistence/wal.js";
export type { Mutation } from "./state.js";

/** The journal is compacted once it holds this many bytes (or the snapshot's size, if larger). */
export const MIN_COMPACT_BYTES = 1024 * 1024;

export interface StoreOptions {
  /** In memory only: the state to start from (default the demo seed). */
  seed?: () => SandboxState;
  /** Compact once the journal holds this many lines (tests); default: by size only. */
  walLimit?: number;
  /**
   * Who holds the data file: a server (default), from open to close; or a CLI command's embedded
   * sandbox, only for each turn (see `Store.turn`).
   */
  role?: "serve" | "embedded";
  /** Compact once the journal holds this many bytes; default: the snapshot's size, at least 1 MiB. */
  compactBytes?: number;
  /**
   * On close, fold any journal into the snapshot (a server's clean stop). Default: only when the
   * journal holds at least an eighth of the snapshot's bytes, so a short-lived embedded sandbox
   * does not rewrite a large snapshot after every command.
   */
  compactOnClose?: boolean;
  /** Bound on each wait for the data file held by another process (default RENTCTL_LOCK_TIMEOUT seconds, else 60 s). */
  lockTimeoutMs?: number;
  /** Called once when a wait for the data file has lasted a second, with who holds it. */
  onLockWait?: (holder: LockHolder) => void;
  /** Called with background errors (a failed compaction); the store keeps working. */
  onError?: (err: unknown) => void;
  /** Called with things recovered on open (a torn last journal line dropped). */
  onWarning?: (message: string) => void;
}

/** What the data file and its journal looked like: another process's change shows as a difference. */
interface FileMark {
  snapshot: string;
  journalIno: number;
  journalBytes: number;
}

function fileMark(dataFile: string): FileMark {
  const s = statSync(dataFile, { throwIfNoEntry: false });
  const j = statSync(walPath(dataFile), { throwIfNoEntry: false });
  return {
    snapshot: s ? `${s.ino}:${s.size}:${s.mtimeMs}` : "",
    journalIno: j ? j.ino : -1,
    journalBytes: j ? j.size : 0,
  };
}

interface Turn {
  fn: () => unknown;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
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
  /** Embedded on a data file: the file is held only for a turn. */
  private readonly byTurns: boolean;
  private holding = false;
  /** The files as this process left them when it last let go. */
  private seen: FileMark | null = null;
  private readonly turns: Turn[] = [];
  private draining = false;
  private lost: Error | undefined;

  private constructor(
    readonly dataFile: string | null,
    private readonly opts: StoreOptions,
  ) {
    super();
    this.byTurns = opts.role === "embedded" && dataFile !== null;
  }

  /** In memory only: start over from a state (`createSandbox().reset()`). */
  resetInMemory(state: SandboxState): void {
    if (this.dataFile !== null) throw new Error("sandbox: only an in-memory state is reset in place");
    this.clear();
    this.load({ seq: 0, ...state });
  }

  /** Open (or create from the seed) the state in `dataFile`; `null` keeps it in memory only. */
  static async open(dataFile: string | null, opts: StoreOptions = {}): Promise<Store> {
    const store = new Store(dataFile, opts);
    if (dataFile === null) {
      store.load({ seq: 0, ...(opts.seed ?? seedState)() });
      return store;
    }
    await mkdir(dirname(dataFile), { recursive: true, mode: 0o700 });
    await acquireLockAsync(dataFile, opts.role ?? "serve", store.lockWait());
    try {
      removeStrayTemps(dataFile); // a crash mid-compaction leaves one; the lock says none is being written
      store.openFile(dataFile);
    } catch (err) {
      releaseLock(dataFile);
      throw err;
    }
    if (store.byTurns) store.letGo();
    return store;
  }

  private lockWait(): LockWait {
    return { timeoutMs: this.opts.lockTimeoutMs, onWait: this.opts.onLockWait };
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
      this.replay(this.mendTail(dataFile, readWal(dataFile)));
    }
    this.wal = new WriteAheadLog(dataFile);
  }

  /**
   * Cut a torn last line (a crash mid-append: that request was never answered) off the journal,
   * or the next append would glue onto it and damage the journal for good; end a last line that
   * lacks its newline. Returns the entries read.
   */
  private mendTail(dataFile: string, read: ScannedWal): WalEntry[] {
    const { entries, bytes, goodBytes, torn, missingNewline } = read;
    this.walBytes = bytes;
    if (torn) {
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
    return entries;
  }

  /** Apply journal entries the state does not hold yet. */
  private replay(entries: readonly WalEntry[]): void {
    for (const entry of entries) {
      this.walLines++;
      if (entry.s <= this.seq) continue;
      for (const m of entry.m) this.apply(m);
      this.seq = entry.s;
    }
  }

  // ------------------------------------------------------------ turns (embedded)

  /**
   * Run `fn` (one request: its reads and at most one commit) on the current state. An embedded
   * store first takes the data file (waiting, bounded, for another process's turn) and reads what
   * other processes wrote since it last held it; a compaction the request starts ends before the
   * file is let go, and the turn settles after that. One process's turns run one after another
   * (requests come concurrently); those queued while it waited for the file run in one hold.
   * When the file cannot be had (a server holds it for good, the wait ran out, it became
   * unreadable), this turn and every later one fail with that error: see `unavailable`.
   */
  turn<T>(fn: () => T): Promise<T> {
    if (!this.byTurns) {
      try {
        return Promise.resolve(fn());
      } catch (err) {
        return Promise.reject(err);
      }
    }
    if (this.lost) return Promise.reject(this.lost);
    if (this.closed) return Promise.reject(new Error("sandbox store is closed"));
    return new Promise<T>((resolve, reject) => {
      this.turns.push({ fn, resolve: resolve as (v: unknown) => void, reject });
      if (!this.draining) void this.drain();
    });
  }

  /** Why this embedded store can no longer take a turn (it failed every request since). */
  get unavailable(): Error | undefined {
    return this.lost;
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.turns.length > 0) {
        try {
          await this.hold();
        } catch (err) {
          this.lost = err instanceof Error ? err : new Error(String(err));
          for (const t of this.turns.splice(0)) t.reject(this.lost);
          return;
        }
        const batch = this.turns.splice(0);
        const settle: Array<() => void> = [];
        try {
          for (const t of batch) {
            try {
              const value = t.fn();
              settle.push(() => t.resolve(value));
            } catch (err) {
              settle.push(() => t.reject(err));
            }
          }
          await this.idle();
        } finally {
          this.letGo();
          for (const s of settle) s();
        }
      }
    } finally {
      this.draining = false;
    }
  }

  /** Take the data file and catch up with what other processes wrote meanwhile. */
  private async hold(): Promise<void> {
    const dataFile = this.dataFile as string;
    await acquireLockAsync(dataFile, "embedded", this.lockWait());
    this.holding = true;
    try {
      this.catchUp(dataFile);
    } catch (err) {
      this.letGo();
      throw err;
    }
  }

  private letGo(): void {
    const dataFile = this.dataFile as string;
    this.holding = false;
    try {
      this.seen = fileMark(dataFile);
    } catch {
      this.seen = null; // cannot tell: the next turn loads it all again
    }
    releaseLock(dataFile);
  }

  /**
   * Another process appended to the journal: replay its new lines. It compacted, reset or
   * repaired the file (a new snapshot or journal), or cut the journal: load it all again.
   */
  private catchUp(dataFile: string): void {
    const now = fileMark(dataFile);
    const seen = this.seen;
    if (seen && now.snapshot === seen.snapshot && now.journalIno === seen.journalIno) {
      if (now.journalBytes === this.walBytes) return;
      if (now.journalBytes > this.walBytes) {
        this.replay(this.mendTail(dataFile, readWal(dataFile, this.walBytes, this.walLines + 1)));
        return;
      }
    }
    this.wal?.close();
    this.wal = null;
    this.clear();
    this.walBytes = 0;
    this.walLines = 0;
    this.retryCompactionAt = 0;
    this.openFile(dataFile);
  }

  // ------------------------------------------------------------ writes

  /** Apply one request's mutations and record them in the journal (one line). */
  commit(mutations: Mutation[]): void {
    if (this.closed) throw new Error("sandbox store is closed");
    if (this.byTurns && !this.holding) throw new Error("sandbox store: a change outside a turn");
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
    if (this.byTurns) await this.foldOnClose();
    else if (this.wal !== null && this.walLines > 0 && this.worthFolding()) {
      this.startCompaction();
      await this.idle();
    }
    this.wal?.close();
    this.wal = null;
    if (this.dataFile !== null && !this.byTurns) releaseLock(this.dataFile);
  }

  private worthFolding(): boolean {
    return this.opts.compactOnClose === true || this.walBytes * 8 >= this.snapshotBytes;
  }

  /**
   * An embedded store folds the journal on close in a turn of its own, from the current state
   * (never from a stale one: that would drop other processes' writes). One try: a file another
   * process holds is left for a later command to fold.
   */
  private async foldOnClose(): Promise<void> {
    const dataFile = this.dataFile as string;
    if (this.lost || this.wal === null) return;
    try {
      acquireLock(dataFile, "embedded", { timeoutMs: 0 });
    } catch {
      return;
    }
    this.holding = true;
    try {
      this.catchUp(dataFile);
      if (this.walLines > 0 && this.worthFolding()) {
        this.startCompaction();
        await this.idle();
      }
    } catch (err) {
      this.opts.onError?.(err);
    } finally {
      this.letGo();
    }
  }
}

/**
 * Put `dataFile` back to the seed: a fresh snapshot, no journal, no stray
 * temp files. Refused while a server holds the file; waits for a command's
 * turn (embedded sandboxes load it again on their next request).
 */
export async function resetData(dataFile: string): Promise<void> {
  await mkdir(dirname(dataFile), { recursive: true, mode: 0o700 });
  await acquireLockAsync(dataFile, "serve");
  try {
    writeSnapshotSync(dataFile, { seq: 0, ...seedState() });
    removeIfExists(walPath(dataFile));
    const dir = dirname(dataFile);
    const base = basename(dataFile);
    for (const name of await readdir(dir)) {
      if (name.startsWith(`${base}.`) && name.endsWith(".tmp")) await unlink(join(dir, name)).catch(() => {});
    }
  } finally {
    releaseLock(dataFile);
  }
}
