import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

// Flat memory on any fleet size (issue 15). A listing streamed page by page,
// or a fleet file read row by row, keeps little alive, but V8 lets garbage
// pile up in the old generation until its first full collection, whose
// threshold is far above what a CLI needs: peak memory then grows with the
// length of the run, not with what it holds. Long loops (every page of a
// walk, every row read from a fleet file or run by the bulk engine) call
// settleHeap, which runs a full collection (a few ms on a heap this small)
// every INTERVAL_MS, and sooner when a fast loop (the whole-file check of a
// 50,000-row import) has grown the heap SLACK_BYTES past what the last
// collection left. (Collecting on heap size alone was tried: listings then
// grew again; on time alone, the fast loops did.) Neither collects a heap
// under MIN_HEAP_BYTES: a full collection costs ~10 ms however little it
// frees (the code loaded at start-up is marked too), and a heap that small
// is no memory worry (a 1,000-vehicle diff or listing stays under it).
//
// The young generation: V8 doubles it (up to 32 MiB) while many objects
// survive, which in a long run happens late and made the peak grow with the
// fleet. It keeps its starting size. Measured: bulk work would run ~7% faster
// with it growing, but its peak memory would grow with the file
// (bench/bulk.mjs). bench/memory.mjs and bench/bulk.mjs measure both.
//
// Both flags are set by src/boot.ts before the bundle compiles, never later:
// V8 rejects a code cache made under other flags (see tuneV8 there).

const MEMORY_FLAGS = ["--semi-space-growth-factor=1", "--expose-gc"];

/** The young generation at its starting size, and V8's gc() reachable (for settleHeap). */
export function setMemoryFlags(): void {
  for (const flag of MEMORY_FLAGS) setFlagsFromString(flag);
  flagsSet = true;
}

let flagsSet = false;

const INTERVAL_MS = 200;
const SLACK_BYTES = 8 * 1024 * 1024;
const MIN_HEAP_BYTES = 16 * 1024 * 1024;
const CHECK_EVERY = 64;
let collect: (() => void) | null | undefined;
let last = Date.now();
let calls = 0;
let floor = MIN_HEAP_BYTES;

/**
 * Collect the heap when the last collection (or look) is INTERVAL_MS old, or
 * sooner when a fast loop has grown the heap SLACK_BYTES past what it left
 * (looked at every CHECK_EVERY calls); never while it is under
 * MIN_HEAP_BYTES. Cheap to call often. `used` replaces the heap reading (tests).
 */
export function settleHeap(now: number = Date.now(), used?: number): void {
  const heapUsed = () => used ?? getHeapStatistics().used_heap_size;
  let due = false;
  if (now - last >= INTERVAL_MS) {
    last = now; // looked at: the next look is an interval away, collected or not
    due = heapUsed() >= MIN_HEAP_BYTES;
  } else if (++calls >= CHECK_EVERY) due = heapUsed() >= floor;
  if (calls >= CHECK_EVERY) calls = 0;
  if (!due) return;
  last = now;
  calls = 0;
  if (collect === undefined) collect = gcFunction();
  if (!collect) return;
  collect();
  floor = Math.max(heapUsed() + SLACK_BYTES, MIN_HEAP_BYTES);
}

/**
 * V8's gc(): with --expose-gc (set at start-up by setMemoryFlags) a new
 * context has it. Without boot (tests, `node dist/rentctl.cjs`) the flag is
 * set here, once.
 */
function gcFunction(): (() => void) | null {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (existing) return existing;
  try {
    if (!flagsSet) setFlagsFromString("--expose-gc");
    return runInNewContext("gc") as () => void;
  } catch {
    return null;
  }
}
