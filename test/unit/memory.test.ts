import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

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

  it("waits 400 ms after the program loaded before the first collection on time", async () => {
    // a fresh copy of the module, loaded at a known time
    const loaded = 1_700_000_000_000;
    vi.useFakeTimers({ now: loaded });
    vi.resetModules();
    const fresh = (await import("../../src/memory.js")).settleHeap;
    vi.useRealTimers();
    const before = calls;
    for (let t = loaded; t < loaded + 400; t += 10) fresh(t, 0); // 40 calls: under CHECK_EVERY
    expect(calls - before).toBe(0);
    fresh(loaded + 400, 0);
    expect(calls - before).toBe(1);
    fresh(loaded + 599, 0);
    expect(calls - before).toBe(1);
    fresh(loaded + 600, 0);
    expect(calls - before).toBe(2);
  });

  it("lets a fast loop's heap grow 8 MiB past what the first call saw before collecting", async () => {
    vi.resetModules();
    const fresh = (await import("../../src/memory.js")).settleHeap;
    const t = Date.now(); // within the first 400 ms of this copy
    const before = calls;
    fresh(t, 10 * MiB); // the first call: the floor is 18 MiB
    for (let i = 0; i < 128; i++) fresh(t, 17 * MiB);
    expect(calls - before).toBe(0);
    for (let i = 0; i < 64; i++) fresh(t, 18 * MiB);
    expect(calls - before).toBe(1);
  });

  it("collects at most once per interval, however often long loops call it", () => {
    const before = calls;
    const t0 = Date.now() + 1_000; // past the interval since the module loaded
    for (let t = t0; t < t0 + 1_000; t += 10) settleHeap(t, 0); // 100 calls over one second, small heap
    expect(calls - before).toBe(5); // at t0, +200, +400, +600, +800
    settleHeap(t0 + 999, 0);
    expect(calls - before).toBe(5);
    settleHeap(t0 + 1_000, 0);
    expect(calls - before).toBe(6);
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
