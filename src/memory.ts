import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

// Flat memory on any fleet size (issue 15). A listing streamed page by page
// keeps little alive, but V8 lets garbage pile up in the old generation until
// its first full collection, whose threshold is far above what a CLI needs:
// peak memory then grows with the length of the run, not with what it holds.
// Long loops (every page of a walk, every row read from a fleet file or run
// by the bulk engine) call settleHeap;
// at most every INTERVAL_MS it runs a full collection (a few ms on a heap
// this small), so the peak stays where the first pages put it.
//
// Two policies, because two kinds of work:
// - "lean" (every command from the start, src/boot.ts): the young generation
//   keeps its starting size (V8 doubles it up to 32 MiB while many objects
//   survive, which in a long listing happens late and made the peak grow with
//   the fleet), and settleHeap collects whatever the heap holds.
// - "bulk" (fleet rows and the bulk runner): with hundreds of requests in
//   flight a small young generation means a collection every megabyte (~170
//   per 1,000 rows, 60 ms more), while its peak is reached within the first
//   rows anyway; settleHeap leaves a heap under 24 MiB alone.
// bench/memory.mjs and bench/bulk.mjs measure both.

export type HeapPolicy = "lean" | "bulk";
const POLICIES: Record<HeapPolicy, { growthFactor: number; minHeapBytes: number }> = {
  lean: { growthFactor: 1, minHeapBytes: 0 },
  bulk: { growthFactor: 2, minHeapBytes: 24 * 1024 * 1024 },
};
let policy = POLICIES.lean;

export function useHeapPolicy(name: HeapPolicy): void {
  policy = POLICIES[name];
  setFlagsFromString(`--semi-space-growth-factor=${policy.growthFactor}`);
}

const INTERVAL_MS = 200;
let collect: (() => void) | null | undefined;
let last = Date.now();

/** Collect the heap at most every INTERVAL_MS (and, under "bulk", only a big one). Cheap to call often. */
export function settleHeap(now: number = Date.now(), used?: number): void {
  if (now - last < INTERVAL_MS) return;
  last = now;
  if (policy.minHeapBytes > 0 && (used ?? getHeapStatistics().used_heap_size) < policy.minHeapBytes) return;
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
