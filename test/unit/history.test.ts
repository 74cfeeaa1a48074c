import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { History, historyFor, historyTarget, remapEntry, sameTarget } from "../../src/gateway/history.js";

// The undo journal on its own (it was covered only through `rentctl undo`).

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "rentctl-journal-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const base = {
  action: "vehicle.edit" as const,
  id: 7,
  env: "test",
  baseUrl: "https://p.example",
  userId: 1001,
  before: { id: 7, price_per_day: 50 },
};

describe("History", () => {
  it("numbers entries 1, 2, 3 and keeps them in order, with the time given", () => {
    const j = new History(dir);
    const a = j.record(base, Date.UTC(2026, 0, 1));
    const b = j.record({ ...base, id: 8 }, Date.UTC(2026, 0, 2));
    expect([a.op, b.op]).toEqual(["1", "2"]);
    expect(a.time).toBe("2026-01-01T00:00:00.000Z");
    expect(new History(dir).entries().map((e) => [e.op, e.id])).toEqual([
      ["1", 7],
      ["2", 8],
    ]);
  });

  it("the file is created with mode 0600", () => {
    new History(dir).record(base, 0);
    expect(statSync(join(dir, "journal.jsonl")).mode & 0o777).toBe(0o600);
  });

  it("markUndone is read back on the entry", () => {
    const j = new History(dir);
    j.record(base, 0);
    j.markUndone("1", Date.UTC(2026, 5, 1));
    expect(j.entries()[0]?.undone).toBe("2026-06-01T00:00:00.000Z");
  });

  it("a torn last line (a crash mid-write) is skipped, and numbering goes on after the highest op", () => {
    const j = new History(dir);
    j.record(base, 0);
    j.record(base, 0);
    appendFileSync(join(dir, "journal.jsonl"), '{"op":"3","time":"2026');
    expect(j.entries().map((e) => e.op)).toEqual(["1", "2"]);
    expect(readFileSync(join(dir, "journal.jsonl"), "utf8")).toContain('"op":"3"');
    // the next entry starts on a line of its own: the torn fragment does not swallow it
    const next = j.record({ ...base, id: 9 }, 0);
    expect(next.op).toBe("3");
    expect(j.entries().map((e) => e.id)).toEqual([7, 7, 9]);
  });

  it("a change to many vehicles is one entry with every previous record", () => {
    const j = new History(dir);
    const e = j.record(
      {
        ...base,
        items: [
          { id: 7, before: { id: 7 } },
          { id: 8, before: { id: 8 } },
        ],
      },
      0,
    );
    expect(j.entries()[0]?.items).toHaveLength(2);
    expect(e.op).toBe("1");
  });
});

describe("binding entries to their target", () => {
  const remote = { env: "test", baseUrl: "https://p.example", userId: 1001, embeddedSandbox: false };
  const sandboxFile = {
    env: "sandbox",
    baseUrl: "http://127.0.0.1:4711",
    userId: 1001,
    embeddedSandbox: true,
    sandboxDataFile: "/d/sandbox.json",
  };

  it("nothing is journaled for a throw-away in-memory sandbox", () => {
    expect(historyFor(dir, { ...sandboxFile, sandboxDataFile: null })).toBeUndefined();
    expect(historyFor(dir, sandboxFile)).toBeInstanceOf(History);
  });

  it("the embedded sandbox is bound by its data file (its address changes every run)", () => {
    const e = { ...base, op: "1", time: "", ...historyTarget(sandboxFile) };
    expect(sameTarget(e, { ...sandboxFile, baseUrl: "http://127.0.0.1:9999" })).toBe(true);
    expect(sameTarget(e, { ...sandboxFile, sandboxDataFile: "/other.json" })).toBe(false);
    expect(sameTarget(e, { ...sandboxFile, sandboxDataFile: null })).toBe(false);
  });

  it("a server is bound by its address and owner", () => {
    const e = { ...base, op: "1", time: "", ...historyTarget(remote) };
    expect(sameTarget(e, remote)).toBe(true);
    expect(sameTarget(e, { ...remote, baseUrl: "https://other.example" })).toBe(false);
    expect(sameTarget(e, { ...remote, userId: 1002 })).toBe(false);
  });
});

describe("ids an undo re-created (issue 41 item 2)", () => {
  it("are noted with the undo and followed through every re-creation, by kind", () => {
    const j = new History(dir);
    j.record(base, 0);
    j.markUndone("1", 0, [{ kind: "extra", from: 5, to: 7 }]);
    j.markUndone("2", 0, [
      { kind: "extra", from: 7, to: 9 },
      { kind: "vehicle", from: 5, to: 6 },
    ]);
    const ids = j.recreatedIds();
    const e = remapEntry(
      {
        ...base,
        op: "3",
        time: "t",
        id: 5,
        action: "extra.switch",
        before: { id: 5, used_by: [5, 8] },
      },
      ids,
    );
    expect(e.id).toBe(9);
    expect(e.before.used_by).toEqual([6, 8]);
    const v = remapEntry({ ...base, op: "4", time: "t", id: 5, before: { id: 5, vehicle_extras: [5, "7", 2] } }, ids);
    expect(v.id).toBe(6);
    expect(v.before.vehicle_extras).toEqual([9, 9, 2]);
    // the entry as listed is left as it was
    expect(j.entries()[0]!.id).toBe(7);
  });
});
