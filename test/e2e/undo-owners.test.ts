import { afterEach, describe, expect, it } from "vitest";
import { sandboxCli } from "../helpers/cli.js";

// The undo history is one file shared by every profile and owner; `rentctl undo`
// lists the ops of the target and owner selected now, `--all-owners` every one's.

interface Row {
  op: string;
  action: string;
  id: number | null;
  user_id: number | null;
}

const sb = sandboxCli();
afterEach(() => sb.cleanup());
const { cli } = sb;

describe("undo list: the ops of the owner selected now", () => {
  /** Owner `user` edits its first vehicle; the op the CLI says undoes it. */
  const edit = async (user: string) => {
    const ids = await cli("vehicle", "list", "-q", "--user", user);
    expect(ids.code, ids.stderr).toBe(0);
    const id = ids.stdout.split("\n")[0]!;
    const r = await cli("vehicle", "edit", id, "--price-per-day", "77", "--user", user);
    expect(r.code, r.stderr).toBe(0);
    return { id: Number(id), op: /rentctl undo (\d+)/.exec(r.stderr)?.[1] };
  };
  const list = async (...args: string[]) => {
    const r = await cli("undo", "-o", "json", ...args);
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as Row[];
  };

  it("each owner lists only its own ops; --all-owners lists both, with their owners", async () => {
    const a = await edit("1001");
    const b = await edit("1002");
    expect(a.op).toBeDefined();
    expect(b.op).toBeDefined();
    expect((await list("--user", "1001")).map((r) => [r.op, r.id, r.user_id])).toEqual([[a.op, a.id, 1001]]);
    expect((await list("--user", "1002")).map((r) => [r.op, r.id, r.user_id])).toEqual([[b.op, b.id, 1002]]);
    const all = await list("--user", "1001", "--all-owners");
    expect(all.map((r) => [r.op, r.user_id])).toEqual([
      [b.op, 1002],
      [a.op, 1001],
    ]);
    // the table has an OWNER column only with --all-owners
    const table = await cli("undo", "--all-owners");
    expect(table.stdout.split("\n")[0]).toContain("OWNER");
    expect(table.stdout).toMatch(/1002/);
    expect((await cli("undo")).stdout.split("\n")[0]).not.toContain("OWNER");
  });

  it("another owner with nothing of its own: an empty list and a hint naming --all-owners", async () => {
    await edit("1001");
    const r = await cli("undo", "-o", "json", "--user", "1002");
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
    expect(r.stderr).toContain("--all-owners");
  });
});

describe("undo of an edit of many vehicles", () => {
  it("is recorded as one op, whose undo changes every vehicle back again", async () => {
    const prices = async () =>
      (
        JSON.parse((await cli("vehicle", "list", "--all", "-o", "json")).stdout) as Array<{
          id: number;
          price_per_day: number;
        }>
      ).map((v) => [v.id, Number(v.price_per_day)]);
    const start = await prices();
    const e = await cli("vehicle", "edit", "--where", "price_per_day>0", "--price-per-day", "+1", "--yes");
    expect(e.code, e.stderr).toBe(0);
    const op = /rentctl undo (\d+)/.exec(e.stderr)?.[1];
    const edited = await prices();
    expect(edited).not.toEqual(start);
    const u = await cli("undo", op!);
    expect(u.code, u.stderr).toBe(0);
    expect(await prices()).toEqual(start);
    const rows = JSON.parse((await cli("undo", "-o", "json")).stdout) as Array<{
      op: string;
      action: string;
      what: string;
      undone: string | null;
    }>;
    // the edit (undone) and its undo: one entry, not one per vehicle
    expect(rows).toHaveLength(2);
    const n = edited.filter((v, i) => v[1] !== start[i]![1]).length;
    expect(n).toBeGreaterThan(1);
    expect(rows[0]).toMatchObject({ action: "vehicle.edit", what: `changed ${n} vehicles`, undone: null });
    const redo = await cli("undo", rows[0]!.op);
    expect(redo.code, redo.stderr).toBe(0);
    expect(await prices()).toEqual(edited);
  });
});
