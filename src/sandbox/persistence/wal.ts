import { closeSync, fstatSync, openSync, readSync, renameSync, writeSync } from "node:fs";
import type { Mutation } from "../state.js";
import { type Damage, SandboxDataCorruptError } from "./errors.js";
import { fsyncDir, tempPath, writeFileDurable } from "./files.js";

/**
 * `<dataFile>.journal`: append-only, one JSON line per committed request,
 * `{"s":<seq>,"m":[<mutation>, ...]}`; a mutation is a whole-row put or a delete.
 */

export const walPath = (dataFile: string): string => `${dataFile}.journal`;

export interface WalEntry {
  s: number;
  m: Mutation[];
}

/** A last line cut off by a crash mid-append: never acknowledged, dropped on open. */
export interface TornLine {
  line: number;
  bytes: number;
  /** What the fragment shows of the entry (seq, operations, ids), for the warning. */
  summary: string;
}

export interface ScannedWal {
  /** The entries before any damage, in file order. */
  entries: WalEntry[];
  /** Size of the file. */
  bytes: number;
  /** Bytes up to the end of the last good line (with its newline). */
  goodBytes: number;
  /** True when the last good line lacks its newline (a later append must add one). */
  missingNewline: boolean;
  torn: TornLine | null;
  /** A bad line followed by more lines: corruption that needs `sandbox repair`. */
  damage: Damage | null;
}

/** The bytes of `file` from `from` on (a file shorter than that reads as nothing). */
function readFrom(file: string, from: number): Buffer {
  const fd = openSync(file, "r");
  try {
    const size = fstatSync(fd).size;
    const buf = Buffer.alloc(Math.max(0, size - from));
    let read = 0;
    while (read < buf.length) {
      const n = readSync(fd, buf, read, buf.length - read, from + read);
      if (n === 0) break;
      read += n;
    }
    return buf.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/**
 * Read the journal of `dataFile` (empty when it does not exist), stopping at
 * the first bad line; from byte `from` on (a line start: what a reader
 * already has), that being line `firstLine`. Byte counts are of the whole file.
 */
export function scanWal(dataFile: string, from = 0, firstLine = 1): ScannedWal {
  const jpath = walPath(dataFile);
  let buf: Buffer;
  try {
    buf = readFrom(jpath, from);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT")
      return { entries: [], bytes: 0, goodBytes: 0, missingNewline: false, torn: null, damage: null };
    throw err;
  }
  const text = buf.toString("utf8");
  const entries: WalEntry[] = [];
  const lines = text.split("\n");
  let offset = 0;
  let goodBytes = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const lineBytes = Buffer.byteLength(line);
    const hasNewline = i < lines.length - 1;
    if (line.trim() !== "") {
      let entry: WalEntry | undefined;
      try {
        entry = JSON.parse(line);
      } catch {
        entry = undefined;
      }
      if (!entry || typeof entry.s !== "number" || !Array.isArray(entry.m)) {
        const rest = lines.slice(i + 1).filter((l) => l.trim() !== "").length;
        const base = { entries, bytes: from + buf.length, goodBytes: from + goodBytes, missingNewline: false };
        const line1 = i + firstLine;
        if (rest === 0) {
          return { ...base, torn: { line: line1, bytes: buf.length - offset, summary: summarise(line) }, damage: null };
        }
        return {
          ...base,
          torn: null,
          damage: { file: jpath, line: line1, detail: "not a valid journal entry (garbled)", dropped: rest + 1 },
        };
      }
      entries.push(entry);
      goodBytes = offset + lineBytes + (hasNewline ? 1 : 0);
    } else {
      goodBytes = offset + lineBytes + (hasNewline ? 1 : 0);
    }
    offset += lineBytes + 1;
  }
  const missingNewline = text.length > 0 && !text.endsWith("\n");
  return { entries, bytes: from + buf.length, goodBytes: from + goodBytes, missingNewline, torn: null, damage: null };
}

/** A few words on what a fragment of a journal line held: `seq 12: vehicle.put id 4567`. */
function summarise(fragment: string): string {
  const seq = /"s":(\d+)/.exec(fragment)?.[1];
  const ops = [...fragment.matchAll(/"op":"([a-z]+\.[a-z]+)"(?:,(?:"row":\{"id":|"id":)(\d+))?/g)].map((m) =>
    m[2] ? `${m[1]} id ${m[2]}` : (m[1] as string),
  );
  const what = ops.length ? ops.join(", ") : "an unreadable change";
  return seq ? `entry ${seq}: ${what}` : what;
}

/**
 * The entries of the journal of `dataFile`. A torn last line (crash
 * mid-append) is dropped; a bad line before the last is corruption.
 */
export function readWal(dataFile: string, from = 0, firstLine = 1): ScannedWal {
  const scanned = scanWal(dataFile, from, firstLine);
  if (scanned.damage) throw new SandboxDataCorruptError(dataFile, scanned.damage);
  return scanned;
}

/** The open journal of a served data file: appends lines, or is replaced whole after a snapshot. */
export class WriteAheadLog {
  private fd: number | null;

  constructor(private readonly dataFile: string) {
    this.fd = openSync(walPath(dataFile), "a", 0o600);
  }

  /** Append one line (no fsync: a crash loses at most the lines not yet written). */
  append(line: string): void {
    if (this.fd === null) throw new Error("sandbox journal is closed");
    writeSync(this.fd, line);
  }

  /** Replace the journal by `lines` (synchronous, so no append can interleave). */
  rewrite(lines: readonly string[]): void {
    const jpath = walPath(this.dataFile);
    const tmp = tempPath(jpath);
    writeFileDurable(tmp, lines.join(""));
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    renameSync(tmp, jpath);
    fsyncDir(jpath);
    this.fd = openSync(jpath, "a", 0o600);
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
