import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Target } from "../../src/config/target.js";
import { History } from "../../src/gateway/history.js";
import { undoHistory } from "../../src/ops/undo/history.js";

// The undo list through the op: the target and owner selected now, or every one's (allOwners).

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "rentctl-undo-owner-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const where = { env: "test", baseUrl: "https://p.example" };
const ctxFor = (t: Partial<Target>) => ({
  paths: { dataDir: dir } as never,
  target: async () => ({ ...where, embeddedSandbox: false, ...t }) as Target,
});

describe("undoHistory's owner filter", () => {
  beforeEach(() => {
    const h = new History(dir);
    const e = { action: "vehicle.edit" as const, before: { price_per_day: 1 }, ...where };
    h.record({ ...e, id: 1, userId: 1001 }, 0); // op 1
    h.record({ ...e, id: 2, userId: 1002 }, 0); // op 2
    h.record({ ...e, id: 3 }, 0); // op 3: an entry naming no owner
    h.record({ ...e, id: 4, userId: 1001, baseUrl: "https://other.example" }, 0); // op 4: another address
  });
  const ops = async (t: Partial<Target>, allOwners?: boolean) =>
    (await undoHistory(ctxFor(t), { allOwners })).map((r) => r.op);

  it("lists the ops of the same address and owner only", async () => {
    expect(await ops({ userId: 1001 })).toEqual(["1"]);
    expect(await ops({ userId: 1002 })).toEqual(["2"]);
  });

  it("an entry naming no owner is listed for a target without one, not for an owner's", async () => {
    expect(await ops({})).toEqual(["3"]);
    expect(await ops({ userId: 1003 })).toEqual([]);
  });

  it("allOwners lists every entry, with its owner, without resolving the target", async () => {
    const rows = await undoHistory(
      {
        paths: { dataDir: dir } as never,
        target: () => Promise.reject(new Error("not resolved")),
      },
      { allOwners: true },
    );
    expect(rows.map((r) => [r.op, r.user_id])).toEqual([
      ["4", 1001],
      ["3", null],
      ["2", 1002],
      ["1", 1001],
    ]);
  });
});
