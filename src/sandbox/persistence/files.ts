import { closeSync, fsyncSync, openSync, unlinkSync, writeFileSync } from "node:fs";

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
  const fd = openSync(file, "w");
  try {
    writeFileSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
