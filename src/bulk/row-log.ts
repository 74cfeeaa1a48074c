import { createHash } from "node:crypto";
import type { FileHandle } from "node:fs/promises";
import { mkdir, open, readFile, unlink } from "node:fs/promises";
import { join } from "node:path";

/**
 * The bulk journal: one append-only, fsync'd JSON-lines file per job in
 * `<data dir>/bulk/`, named by a hash of the job's key (kind of job,
 * environment, base address, owner, content hash of the input). Each row is
 * written `sending` just before its unsafe request and `done` / `failed` /
 * `unknown` after it, so a rerun of the same job knows which rows are done and
 * which were in flight when the process died (those are reconciled, never
 * blindly sent again).
 *
 * Writes are group-committed: rows written together share one `fdatasync`,
 * and a write's promise resolves only after its line is on disk. Outcome
 * notes (`note`) ride along with the next group and never ask for an
 * `fdatasync` of their own.
 */

/** Outcome notes are written when this many wait, or after NOTE_DELAY_MS, or with the next durable write. */
const NOTE_BATCH = 64;
const NOTE_DELAY_MS = 25;

export type RowState = "sending" | "done" | "failed" | "unknown";

export interface RowRecord {
  row: number;
  key: string;
  state: RowState;
  /** The outcome's status (created, changed, ...) for `done`. */
  status?: string;
  id?: number;
  error?: string;
  /** `unknown` only: the server did answer (a 5xx), so nothing of it is still on its way. */
  answered?: boolean;
  /** When the line was written (ms since the epoch). */
  at?: number;
}

export interface RowLogKey {
  /** The job kind, e.g. `vehicle.import`. */
  job: string;
  env: string;
  baseUrl: string;
  owner?: number;
  /** A hash of the input's content (see hashFile). */
  contentHash: string;
}

export class RowLog {
  readonly file: string;
  /** The rows' last states from earlier runs of the same job. */
  readonly previous: ReadonlyMap<number, RowRecord>;
  #fh: FileHandle;
  /** Lines to write; a durable one carries the promise its writer awaits (a note has none). */
  #queue: Array<{ line: string; durable?: { resolve: () => void; reject: (e: unknown) => void } }> = [];
  #flushing: Promise<void> | undefined;

  private constructor(file: string, fh: FileHandle, previous: Map<number, RowRecord>) {
    this.file = file;
    this.#fh = fh;
    this.previous = previous;
  }

  /** True when an earlier run of this job left rows behind. */
  get resumed(): boolean {
    return this.previous.size > 0;
  }

  /** Rows an earlier run left with a request in flight or an unknown outcome. */
  inFlight(): RowRecord[] {
    return [...this.previous.values()].filter((r) => r.state === "sending" || r.state === "unknown");
  }

  static fileFor(dataDir: string, key: RowLogKey): string {
    const id = createHash("sha256").update(JSON.stringify(key)).digest("hex").slice(0, 32);
    return join(dataDir, "bulk", `${key.job.replace(/[^a-z0-9.-]/gi, "_")}-${id}.jsonl`);
  }

  /** Open (or create) the journal of a job; `restart` sets an earlier run's journal aside. */
  static async open(dataDir: string, key: RowLogKey, opts: { restart?: boolean } = {}): Promise<RowLog> {
    const file = RowLog.fileFor(dataDir, key);
    await mkdir(join(dataDir, "bulk"), { recursive: true, mode: 0o700 });
    const previous = new Map<number, RowRecord>();
    if (opts.restart) {
      await unlink(file).catch(() => {});
    } else {
      const text = await readFile(file, "utf8").catch(() => "");
      for (const line of text.split("\n")) {
        if (!line.trim()) continue;
        try {
          const r = JSON.parse(line) as RowRecord | { journal: number };
          if ("row" in r) previous.set(r.row, r);
        } catch {
          // a torn last line (killed mid-write): its row is treated as not journaled
        }
      }
    }
    const fh = await open(file, "a", 0o600);
    const j = new RowLog(file, fh, previous);
    if (previous.size === 0)
      await j.#durable(JSON.stringify({ journal: 1, ...key, started: new Date().toISOString() }));
    return j;
  }

