import { closeSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { BusyError, lockTimeoutMs, pidAlive } from "../../base/lock.js";
import { SandboxDataInUseError } from "./errors.js";

/**
 * `<dataFile>.lock`: who holds the data file, as `<pid> <role>`. The role is
 * `serve` for a process that holds it for its whole life (a `rentctl sandbox
 * serve`, or a reset or repair while it runs), `embedded` for a CLI command's
 * embedded sandbox, which holds it only while it answers a request (a turn:
 * store.ts) and lets go between requests.
 *
 * Who waits for whom:
 * - a holder whose pid is gone (this host) is stale: its lock is taken over;
 * - an `embedded` holder is always about to let go: anyone waits for it
 *   (bounded by RENTCTL_LOCK_TIMEOUT, then exit 9 naming its pid);
 * - a `serve` holder makes another server, reset or repair fail at once;
 *   an embedded sandbox fails at once only when it is a real server (its
 *   `<dataFile>.server.json` names its pid and address); a reset or repair
 *   (or a server not yet listening) is waited for like a turn.
 */
export type LockRole = "serve" | "embedded";

export const lockPath = (dataFile: string): string => `${dataFile}.lock`;

/** What `rentctl sandbox serve` writes beside its data file once it listens: `{"url": …, "pid": …}`. */
export const serverInfoPath = (dataFile: string): string => `${dataFile}.server.json`;

export interface LockHolder {
  /** 0 when not known yet (a lock file being written). */
  pid: number;
  role: LockRole;
}

export interface LockWait {
  /** Longest wait for a holder that is to let go (default RENTCTL_LOCK_TIMEOUT seconds, else 60 s); 0: one try. */
  timeoutMs?: number;
  /** Called once when a wait has lasted a second. */
  onWait?: (holder: LockHolder) => void;
}

/** A lock file not yet holding `<pid> <role>` is being written for at most this long; then it is stale. */
const WRITING_MS = 2_000;
/** A wait is announced (onWait) once it has lasted this long. */
const NOTICE_MS = 1_000;

const heldHere = new Set<string>();

function parse(text: string): LockHolder | undefined {
  const m = /^(\d+)(?:\s+(serve|embedded))?\s*$/.exec(text);
  const pid = Number(m?.[1]);
  if (!m || !Number.isSafeInteger(pid) || pid <= 0) return undefined;
  // a lock written before roles existed is a server's
  return { pid, role: m[2] === "embedded" ? "embedded" : "serve" };
}

function alive(dataFile: string, h: LockHolder): boolean {
  return h.pid === process.pid ? heldHere.has(dataFile) : pidAlive(h.pid);
}

/** The live holder of `dataFile`, if any (a lock left by a dead process does not count). */
function lockHolder(dataFile: string): LockHolder | null {
  let text: string;
  try {
    text = readFileSync(lockPath(dataFile), "utf8");
  } catch {
    return null;
  }
  const h = parse(text.trim());
  return h && alive(dataFile, h) ? h : null;
}

/** The address of the running `rentctl sandbox serve` with this pid, from its server file. */
function serverAddress(dataFile: string, pid: number): string | undefined {
  try {
    const info = JSON.parse(readFileSync(serverInfoPath(dataFile), "utf8")) as { pid?: unknown; url?: unknown };
    return info.pid === pid && typeof info.url === "string" ? info.url : undefined;
  } catch {
    return undefined;
  }
}

/** Take the lock if it is free or stale: null, or who holds it. */
function tryTake(dataFile: string, role: LockRole): LockHolder | null {
  const lock = lockPath(dataFile);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(lock, "wx", 0o600);
      try {
        writeSync(fd, `${process.pid} ${role}`);
      } finally {
        closeSync(fd);
      }
      heldHere.add(dataFile);
      return null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    let text: string;
    let mtimeMs: number;
    try {
      text = readFileSync(lock, "utf8");
      mtimeMs = statSync(lock).mtimeMs;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") continue; // let go meanwhile
      throw err;
    }
    const h = parse(text.trim());
    if (h === undefined && Date.now() - mtimeMs < WRITING_MS) return { pid: 0, role: "embedded" }; // being written
    if (h !== undefined && alive(dataFile, h)) return h;
    // Stale (its process is gone): set it aside under a name of our own, if it is still the one judged.
    const aside = `${lock}.stale-${process.pid}-${Math.random().toString(36).slice(2)}`;
    try {
      if (readFileSync(lock, "utf8") !== text) continue;
      renameSync(lock, aside);
      unlinkSync(aside);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
  }
  return lockHolder(dataFile) ?? { pid: 0, role: "embedded" }; // lost every race: wait and try again
}

/** Whether a `role` contender gives up on `holder` now (the error to throw), or waits (undefined). */
function refusal(dataFile: string, role: LockRole, h: LockHolder, waitedMs: number, timeoutMs: number) {
  if (h.role === "serve") {
    const address = serverAddress(dataFile, h.pid);
    if (role === "serve" || address !== undefined || waitedMs >= timeoutMs)
      return new SandboxDataInUseError(dataFile, h.pid, "serve", address);
    return undefined;
  }
  if (waitedMs < timeoutMs) return undefined;
  return new BusyError(
    `the sandbox data file ${dataFile} is busy: ${h.pid ? `another rentctl command (pid ${h.pid})` : "another rentctl command"} uses it`,
    {
      hint: "run again once it is done, or raise RENTCTL_LOCK_TIMEOUT (seconds)",
    },
  );
}

const pause = (attempt: number) => 1 + Math.random() * Math.min(50, 2 ** attempt);
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** The tries of one acquisition: yields how long to sleep before the next; throws when it gives up. */
function* tries(dataFile: string, role: LockRole, wait: LockWait): Generator<number, void> {
  const timeoutMs = wait.timeoutMs ?? lockTimeoutMs();
  const started = Date.now();
  let told = false;
  for (let attempt = 0; ; attempt++) {
    const h = tryTake(dataFile, role);
    if (h === null) return;
    const waited = Date.now() - started;
    const err = refusal(dataFile, role, h, waited, timeoutMs);
    if (err) throw err;
    if (!told && waited >= NOTICE_MS) {
      told = true;
      wait.onWait?.(h);
    }
    yield pause(attempt);
  }
}

/**
 * Take the lock of `dataFile` as `role`, waiting (blocking, in short random
 * sleeps) for a holder that is to let go. Throws SandboxDataInUseError for a
 * server that holds it, BusyError after the bound.
 */
export function acquireLock(dataFile: string, role: LockRole = "serve", wait: LockWait = {}): void {
  for (const ms of tries(dataFile, role, wait)) Atomics.wait(sleeper, 0, 0, ms);
}

/** `acquireLock` sleeping without blocking (an embedded sandbox shares its process with the client). */
export async function acquireLockAsync(dataFile: string, role: LockRole, wait: LockWait = {}): Promise<void> {
  for (const ms of tries(dataFile, role, wait)) await new Promise((r) => setTimeout(r, ms));
}

export function releaseLock(dataFile: string): void {
  if (!heldHere.delete(dataFile)) return;
  try {
    if (parse(readFileSync(lockPath(dataFile), "utf8").trim())?.pid === process.pid) unlinkSync(lockPath(dataFile));
  } catch {
    // already gone
  }
}
