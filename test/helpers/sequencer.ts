import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The longest files first, so no worker is left with a long file at the end
 * while the others are idle. Vitest orders by the durations of the last run
 * when it has them (node_modules/.vite), else by file size; the crash-safety
 * tests (`kill.e2e.test.ts`, `*.kill.e2e.test.ts`, each a minute of
 * processes killed and rerun) are short files, so a fresh checkout (CI)
 * would start them last. They go first, with the help examples (every
 * example of every help page run through the built CLI, one after another),
 * then the other spawned-CLI files (`test/e2e/`, `*.e2e.test.ts`), each
 * group in vitest's own order.
 */
const LONG = /[/.]kill\.e2e\.test\.ts$|\/help-examples\.test\.ts$/;
const SPAWNING = /[/.]e2e[/.]/;
export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => (LONG.test(f.moduleId) ? 0 : SPAWNING.test(f.moduleId) ? 1 : 2);
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
      .map(({ f }) => f);
  }
}
