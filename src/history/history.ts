import {
  appendFileSync,
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  statSync,
} from "node:fs";
import { join } from "node:path";
import type { JsonObject } from "../contract/records.js";
import { lockSync } from "../locks/lock.js";

/**
 * The undo journal: before every edit, update, remove or delete, the full
 * previous record is appended to `journal.jsonl` in the user data directory
 * (mode 0600). Entries are tied to the base address and owner they were taken
 * on, so an undo never writes to another environment.
 */

export type HistoryAction =
  | "vehicle.edit"
  | "vehicle.remove"
  | "extra.update"
  | "extra.delete"
  /** `vehicle apply`, `account apply`: the batch entry; its rows are entries with `batch` = its op. */
  | "vehicle.apply"
  /** `vehicle import`: a batch entry like an apply's, its rows the vehicles it created. */
  | "vehicle.import"
  /** A vehicle created (undo removes it; `before` is the record sent). */
  | "vehicle.create"
  /** An extra created (undo deletes it; `before` is the record sent). */
  | "extra.create"
  /** An extra switched on or off (undo switches it back; `before` is its record before). */
  | "extra.switch";

export interface HistoryEntry {
  op: string;
  time: string;
  action: HistoryAction;
  id: number;
  baseUrl: string;
  userId?: number;
  env: string;
  /** The embedded sandbox's data file the entry was taken on (its address changes every run). */
  dataFile?: string;
  before: JsonObject;
  /** A row of an apply: what it wrote (an undo leaves a vehicle changed since alone, unless --force). */
  after?: JsonObject;
  /** An edit: the fields it changed (the undo list says what the op did). */
  fields?: string[];
  /** A change to many vehicles is one entry: every vehicle's previous record (undo restores them all). */
  items?: Array<{ id: number; before: JsonObject }>;
  /** Set once the entry has been undone. */
  undone?: string;
  /** The op of the batch entry (`vehicle.apply`) this entry belongs to. */
  batch?: string;
}

/** A batch entry (an apply, an import): its rows are entries with `batch` = its op, undone together. */
export function isBatchEntry(e: Pick<HistoryEntry, "action">): boolean {
  return e.action === "vehicle.apply" || e.action === "vehicle.import";
}

/** What the journal needs to know of where a change is made (config/target.ts's Target fits). */
export interface HistoryTargetInfo {
  env: string;
  baseUrl: string;
  userId?: number;
  embeddedSandbox: boolean;
  /** The embedded sandbox's data file; null for a throw-away in-memory sandbox. */
  sandboxDataFile?: string | null;
}

/** The members that bind an entry to its target: environment, address (or sandbox data file), owner. */
export function historyTarget(t: HistoryTargetInfo): Pick<HistoryEntry, "env" | "baseUrl" | "userId" | "dataFile"> {
  return {
    env: t.env,
    baseUrl: t.baseUrl,
    userId: t.userId,
    ...(t.embeddedSandbox && t.sandboxDataFile ? { dataFile: t.sandboxDataFile } : {}),
  };
}

/**
 * The journal to record a change made on `t`, or undefined when that change
 * can never be undone: a throw-away in-memory sandbox is gone when the
 * command ends, and an entry for it could only re-create its vehicles
 * somewhere else.
 */
export function historyFor(dataDir: string, t: HistoryTargetInfo): History | undefined {
  if (t.embeddedSandbox && t.sandboxDataFile === null) return undefined;
  return new History(dataDir);
}

/** Whether an entry was taken on the target selected now (same address or sandbox data file, same owner). */
export function sameTarget(e: HistoryEntry, t: HistoryTargetInfo): boolean {
  if (e.userId !== undefined && t.userId !== undefined && e.userId !== t.userId) return false;
  if (e.dataFile !== undefined) return t.embeddedSandbox && t.sandboxDataFile === e.dataFile;
  if (t.embeddedSandbox) return e.env === "sandbox" && e.baseUrl.startsWith("http://127.0.0.1:"); // entries from before dataFile
  return e.baseUrl === t.baseUrl;
}

export class History {
  readonly file: string;
  constructor(dataDir: string) {
    this.file = join(dataDir, "journal.jsonl");
    this.dir = dataDir;
  }
  private dir: string;

  entries(): HistoryEntry[] {
    if (!existsSync(this.file)) return [];
    const out: HistoryEntry[] = [];
    const undone = new Map<string, string>();
    for (const line of readFileSync(this.file, "utf8").split("\n")) {
      if (!line.trim()) continue;
      try {
        const e = JSON.parse(line) as HistoryEntry | { undo: string; time: string };
        if ("undo" in e) undone.set(e.undo, e.time);
        else out.push(e);
      } catch {
        // a torn last line (crash mid-write) is skipped
      }
    }
    for (const e of out) {
      const t = undone.get(e.op);
      if (t) e.undone = t;
    }
    return out;
  }

  /**
   * Append an entry with the next op id. The id is allocated and the entry
   * written under the history's lock (src/locks/), so concurrent rentctl
   * processes never share an op id.
   */
  record(entry: Omit<HistoryEntry, "op" | "time">, now: number): HistoryEntry {
    const release = lockSync(this.file, { what: "the undo history" });
    try {
      const existing = this.entries();
      const op = String((existing.length ? Math.max(...existing.map((e) => Number.parseInt(e.op, 10) || 0)) : 0) + 1);
      const full: HistoryEntry = { op, time: new Date(now).toISOString(), ...entry };
      this.append(full);
      return full;
    } finally {
      release();
    }
  }

  /** An entry of a batch, op `BATCH.N` (appended without reading the journal: batches are large). */
  recordInBatch(batch: string, seq: number, entry: Omit<HistoryEntry, "op" | "time" | "batch">, now: number): void {
    this.append({ op: `${batch}.${seq}`, time: new Date(now).toISOString(), batch, ...entry });
  }

  markUndone(op: string, now: number): void {
    this.append({ undo: op, time: new Date(now).toISOString() });
  }

  private append(obj: unknown): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const fresh = !existsSync(this.file);
    // After a torn last line (a crash mid-write), start on a new line: otherwise the torn
    // fragment swallows this entry and its undo record is lost.
    const torn = !fresh && !endsWithNewline(this.file);
    appendFileSync(this.file, `${torn ? "\n" : ""}${JSON.stringify(obj)}\n`, { mode: 0o600 });
    if (fresh) chmodSync(this.file, 0o600);
  }
}

function endsWithNewline(file: string): boolean {
  const size = statSync(file).size;
  if (size === 0) return true;
  const fd = openSync(file, "r");
  try {
    const b = Buffer.alloc(1);
    readSync(fd, b, 0, 1, size - 1);
    return b[0] === 0x0a;
  } finally {
    closeSync(fd);
  }
}
