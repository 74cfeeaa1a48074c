import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeSync,
} from "node:fs";
import { hostname } from "node:os";
import { dirname } from "node:path";
import { EXIT, RentctlError } from "./errors.js";

/**
 * THE cross-process lock of rentctl: every file that several rentctl
 * processes share (the config file, the undo history, a bulk job's row log)
 * is changed under it. A lock is a file `<path>.lock` created exclusively
 * (O_EXCL), holding who holds it: pid, host, command, since when.
 *
 * - Stale locks are recovered: on the same host a holder whose pid is gone
 *   is stale at once; anywhere, a lock not refreshed for `staleMs` is stale
 *   (a long holder refreshes it while it works: `lock()` does, on a timer).
 * - Waiting is bounded: `timeoutMs` (default 60 s, RENTCTL_LOCK_TIMEOUT in
 *   seconds), then a BusyError (exit 9) naming the holder.
 * - `lockSync` is for short sections (read-modify-write of the config, an
 *   op id of the undo history); `lock` for work that lasts (a bulk job).
 */

export class BusyError extends RentctlError {
  override readonly exitCode: number = EXIT.busy;
  override readonly kind: string = "busy";
}

export interface LockOptions {
  /** What is locked, for messages: "the config file", "this import". */
  what: string;
  /** Longest wait for the lock (default RENTCTL_LOCK_TIMEOUT seconds, else 60 s); 0: do not wait. */
  timeoutMs?: number;
  /** A lock not refreshed for this long is stale (default 30 s). */
  staleMs?: number;
  /** Called once when the lock is held by someone else and this process starts to wait. */
  onWait?: (holder: string) => void;
}

export interface Holder {
  pid: number;
  host: string;
  command: string;
  since: string;
}

export type Release = () => void;

const DEFAULT_STALE_MS = 30_000;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

export const lockFileOf = (path: string): string => `${path}.lock`;

/** The default bound on a wait: RENTCTL_LOCK_TIMEOUT (seconds) or 60 s. */
export function lockTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const v = Number(env.RENTCTL_LOCK_TIMEOUT);
  return env.RENTCTL_LOCK_TIMEOUT !== undefined && Number.isFinite(v) && v >= 0 ? v * 1000 : 60_000;
}

