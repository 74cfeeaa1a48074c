import { createHash } from "node:crypto";
import { readFileSync, writeSync } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { mkdir, open, readFile, unlink } from "node:fs/promises";
import { join } from "node:path";
import { fsReason, StorageError } from "../base/errors.js";

/**
 * The row log of a bulk job: one append-only, fsync'd JSON-lines file per job in
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
 *
 * Start notes: right before a row's request is handed to the socket, a
 * `started` line is written with a plain write() (no fsync): it survives the
 * process being killed, not the machine losing power. Each run's header
 * records the machine's boot id; a rerun under the same boot trusts the
 * start notes of that run, so a row logged `sending` (ahead, with its
 * group) whose request never started is simply sent again: no settle wait,
 * no reconcile. Without a boot id, or after a reboot, every `sending` row
 * counts as in flight, as before.
 */

/** Outcome notes are written when this many wait, or after NOTE_DELAY_MS, or with the next durable write. */
const NOTE_BATCH = 64;
const NOTE_DELAY_MS = 25;

export type RowState = "sending" | "started" | "done" | "failed" | "unknown";

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
  /** When the line was written (ms since the epoch); for an in-flight row, when its request started, if known. */
  at?: number;
  /** An in-flight row whose request did start, by a trusted start note (see the class comment). */
  started?: boolean;
}

