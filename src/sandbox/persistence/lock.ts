import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { pidAlive } from "../../locks/lock.js";
import { SandboxDataInUseError } from "./errors.js";
import { removeIfExists } from "./files.js";

/** `<dataFile>.lock`: the pid of the process serving the data file (one server per file). */

export const lockPath = (dataFile: string): string => `${dataFile}.lock`;

/** The live pid holding `dataFile`, if any (a lock left by a dead process does not count). */
export function lockHolder(dataFile: string): number | null {
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

export function acquireLock(dataFile: string): void {
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

export function releaseLock(dataFile: string): void {
  if (!heldHere.delete(dataFile)) return;
  try {
    if (readFileSync(lockPath(dataFile), "utf8").trim() === String(process.pid)) unlinkSync(lockPath(dataFile));
  } catch {
    // already gone
  }
}