/** Whether a process of this host is alive (EPERM: alive, another user's). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function describe(h: Holder | undefined): string {
  return h ? `pid ${h.pid} on ${h.host} (${h.command}) since ${h.since}` : "another process";
}

function readHolder(file: string): { text: string; holder?: Holder; mtimeMs: number } | undefined {
  try {
    const text = readFileSync(file, "utf8");
    const mtimeMs = statSync(file).mtimeMs;
    try {
      return { text, holder: JSON.parse(text) as Holder, mtimeMs };
    } catch {
      return { text, mtimeMs }; // being written: judged by its age alone
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

/** Take the lock now if it is free or stale; returns our content, or the current holder's state. */
/** `retry`: the lock was free or stale a moment ago (released, or a dead holder's set aside): try again at once. */
function tryTake(
  file: string,
  mine: string,
  staleMs: number,
): { ok: true } | { ok: false; holder?: Holder; retry?: boolean } {
  try {
    const fd = openSync(file, "wx", 0o600);
    try {
      writeSync(fd, mine);
    } finally {
      closeSync(fd);
    }
    return { ok: true };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") {
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      return { ok: false, retry: true };
    }
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  const seen = readHolder(file);
  if (!seen) return { ok: false, retry: true }; // released meanwhile: try again
  const h = seen.holder;
  const dead = h !== undefined && h.host === hostname() && h.pid !== process.pid && !pidAlive(h.pid);
  const old = Date.now() - seen.mtimeMs > staleMs;
  if (!dead && !old) return { ok: false, holder: h };
  // Stale: set it aside under a name of our own (one process wins the rename), if it is still the one judged.
  const aside = `${file}.stale-${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    if (readFileSync(file, "utf8") !== seen.text) return { ok: false, retry: true }; // changed meanwhile: judge it again
    renameSync(file, aside);
    unlinkSync(aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  // A killed run's lock is no one's: taken over at once, not waited for (nor blamed with --no-wait).
  return { ok: false, retry: true };
}

/** Immediate retries of one attempt (a lock freed or set aside meanwhile), before it counts as busy. */
const RETRIES = 5;

function content(): string {
  const h: Holder = {
    pid: process.pid,
    host: hostname(),
    command: process.argv.slice(2, 4).join(" ") || "rentctl",
    since: new Date().toISOString(),
  };
  return JSON.stringify(h);
}

function releaser(file: string, mine: string, stop?: () => void): Release {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    stop?.();
    try {
      // Only our own lock: after a stale takeover it is someone else's.
      if (readFileSync(file, "utf8") === mine) unlinkSync(file);
    } catch {
      // already gone
    }
  };
}

function busy(o: LockOptions, holder: Holder | undefined, waitedMs: number): BusyError {
  return new BusyError(`${o.what} is busy: held by ${describe(holder)}`, {
    hint:
      o.timeoutMs === 0
        ? "run again once it is done (--no-wait: this run did not wait for it)"
        : `waited ${(waitedMs / 1000).toFixed(0)} s; run again once it is done, or raise RENTCTL_LOCK_TIMEOUT (seconds)`,
  });
}

const backoff = (attempt: number) => Math.min(100, 5 * 2 ** Math.min(attempt, 5)) * (0.5 + Math.random() / 2);

/** Take the lock of `path`, waiting (blocking) up to the timeout. For short sections only. */
export function lockSync(path: string, o: LockOptions): Release {
  const file = lockFileOf(path);
  const mine = content();
  const timeout = o.timeoutMs ?? lockTimeoutMs();
  const started = Date.now();
  let told = false;
  for (let attempt = 0; ; attempt++) {
    let r = tryTake(file, mine, o.staleMs ?? DEFAULT_STALE_MS);
    for (let k = 0; !r.ok && r.retry && k < RETRIES; k++) r = tryTake(file, mine, o.staleMs ?? DEFAULT_STALE_MS);
    if (r.ok) return releaser(file, mine);
    const waited = Date.now() - started;
    if (waited >= timeout) throw busy(o, r.holder, waited);
    if (!told && r.holder) {
      told = true;
      o.onWait?.(describe(r.holder));
    }
    Atomics.wait(sleeper, 0, 0, backoff(attempt));
  }
}

/** Take the lock of `path`, waiting up to the timeout; refreshed while held (a long job keeps it). */
export async function lock(path: string, o: LockOptions): Promise<Release> {
  const file = lockFileOf(path);
  const mine = content();
  const timeout = o.timeoutMs ?? lockTimeoutMs();
  const staleMs = o.staleMs ?? DEFAULT_STALE_MS;
  const started = Date.now();
  let told = false;
  for (let attempt = 0; ; attempt++) {
    let r = tryTake(file, mine, staleMs);
    for (let k = 0; !r.ok && r.retry && k < RETRIES; k++) r = tryTake(file, mine, staleMs);
    if (r.ok) {
      const timer = setInterval(() => {
        try {
          const now = new Date();
          utimesSync(file, now, now);
        } catch {
          // gone: released, or taken over as stale (the holder was too slow to refresh)
        }
      }, staleMs / 3);
      timer.unref();
      return releaser(file, mine, () => clearInterval(timer));
    }
    const waited = Date.now() - started;
    if (waited >= timeout) throw busy(o, r.holder, waited);
    if (!told && r.holder) {
      told = true;
      o.onWait?.(describe(r.holder));
    }
    await new Promise((res) => setTimeout(res, Math.max(backoff(attempt), 25)));
  }
}
