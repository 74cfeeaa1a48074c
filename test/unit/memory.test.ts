import { afterAll, describe, expect, it } from "vitest";

describe("settleHeap", () => {
  const g = globalThis as { gc?: () => void };
  const had = g.gc;
  afterAll(() => {
    g.gc = had;
  });

  it("collects at most once per interval, however often long loops call it", async () => {
    let calls = 0;
    g.gc = () => {
      calls++;
    };
    const { settleHeap, useHeapPolicy } = await import("../../src/memory.js");
    const big = 100 * 1024 * 1024;
    const t0 = Date.now() + 1_000; // past the interval since the module loaded
    for (let t = t0; t < t0 + 1_000; t += 10) settleHeap(t, big); // 100 calls over one second
    expect(calls).toBe(5); // at t0, +200, +400, +600, +800
    settleHeap(t0 + 999, big);
    expect(calls).toBe(5);
    settleHeap(t0 + 1_000, big);
    expect(calls).toBe(6);
    // under the bulk policy a small heap is left alone: a collection would only cost time
    useHeapPolicy("bulk");
    settleHeap(t0 + 2_000, 4 * 1024 * 1024);
    expect(calls).toBe(6);
    settleHeap(t0 + 3_000, big);
    expect(calls).toBe(7);
  });
});
