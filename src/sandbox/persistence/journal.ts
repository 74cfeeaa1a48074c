import { closeSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import type { Mutation } from "../state.js";
import { SandboxDataCorruptError } from "./errors.js";
import { tempPath, writeFileDurable } from "./files.js";

/**
 * `<dataFile>.journal`: append-only, one JSON line per committed request,
 * `{"s":<seq>,"m":[<mutation>, ...]}`; a mutation is a whole-row put or a delete.
 */

export const journalPath = (dataFile: string): string => `${dataFile}.journal`;

export interface JournalEntry {
  s: number;
  m: Mutation[];
}

export interface JournalText {
  entries: JournalEntry[];
  bytes: number;
}

/**
 * The entries of the journal of `dataFile` (none when it does not exist).
 * A torn last line (crash mid-append) is dropped; a bad line before the last
 * is corruption.
 */
export function readJournal(dataFile: string): JournalText {
  let text: string;
  try {
    text = readFileSync(journalPath(dataFile), "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { entries: [], bytes: 0 };
    throw err;
  }
  const entries: JournalEntry[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.trim() === "") continue;
    let entry: JournalEntry;
    try {
      entry = JSON.parse(line);
      if (typeof entry.s !== "number" || !Array.isArray(entry.m)) throw new Error("bad entry");
    } catch {
      if (lines.slice(i + 1).every((l) => l.trim() === "")) break;
      throw new SandboxDataCorruptError(dataFile, `journal line ${i + 1} is not valid`);
    }
    entries.push(entry);
  }
  return { entries, bytes: Buffer.byteLength(text) };
}

/** The open journal of a served data file: appends lines, or is replaced whole after a snapshot. */
export class Journal {
  private fd: number | null;

  constructor(private readonly dataFile: string) {
    this.fd = openSync(journalPath(dataFile), "a");
  }

  /** Append one line (no fsync: a crash loses at most the lines not yet written). */
  append(line: string): void {
    if (this.fd === null) throw new Error("sandbox journal is closed");
    writeSync(this.fd, line);
  }

  /** Replace the journal by `lines` (synchronous, so no append can interleave). */
  rewrite(lines: readonly string[]): void {
    const jpath = journalPath(this.dataFile);
    const tmp = tempPath(jpath);
    writeFileDurable(tmp, lines.join(""));
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    renameSync(tmp, jpath);
    this.fd = openSync(jpath, "a");
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
