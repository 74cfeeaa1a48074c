import { closeSync, fsyncSync, openSync, readdirSync, unlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/** Small file helpers of the sandbox's persistence: temp names, durable writes. */

let tempCounter = 0;
export function tempPath(file: string): string {
  return `${file}.${process.pid}.${Date.now().toString(36)}${(tempCounter++).toString(36)}.tmp`;
}

export function removeIfExists(file: string): void {
  try {
    unlinkSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
}

export function writeFileDurable(file: string, text: string): void {
  const fd = openSync(file, "w", 0o600);
  try {
    writeFileSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Make a rename in `file`'s directory durable (best effort: some systems cannot fsync a directory). */
export function fsyncDir(file: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dirname(file), "r");
    fsyncSync(fd);
  } catch {
    // not supported here (e.g. Windows): the rename itself is still atomic
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Remove the temp files a crash left beside `dataFile` (only while holding its lock). */
export function removeStrayTemps(dataFile: string): void {
  const base = basename(dataFile);
  let names: string[];
  try {
    names = readdirSync(dirname(dataFile));
  } catch {
    return;
  }
  for (const name of names) {
    if (name.startsWith(`${base}.`) && name.endsWith(".tmp")) {
      try {
        unlinkSync(join(dirname(dataFile), name));
      } catch {
        // gone already
      }
    }
  }
}
