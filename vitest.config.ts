import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { SlowFirstSequencer } from "./test/helpers/sequencer.js";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // forks, not threads: tests spawn and kill processes and set process.env
    pool: "forks",
    // One worker per core, at least two: the suite mostly waits (spawned CLIs, sandboxes,
    // servers answering late), and vitest's default (cores - 1) ran it in one worker on 2 cores.
    maxWorkers: Math.max(2, availableParallelism()),
    sequence: { sequencer: SlowFirstSequencer },
    globalSetup: ["test/global-setup.ts"],
  },
});
