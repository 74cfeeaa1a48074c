import { readdirSync, statSync, unlinkSync } from "node:fs";
import { open, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/**
 * Temp files written beside their target and renamed over it (exports,
 * reports, caches, saved plans): one naming rule, `.NAME.PID.RAND.tmp`, and
 * one cleanup rule.
 * - Every temp file this process still holds is removed when it exits, on
 *   every exit path Node runs exit handlers for (success, error, Ctrl-C,
 *   SIGTERM: main turns those into process.exit).
 * - SIGKILL leaves one behind: the next write of the same target removes
 *   those of processes that are gone (not alive on this host, and untouched
 *   for a minute, so a writer on another machine sharing the directory is
 *   left alone).
 */

const live = new Set<string>();
let hooked = false;
const STALE_MS = 60_000;

/** A fresh temp path beside `target`, removed at exit unless released (renamed or removed by the caller). */
export function tempFor(target: string): string {
  removeStale(target);
  const path = join(
    dirname(target),
    `.${basename(target)}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.tmp`,
  );
  live.add(path);
  if (!hooked) {
    hooked = true;
    process.on("exit", () => {
      for (const p of live) {
        try {
          unlinkSync(p);
        } catch {
          // already renamed or removed
        }
      }
    });
  }
  return path;
}

/** The temp file was renamed over its target or removed: nothing to clean at exit. */
export function released(path: string): void {
  live.delete(path);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Remove the temp files of `target` left by processes that are gone. */
export function removeStale(target: string, now = Date.now()): void {
  const dir = dirname(target);
  const prefix = `.${basename(target)}.`;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith(".tmp")) continue;
    const pid = Number(name.slice(prefix.length).split(".")[0]);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || alive(pid)) continue;
    const file = join(dir, name);
    try {
      if (now - statSync(file).mtimeMs < STALE_MS) continue;
      unlinkSync(file);
    } catch {
      // gone meanwhile, or not ours to remove
    }
  }
}

/**
 * Write a whole file safely: a temp file beside it (named and cleaned by the
 * rules above), fsync'd, then renamed over the target. Mode 0600 unless given.
 */
export async function writeFileAtomic(path: string, text: string, mode = 0o600): Promise<void> {
  const tmp = tempFor(path);
  const fh = await open(tmp, "w", mode);
  try {
    await fh.writeFile(text);
    await fh.sync();
    await fh.close();
    await rename(tmp, path);
  } catch (e) {
    await fh.close().catch(() => {});
    await unlink(tmp).catch(() => {});
    throw e;
  } finally {
    released(tmp);
  }
}
