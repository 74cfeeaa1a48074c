import { copyFileSync, existsSync, readFileSync, renameSync } from "node:fs";
import type { Damage } from "./persistence/errors.js";
import { removeIfExists } from "./persistence/files.js";
import { acquireLock, releaseLock } from "./persistence/lock.js";
import { scanSnapshot, writeSnapshotSync } from "./persistence/snapshot.js";
import { scanWal, type WalEntry, walPath } from "./persistence/wal.js";
import { type Snapshot, State } from "./state.js";

/**
 * `rentctl sandbox repair`: rebuild a damaged data file from everything that
 * reads before the damage. The snapshot's rows up to its first bad line, then
 * the journal's entries up to its first bad line, are written as a new
 * snapshot (temp file, fsync, rename); each damaged file is first copied or
 * moved aside as `<file>.damaged-<time>` (never deleted); the journal starts
 * empty. Refused while a sandbox serves the file.
 */

export interface RepairReport {
  dataFile: string;
  /** False when nothing was damaged (nothing was changed then). */
  repaired: boolean;
  snapshotDamage: Damage | null;
  journalDamage: Damage | null;
  /** A torn last journal line (counted in `dropped`). */
  tornLine: number | null;
  kept: { vehicles: number; extras: number; images: number; journalEntries: number };
  /** Snapshot rows plus journal entries dropped from the damage on. */
  dropped: number;
  /** Where each damaged file now lies. */
  movedAside: string[];
}

class Rebuilt extends State {
  constructor(snap: Snapshot, entries: readonly WalEntry[]) {
    super();
    this.load(snap);
    // load() also raises the id counters past every row kept, should a damaged head have lost them.
    for (const entry of entries) {
      if (entry.s > this.seq) {
        for (const m of entry.m) this.apply(m);
        this.seq = entry.s;
      }
    }
  }

  snapshot(): Snapshot {
    return this.capture();
  }
}

function asideName(file: string, stamp: string): string {
  let name = `${file}.damaged-${stamp}`;
  for (let i = 2; existsSync(name); i++) name = `${file}.damaged-${stamp}-${i}`;
  return name;
}

export function repairData(dataFile: string, now: Date = new Date()): RepairReport {
  acquireLock(dataFile);
  try {
    return repairLocked(dataFile, now);
  } finally {
    releaseLock(dataFile);
  }
}

function repairLocked(dataFile: string, now: Date): RepairReport {
  const report: RepairReport = {
    dataFile,
    repaired: false,
    snapshotDamage: null,
    journalDamage: null,
    tornLine: null,
    kept: { vehicles: 0, extras: 0, images: 0, journalEntries: 0 },
    dropped: 0,
    movedAside: [],
  };
  if (!existsSync(dataFile)) return report; // nothing to repair: a missing file starts from the seed
  const { snap, damage: snapshotDamage } = scanSnapshot(dataFile, readFileSync(dataFile, "utf8"));
  const journal = scanWal(dataFile);
  report.snapshotDamage = snapshotDamage;
  report.journalDamage = journal.damage;
  report.tornLine = journal.torn?.line ?? null;
  const rebuilt = new Rebuilt(snap, journal.entries);
  report.kept = {
    vehicles: rebuilt.vehicles.size,
    extras: rebuilt.extras.size,
    images: rebuilt.images.size,
    journalEntries: journal.entries.length,
  };
  report.dropped = (snapshotDamage?.dropped ?? 0) + (journal.damage?.dropped ?? 0) + (journal.torn ? 1 : 0);
  if (!snapshotDamage && !journal.damage && !journal.torn) return report;

  const stamp = now.toISOString().replace(/[:.]/g, "-");
  const jpath = walPath(dataFile);
  if (snapshotDamage) {
    const aside = asideName(dataFile, stamp);
    copyFileSync(dataFile, aside); // a copy: the new snapshot replaces the original atomically below
    report.movedAside.push(aside);
  }
  writeSnapshotSync(dataFile, rebuilt.snapshot());
  // The new snapshot holds every kept entry (its seq covers them): the journal starts over.
  if (journal.damage || journal.torn) {
    const aside = asideName(jpath, stamp);
    renameSync(jpath, aside);
    report.movedAside.push(aside);
  } else {
    removeIfExists(jpath);
  }
  report.repaired = true;
  return report;
}
