import { afterEach, describe, expect, it } from "vitest";
import { runMain, tempHome } from "../helpers/cli.js";

// Undo never duplicates (issue 16 item 9): entries are bound to the target
// they were taken on; a throw-away sandbox journals nothing; a removal is
// undone only when the vehicle is really gone.

describe("undo journal bound to its target", () => {
  const homes: Array<ReturnType<typeof tempHome>> = [];
  afterEach(() => {
    for (const h of homes.splice(0)) h.cleanup();
  });
  const home = () => {
    const h = tempHome();
    homes.push(h);
    return { ...h.env, RENTCTL_ENV: "sandbox" };
  };
  const regs = async (env: NodeJS.ProcessEnv) =>
    JSON.parse((await runMain(["vehicle", "list", "--all", "-o", "json"], env)).stdout).map(
      (v: { vehicle_reg_number: string }) => v.vehicle_reg_number,
    );

  it("a removal on a throw-away in-memory sandbox is not journaled", async () => {
    const env = { ...home(), RENTCTL_SANDBOX_MEMORY: "1" };
    const r = await runMain(["vehicle", "remove", "1", "--yes"], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain("undo with");
    const list = await runMain(["undo", "-o", "json"], env);
    expect(JSON.parse(list.stdout)).toEqual([]);
  });

  it("an entry of the persistent sandbox is refused on another target; nothing is re-created", async () => {
    const env = home();
    const r = await runMain(["vehicle", "remove", "1", "--yes"], env);
    expect(r.code, r.stderr).toBe(0);
    const op = /rentctl undo (\d+)/.exec(r.stderr)?.[1];
    expect(op).toBeDefined();
    // the same journal, another sandbox data file: refused
    const other = await runMain(["undo", op!], { ...env, RENTCTL_SANDBOX_MEMORY: "1" });
    expect(other.code).toBe(2);
    expect(other.stderr).toContain("not on the target selected now");
    // another owner: refused
    const owner = await runMain(["undo", op!, "--user", "1002"], env);
    expect(owner.code).toBe(2);
    // the right target: restored once
    const ok = await runMain(["undo", op!], env);
    expect(ok.code, ok.stderr).toBe(0);
    const after = await regs(env);
    expect(after.filter((x: string) => x === "B-SC 1001")).toHaveLength(1);
  });

  it("undoing a removal whose vehicle is back (same registration) is refused: no duplicate", async () => {
    const env = home();
    const car = (await runMain(["vehicle", "get", "1", "-o", "json"], env)).stdout;
    const r = await runMain(["vehicle", "remove", "1", "--yes"], env);
    const op = /rentctl undo (\d+)/.exec(r.stderr)?.[1] ?? "";
    // someone created it again meanwhile (a new id, the same registration number)
    const c = await runMain(["vehicle", "create", "--from-file", "-", "-q"], env, { input: car });
    expect(c.code, c.stderr).toBe(0);
    const again = await runMain(["undo", op], env);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("still in the account");
    expect((await regs(env)).filter((x: string) => x === "B-SC 1001")).toHaveLength(1);
  });
  it("undo with another owner's key: the read answered 401, one read tells why, exit 4, nothing written", async () => {
    const env = home();
    const r = await runMain(["vehicle", "edit", "--where", "price_per_day>0", "--price-per-day", "+1", "--yes"], env);
    expect(r.code, r.stderr).toBe(0);
    const op = /rentctl undo (\d+)/.exec(r.stderr)?.[1];
    expect(op).toBeDefined();
    const u = await runMain(["undo", op!, "--user", "1001", "-v"], { ...env, RENTCTL_API_KEY: "sandbox-key-1002" });
    expect(u.code, u.stderr).toBe(4);
    const sent = u.stderr.split("\n").filter((l) => l.startsWith("→ "));
    // the record's read (401), then one page of extras that tells "another owner's" from a bad key
    expect(sent).toHaveLength(2);
    expect(sent.every((l) => l.startsWith("→ GET "))).toBe(true);
    expect(sent[1]).toMatch(/extras\/list/);
    expect(u.stderr).toMatch(/is another owner's/);
  });
});
