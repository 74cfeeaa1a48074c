import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * Keeps a long streaming job's heap flat. Streaming keeps nothing per row
 * alive, but V8 lets short-lived garbage pile up in old space for a long
 * time before a full collection, so peak RSS grew with the file size
 * anyway. Every `every` rows, when the heap holds more than `limitMb`, this
 * asks for a full collection (V8's gc, made callable at run time).
 */
export function heapGuard(every = 500, limitMb = 24): () => void {
  let gc: (() => void) | undefined;
  let n = 0;
  return () => {
    if (++n % every !== 0) return;
    if (getHeapStatistics().used_heap_size < limitMb * 1024 * 1024) return;
    if (!gc) {
      setFlagsFromString("--expose-gc");
      gc = runInNewContext("gc") as () => void;
    }
    gc();
  };
}
