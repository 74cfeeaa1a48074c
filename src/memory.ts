import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

// Flat memory on any fleet size (issue 15). A listing streamed page by page
// keeps little alive, but V8 lets garbage pile up in the old generation until
// its first full collection, whose threshold is far above what a CLI needs:
// peak memory then grows with the length of the run, not with what it holds.
// Long loops (every page of a walk, every row read from a fleet file or run
// by the bulk engine) call settleHeap;
// at most every INTERVAL_MS it runs a full collection (a few ms on a heap this
// small), so the peak stays where the first pages put it. The young
// generation's growth is capped in src/boot.ts. bench/memory.mjs measures both.

const INTERVAL_MS = 200;
let collect: (() => void) | null | undefined;
let last = Date.now();

/** Collect the heap when the last collection is INTERVAL_MS old. Cheap to call often. */
export function settleHeap(now: number = Date.now()): void {
  if (now - last < INTERVAL_MS) return;
  last = now;
  if (collect === undefined) collect = gcFunction();
  collect?.();
}

/** V8's gc(), which Node exposes only behind a flag that can be set while running. */
function gcFunction(): (() => void) | null {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (existing) return existing;
  try {
    setFlagsFromString("--expose-gc");
    return runInNewContext("gc") as () => void;
  } catch {
    return null;
  }
}
