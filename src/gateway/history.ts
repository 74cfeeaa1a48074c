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
import { lockSync } from "../base/lock.js";
import type { JsonObject } from "../contract/records.js";
import type { HistoryAction } from "../resources/resource.js";

/**
 * The undo history: before every edit, update, remove or delete, the full
 * previous record is appended to `journal.jsonl` in the user data directory
 * (mode 0600). Entries are tied to the base address and owner they were taken
 * on, so an undo never writes to another environment.
 */

export type { HistoryAction };

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
  /** A change of many vehicles: each one's record before, and the fields the change set on it. */
  items?: Array<{ id: number; before: JsonObject; fields?: string[] }>;
  /** Set once the entry has been undone. */
  undone?: string;
  /** The op of the batch entry (`vehicle.apply`) this entry belongs to. */
  batch?: string;
}

/** A batch entry (an apply, an import): its rows are entries with `batch` = its op, undone together. */
export function isBatchEntry(e: Pick<HistoryEntry, "action">): boolean {
  return e.action === "vehicle.apply" || e.action === "vehicle.import";
}

/** A record an undo created again: the server gave it a new id (`from` → `to`). */
export interface Recreated {
  kind: "vehicle" | "extra";
  from: number;
  to: number;
}

export type RecreatedIds = Record<Recreated["kind"], Map<number, number>>;

/** The id a record has now, following the undos that re-created it (each may have been re-created again). */
function idNow(ids: ReadonlyMap<number, number>, id: number): number {
  let now = id;
  for (let i = 0; i < 1000 && ids.has(now); i++) now = ids.get(now)!;
  return now;
}

/**
 * An entry with the ids it names as they are now: its own id, the ids of a
 * change to many, a vehicle's extras and an extra's vehicles (`used_by`). An
 * undo maps the ids earlier undos re-created onto every later step.
 */
export function remapEntry(e: HistoryEntry, ids: RecreatedIds): HistoryEntry {
  if (ids.vehicle.size === 0 && ids.extra.size === 0) return e;
  const kind = e.action.startsWith("extra.") ? "extra" : "vehicle";
  const list = (v: unknown, k: Recreated["kind"]) =>
    Array.isArray(v)
      ? v.map((x) =>
          typeof x === "number" || (typeof x === "string" && /^\d+$/.test(x)) ? idNow(ids[k], Number(x)) : x,
        )
      : v;
  const record = (r: JsonObject): JsonObject => {
    const out: JsonObject = { ...r };
    if (Array.isArray(r.vehicle_extras)) out.vehicle_extras = list(r.vehicle_extras, "extra") as JsonObject[string];
    if (Array.isArray(r.used_by)) out.used_by = list(r.used_by, "vehicle") as JsonObject[string];
    return out;
  };
  return {
    ...e,
    id: e.id > 0 ? idNow(ids[kind], e.id) : e.id,
    before: record(e.before),
    ...(e.after ? { after: record(e.after) } : {}),
    ...(e.items ? { items: e.items.map((i) => ({ id: idNow(ids.vehicle, i.id), before: record(i.before) })) } : {}),
  };
}

/** What the undo history needs to know of where a change is made (config/target.ts's Target fits). */
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
 * The history to record a change made on `t`, or undefined when that change
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
   * written under the history's lock (src/base/lock.ts), so concurrent rentctl
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

  /** An entry of a batch, op `BATCH.N` (appended without reading the history: batches are large). */
  recordInBatch(batch: string, seq: number, entry: Omit<HistoryEntry, "op" | "time" | "batch">, now: number): void {
    this.append({ op: `${batch}.${seq}`, time: new Date(now).toISOString(), batch, ...entry });
  }

  /** Mark an entry undone; `recreated`: the records its undo created again, under the new ids the server gave. */
  markUndone(op: string, now: number, recreated: readonly Recreated[] = []): void {
    this.append({ undo: op, time: new Date(now).toISOString(), ...(recreated.length ? { recreated } : {}) });
  }

  /** The ids undos re-created under new ones, by kind: an earlier entry naming an old id is undone on the new one. */
  recreatedIds(): RecreatedIds {
    const out: RecreatedIds = { vehicle: new Map(), extra: new Map() };
    if (!existsSync(this.file)) return out;
    for (const line of readFileSync(this.file, "utf8").split("\n")) {
      if (!line.includes('"recreated"')) continue;
      try {
        const e = JSON.parse(line) as { undo?: string; recreated?: Recreated[] };
        for (const r of e.recreated ?? [])
          if (r.kind === "vehicle" || r.kind === "extra") out[r.kind].set(r.from, r.to);
      } catch {
        // a torn last line (crash mid-write) is skipped
      }
    }
    return out;
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
