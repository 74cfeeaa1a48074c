import { describe, expect, it } from "vitest";
import { CREATE_ROW, EXTRA_ROW, extraCreateKey, fileRow } from "../../src/bulk/converge.js";
import { type ExtraState, extraTwins } from "../../src/plans/account-extras.js";

// Extras converge as vehicles do (issue 41 item 0): one per option and period, the lowest id kept,
// and a job removes only the copies it created (or, for a create whose answer was lost, the newest).

const extra = (id: number, option_id: number, period: number): ExtraState => ({
  id,
  option_id,
  period,
  record: { id, option_id, period },
});

describe("extraTwins", () => {
  const account = [extra(6, 5, 2), extra(8, 5, 2), extra(9, 5, 2), extra(7, 1, 1), extra(10, 1, 2)];

  it("a job's extra with an older twin of the same option and period is a copy; the lowest id is kept", () => {
    expect(extraTwins(account, new Set([8]))).toEqual([{ id: 8, kept: 6, option_id: 5, period: 2 }]);
  });

  it("the lowest of an identity is never a copy, and an extra of another run or a person is never removed", () => {
    expect(extraTwins(account, new Set([6]))).toEqual([]);
    expect(extraTwins(account, new Set([7, 10]))).toEqual([]);
    expect(extraTwins(account, new Set())).toEqual([]);
  });

  it("a create in flight (answer lost): the newest of its identity is presumed the job's, unless known as another's", () => {
    expect(extraTwins(account, new Set(), new Set(["5/2"]))).toEqual([{ id: 9, kept: 6, option_id: 5, period: 2 }]);
    expect(extraTwins(account, new Set(), new Set(["5/2"]), new Set([9]))).toEqual([]);
    // an identity held once is no copy, whatever the job sent
    expect(extraTwins(account, new Set(), new Set(["1/1"]))).toEqual([]);
  });

  it("copies known and presumed together, each once, in id order", () => {
    expect(extraTwins(account, new Set([8, 9]), new Set(["5/2"])).map((t) => t.id)).toEqual([8, 9]);
  });
});

describe("an account apply's row numbers", () => {
  it("creates, extras rows and removals map back to the file's row (0 for a removal)", () => {
    expect(fileRow(12)).toBe(12);
    expect(fileRow(CREATE_ROW + 12)).toBe(12);
    expect(fileRow(EXTRA_ROW + 3)).toBe(3);
    expect(fileRow(-42)).toBe(0);
    expect(fileRow(-(EXTRA_ROW + 7))).toBe(0);
  });

  it("an extra create's key names it as new (a rerun tells a create in flight by it)", () => {
    expect(extraCreateKey("Snow chains (period 2)")).toBe("extra Snow chains (period 2, new)");
  });
});