/** This boot of the machine (Linux); undefined where the system does not say. */
export function bootId(): string | undefined {
  try {
    return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Images uploaded for a row before its write (a rerun reuses them instead of uploading again). */
export interface RowUploads {
  /** The image files, as the row named them. */
  files: string[];
  /** The image ids the server gave them. */
  ids: number[];
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
  /** Images earlier runs uploaded for a row (the last upload of each row). */
  readonly previousUploads: ReadonlyMap<number, RowUploads>;
  #fh: FileHandle;
  /** Lines to write; a durable one carries the promise its writer awaits (a note has none). */
  #queue: Array<{ line: string; durable?: { resolve: () => void; reject: (e: unknown) => void } }> = [];
  #flushing: Promise<void> | undefined;

  private constructor(
    file: string,
    fh: FileHandle,
    previous: Map<number, RowRecord>,
    uploads: Map<number, RowUploads>,
  ) {
    this.file = file;
    this.#fh = fh;
    this.previous = previous;
    this.previousUploads = uploads;
  }

  /** The last run got through every row and ended with this many failed (it was not interrupted). */
  endedWithFailures: number | undefined;

  /** The run got through every row; `failed` of them failed (a rerun is told, instead of "interrupted"). */
  ended(failed: number): void {
    this.#queue.push({ line: JSON.stringify({ end: "failed", failed }) });
    this.#startFlush();
  }

  /** True when an earlier run of this job left rows behind. */
  get resumed(): boolean {
    return this.previous.size > 0;
  }

  /** Rows an earlier run left with a request in flight (or maybe, without a trusted start note) or an unknown outcome. */
  inFlight(): RowRecord[] {
    return inFlightOf(this.previous);
  }

  static fileFor(dataDir: string, key: RowLogKey): string {
    const id = createHash("sha256").update(JSON.stringify(key)).digest("hex").slice(0, 32);
    return join(dataDir, "bulk", `${key.job.replace(/[^a-z0-9.-]/gi, "_")}-${id}.jsonl`);
  }

  /** Open (or create) the row log of a job; `restart` sets an earlier run's row log aside. */
  static async open(dataDir: string, key: RowLogKey, opts: { restart?: boolean } = {}): Promise<RowLog> {
    const file = RowLog.fileFor(dataDir, key);
    await mkdir(join(dataDir, "bulk"), { recursive: true, mode: 0o700 });
    const boot = bootId();
    let previous = new Map<number, RowRecord>();
    let text = "";
    if (opts.restart) await unlink(file).catch(() => {});
    else {
      text = await readFile(file, "utf8").catch(() => "");
      previous = readPrevious(text, boot);
    }
    const fh = await open(file, "a", 0o600);
    const j = new RowLog(file, fh, previous, readUploads(text));
    const end = /\{"end":"failed","failed":(\d+)\}\s*$/.exec(text);
    if (end) j.endedWithFailures = Number(end[1]);
    // Every run heads its lines with the boot it runs in: its start notes are trusted by a rerun in the same boot.
    await j.#durable(
      JSON.stringify(
        previous.size === 0
          ? { journal: 1, ...key, started: new Date().toISOString(), boot }
          : { run: new Date().toISOString(), boot },
      ),
    );
    return j;
  }

  /**
   * The row's request starts now: a plain write, no fsync, written before this
   * returns (see the class comment). Call right after the durable `sending`.
   */
  started(row: number, key: string): void {
    try {
      writeSync(this.#fh.fd, `${lineOf({ row, key, state: "started" })}\n`);
    } catch {
      // lost: the row counts as in flight (settled and reconciled), as without start notes
    }
  }

  /**
   * The row's images are uploaded: their ids, on disk before the row's write
   * (a write that then fails leaves them reported and reusable, not orphaned).
   * Not a row state: the row's state lines are unchanged by it.
   */
  uploaded(row: number, key: string, u: RowUploads): Promise<void> {
    return this.#durable(
      `{"row":${row},"key":${JSON.stringify(key)},"uploaded":${JSON.stringify(u.ids)},"files":${JSON.stringify(u.files)},"at":${Date.now()}}`,
    );
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
      } catch (cause) {
        // one clear line (no space left on the device, read-only), and the run stops: a row whose
        // `sending` is not on disk is never sent
        const e = new StorageError(`cannot write the row log ${this.file}: ${fsReason(cause)}`, {
          cause,
          hint: "free space (or make the data dir writable) and rerun the same command: it resumes",
        });
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

  /** The job is complete: remove the row log so a later run starts afresh. */
  async finish(): Promise<void> {
    await this.close();
    await unlink(this.file).catch(() => {});
  }
}

/** The rows of a row log's last states that were in flight (`sending`) or of unknown outcome. */
export function inFlightOf(previous: ReadonlyMap<number, RowRecord>): RowRecord[] {
  return [...previous.values()].filter((r) => r.state === "sending" || r.state === "unknown");
}

/**
 * The rows' last states from a row log's text. A `started` line marks the row's
 * request as begun (its time is when). Under a header of this same boot, a row
 * whose last line is `sending` without a start note after it never reached the
 * socket: it reverts to the state it had before (none: it was never logged).
 */
export function readPrevious(text: string, boot: string | undefined): Map<number, RowRecord> {
  const previous = new Map<number, RowRecord>();
  /** Rows `sending` with no start note yet, in a run whose start notes are trusted: their state before. */
  const unstarted = new Map<number, RowRecord | undefined>();
  let trusted = false;
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    let r: RowRecord | { journal?: number; run?: string; boot?: string };
    try {
      r = JSON.parse(line) as typeof r;
    } catch {
      continue; // a torn last line (killed mid-write): its row is treated as not logged
    }
    if ("uploaded" in r) continue; // not a state (readUploads reads these)
    if (!("row" in r)) {
      trusted = boot !== undefined && r.boot === boot;
      continue;
    }
    const before = previous.get(r.row);
    if (r.state === "started") {
      unstarted.delete(r.row);
      if (before?.state === "sending") previous.set(r.row, { ...before, at: r.at, started: true });
      continue;
    }
    if (r.state === "sending" && trusted) unstarted.set(r.row, unstarted.has(r.row) ? unstarted.get(r.row) : before);
    else unstarted.delete(r.row);
    previous.set(r.row, r);
  }
  for (const [row, before] of unstarted) {
    if (before) previous.set(row, before);
    else previous.delete(row);
  }
  return previous;
}

/** The images uploaded for each row, by the `uploaded` lines of a row log's text (the last one of a row wins). */
export function readUploads(text: string): Map<number, RowUploads> {
  const out = new Map<number, RowUploads>();
  if (!text.includes('"uploaded"')) return out;
  for (const line of text.split("\n")) {
    if (!line.includes('"uploaded"')) continue;
    try {
      const r = JSON.parse(line) as { row?: unknown; uploaded?: unknown; files?: unknown };
      if (
        typeof r.row === "number" &&
        Array.isArray(r.uploaded) &&
        r.uploaded.every((x) => Number.isSafeInteger(x)) &&
        Array.isArray(r.files)
      )
        out.set(r.row, { ids: r.uploaded as number[], files: r.files.map(String) });
    } catch {
      // a torn line: those ids are not known (the images are uploaded again)
    }
  }
  return out;
}

/**
 * A row state as its row log line: the record's fields in a fixed order, and
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
