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
// grew again; on time alone, the fast loops did.) The first collection on
// time waits FIRST_MS: a command that ends sooner (a listing or a diff of
// ~1,000 vehicles) never pays it (~10 ms, however little it frees: the code
// loaded at start-up is marked too), nor the one a fast loop would make as
// soon as it starts (it waits for the heap to grow SLACK_BYTES past what the
// first call saw). A heap-size floor for every collection was tried: every
// listing's peak then rose by the floor.
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
const FIRST_MS = 400;
const SLACK_BYTES = 8 * 1024 * 1024;
const CHECK_EVERY = 64;
let collect: (() => void) | null | undefined;
/** When the next collection on time is due: FIRST_MS after the program loaded, then INTERVAL_MS after each. */
let next = Date.now() + FIRST_MS;
let calls = 0;
/** The heap a fast loop may grow to before a collection: SLACK_BYTES past what the last one left (or the first call saw). */
let floor: number | undefined;

/**
 * Collect the heap when the next collection on time is due, or sooner when a
 * fast loop has grown the heap SLACK_BYTES past what the last one left
 * (looked at every CHECK_EVERY calls). Cheap to call often. `used` replaces
 * the heap reading (tests).
 */
export function settleHeap(now: number = Date.now(), used?: number): void {
  const heapUsed = () => used ?? getHeapStatistics().used_heap_size;
  floor ??= heapUsed() + SLACK_BYTES;
  const due = now >= next || (++calls >= CHECK_EVERY && heapUsed() >= floor);
  if (calls >= CHECK_EVERY) calls = 0;
  if (!due) return;
  next = now + INTERVAL_MS;
  calls = 0;
  if (collect === undefined) collect = gcFunction();
  if (!collect) return;
  collect();
  floor = heapUsed() + SLACK_BYTES;
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
