import { afterAll, beforeAll, describe, expect, it } from "vitest";

describe("settleHeap", () => {
  const g = globalThis as { gc?: () => void };
  const had = g.gc;
  // settleHeap keeps the first gc it finds: one stub for the whole file, counting calls
  let calls = 0;
  let settleHeap: (now?: number, used?: number) => void;
  beforeAll(async () => {
    g.gc = () => {
      calls++;
    };
    ({ settleHeap } = await import("../../src/memory.js"));
  });
  afterAll(() => {
    g.gc = had;
  });
  const MiB = 1024 * 1024;

  it("collects at most once per interval, however often long loops call it", () => {
    const before = calls;
    const t0 = Date.now() + 1_000; // past the interval since the module loaded
    // 100 calls over one second, the heap over the minimum but under the floor
    for (let t = t0; t < t0 + 1_000; t += 10) settleHeap(t, 17 * MiB);
    expect(calls - before).toBe(5); // at t0, +200, +400, +600, +800
    settleHeap(t0 + 999, 17 * MiB);
    expect(calls - before).toBe(5);
    settleHeap(t0 + 1_000, 17 * MiB);
    expect(calls - before).toBe(6);
  });

  it("never collects a heap under 16 MiB (a full collection would cost more than it frees)", () => {
    const before = calls;
    const t0 = Date.now() + 5_000;
    for (let t = t0; t < t0 + 2_000; t += 10) settleHeap(t, 15 * MiB);
    expect(calls - before).toBe(0);
    settleHeap(t0 + 2_200, 16 * MiB); // at the minimum: collected at the next interval
    expect(calls - before).toBe(1);
  });

  it("collects sooner when a fast loop grows the heap 8 MiB past what the last collection left", () => {
    const t = Date.now() + 10_000;
    settleHeap(t, 20 * MiB); // due by time: collects, leaving 20 MiB, so the floor is 28 MiB
    const before = calls;
    for (let i = 0; i < 640; i++) settleHeap(t + 1, 25 * MiB); // within the interval, under the floor
    expect(calls - before).toBe(0);
    for (let i = 0; i < 64; i++) settleHeap(t + 2, 30 * MiB); // over it: collected at the next look
    expect(calls - before).toBe(1);
  });
});
