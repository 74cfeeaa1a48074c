import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";

const DIR = join(dirname(fileURLToPath(import.meta.url)), "golden");

/**
 * Compare text with test/fleet/golden/NAME. `UPDATE_GOLDEN=1 npx vitest run
 * test/fleet` rewrites the files (review the diff before committing).
 */
export function expectGolden(name: string, text: string): void {
  const file = join(DIR, name);
  if (process.env.UPDATE_GOLDEN === "1" || !existsSync(file)) {
    if (process.env.UPDATE_GOLDEN !== "1")
      throw new Error(`golden file ${name} is missing (UPDATE_GOLDEN=1 writes it)`);
    mkdirSync(DIR, { recursive: true });
    writeFileSync(file, text);
  }
  expect(text).toBe(readFileSync(file, "utf8"));
}