  /** Append one row state; resolves once it is on disk. */
  write(rec: RowRecord): Promise<void> {
    return this.#durable(lineOf(rec));
  }

  #durable(line: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({ line, durable: { resolve, reject } });
      this.#startFlush();
    });
  }

  /**
   * Append without waiting for the disk: for outcomes (`done`), whose loss in
   * a crash only means the row is reconciled on the rerun. The line is
   * written at once and reaches the disk with the next durable group (or at
   * close); a failure surfaces at close().
   */
  note(rec: RowRecord): void {
    this.#queue.push({ line: lineOf(rec) });
    if (this.#queue.length >= NOTE_BATCH) this.#startFlush();
    // notes alone wait a little for company: one write for many rows
    else this.#noteTimer ??= setTimeout(() => this.#startFlush(), NOTE_DELAY_MS);
  }

  /** A failed write of notes (no one awaits them): reported by close(). */
  #error: unknown;

  #noteTimer: ReturnType<typeof setTimeout> | undefined;

  #startFlush(): void {
    if (this.#noteTimer) clearTimeout(this.#noteTimer);
    this.#noteTimer = undefined;
    // Never with an empty queue: #flush would then finish before this
    // assignment and leave #flushing set for good (no later write would flush).
    if (!this.#flushing && this.#queue.length) this.#flushing = this.#flush();
  }

  async #flush(): Promise<void> {
    while (this.#queue.length) {
      const batch = this.#queue.splice(0);
      let text = "";
      let durable = false;
      for (const b of batch) {
        text += `${b.line}\n`;
        if (b.durable) durable = true;
      }
      try {
        await this.#fh.write(text);
        if (durable) await this.#fh.datasync();
        for (const b of batch) b.durable?.resolve();
      } catch (e) {
        for (const b of batch) {
          if (b.durable) b.durable.reject(e);
          else this.#error ??= e;
        }
      }
    }
    this.#flushing = undefined;
  }

  async close(): Promise<void> {
    if (this.#queue.length) this.#startFlush();
    while (this.#flushing) await this.#flushing;
    await this.#fh.datasync().catch((e: unknown) => {
      this.#error ??= e;
    });
    await this.#fh.close();
    if (this.#error) throw this.#error;
  }

  /** The job is complete: remove the journal so a later run starts afresh. */
  async finish(): Promise<void> {
    await this.close();
    await unlink(this.file).catch(() => {});
  }
}

/**
 * A row state as its journal line: the record's fields in a fixed order, and
 * when it was written. Written out by hand (JSON.stringify of a new object per
 * line showed in bulk profiles); strings go through JSON.stringify.
 */
export function lineOf(rec: RowRecord, at: number = Date.now()): string {
  let line = `{"row":${rec.row},"key":${JSON.stringify(rec.key)},"state":${JSON.stringify(rec.state)}`;
  if (rec.status !== undefined) line += `,"status":${JSON.stringify(rec.status)}`;
  if (rec.id !== undefined) line += `,"id":${JSON.stringify(rec.id)}`;
  if (rec.error !== undefined) line += `,"error":${JSON.stringify(rec.error)}`;
  if (rec.answered !== undefined) line += `,"answered":${rec.answered}`;
  return `${line},"at":${at}}`;
}

/**
 * sha256 of a file's bytes, read through one reused buffer: a stream's fresh
 * 64 KiB chunks are garbage V8 collects late, and on a big file they held
 * tens of MiB at once.
 */
export async function hashFile(path: string): Promise<string> {
  const h = createHash("sha256");
  const fh = await open(path, "r");
  try {
    const buf = Buffer.allocUnsafe(1 << 16);
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      h.update(buf.subarray(0, bytesRead));
    }
  } finally {
    await fh.close();
  }
  return h.digest("hex");
}
