import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { pidAlive } from "../../locks/lock.js";
import { SandboxDataInUseError } from "./errors.js";
import { removeIfExists } from "./files.js";

/**
 * `<dataFile>.lock`: the pid of the process serving the data file (one server
 * per file), and its role: `serve` (a `rentctl sandbox serve`, or repair /
 * reset) or `embedded` (a CLI command running the sandbox in its own
 * process, which holds the file only while that command runs).
 */
export type LockRole = "serve" | "embedded";

export const lockPath = (dataFile: string): string => `${dataFile}.lock`;

/** The live pid holding `dataFile`, if any (a lock left by a dead process does not count). */
export function lockHolder(dataFile: string): number | null {
  let text: string;
  try {
    text = readFileSync(lockPath(dataFile), "utf8");
  } catch {
    return null;
  }
  const pid = Number(text.trim().split(/\s+/)[0]);
  if (!Number.isSafeInteger(pid) || pid <= 0) return null;
  if (pid === process.pid) return heldHere.has(dataFile) ? pid : null;
  return pidAlive(pid) ? pid : null;
}

const heldHere = new Set<string>();

/** The role of the live holder of `dataFile` (`serve` for a lock written before roles existed). */
export function lockRole(dataFile: string): LockRole {
  try {
    return readFileSync(lockPath(dataFile), "utf8").trim().split(/\s+/)[1] === "embedded" ? "embedded" : "serve";
  } catch {
    return "serve";
  }
}

export function acquireLock(dataFile: string, role: LockRole = "serve"): void {
  const lock = lockPath(dataFile);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lock, "wx");
      writeSync(fd, `${process.pid} ${role}`);
      closeSync(fd);
      heldHere.add(dataFile);
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const holder = lockHolder(dataFile);
      if (holder !== null) throw new SandboxDataInUseError(dataFile, holder, lockRole(dataFile));
      removeIfExists(lock); // stale: its process is gone
    }
  }
  throw new SandboxDataInUseError(dataFile, Number(readFileSync(lock, "utf8").trim()) || 0);
}

export function releaseLock(dataFile: string): void {
  if (!heldHere.delete(dataFile)) return;
  try {
    if (readFileSync(lockPath(dataFile), "utf8").trim().split(/\s+/)[0] === String(process.pid))
      unlinkSync(lockPath(dataFile));
  } catch {
    // already gone
  }
}
