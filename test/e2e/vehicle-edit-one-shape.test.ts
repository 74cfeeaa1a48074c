import { afterEach, describe, expect, it } from "vitest";
import { json, sandboxCli } from "../helpers/cli.js";

/**
 * One vehicle edit prints one result shape, whatever the value form: an
 * absolute value and a relative one (`+20%`, run on the bulk engine) both
 * print `{id, changes: [{field, before, after}], undo}` with -o json.
 */

const { cli, cleanup } = sandboxCli();
afterEach(cleanup);

interface EditResult {
  id: number;
  changes: Array<{ field: string; before: unknown; after: unknown }>;
  undo: string | null;
}

async function edit(...args: string[]) {
  // the sandbox's data in the temp home: each edit sees the one before, and is recorded for undo
  const r = await cli("vehicle", "edit", "1", ...args, "-o", "json", "--yes");
  expect(r.code, r.stderr).toBe(0);
  return json<EditResult>(r.stdout);
}

describe("vehicle edit ID -o json: one shape", () => {
  it("absolute and relative values give {id, changes, undo}", async () => {
    const absolute = await edit("--price-per-day", "50");
    const relative = await edit("--price-per-day", "+20%");
    expect(Object.keys(relative).sort()).toEqual(Object.keys(absolute).sort());
    expect(absolute).toMatchObject({ id: 1, changes: [{ field: "price_per_day", before: 45, after: 50 }] });
    expect(relative).toMatchObject({ id: 1, changes: [{ field: "price_per_day", before: 50, after: 60 }] });
    expect(typeof absolute.undo).toBe("string");
    expect(typeof relative.undo).toBe("string");
    expect(relative.undo).not.toBe(absolute.undo);
  });

  it("--add on one vehicle (also planned per vehicle) gives the same shape", async () => {
    const r = await edit("--add", "benefits=3");
    expect(r.id).toBe(1);
    expect(r.changes.map((c) => c.field)).toEqual(["vehicle_benefits_id"]);
    expect(Array.isArray(r)).toBe(false);
  });

  it("--dry-run: absolute and relative give {dry_run, id, changes, request}, with -o json", async () => {
    const absolute = json<Record<string, unknown>>(
      (await cli("vehicle", "edit", "1", "--price-per-day", "50", "--dry-run", "-o", "json")).stdout,
    );
    const relative = json<Record<string, unknown>>(
      (await cli("vehicle", "edit", "1", "--price-per-day", "+20%", "--dry-run", "-o", "json")).stdout,
    );
    expect(Object.keys(relative)).toEqual(Object.keys(absolute));
    expect(relative).toMatchObject({
      dry_run: true,
      id: 1,
      changes: [{ field: "price_per_day", before: 45, after: 54 }],
    });
    const req = (r: Record<string, unknown>) => r.request as { url: string; body: string };
    expect(req(relative).url).toBe(req(absolute).url);
    expect(req(relative).body).toMatch(/(^|&)vehicle_id=1(&|$)/);
    expect(req(relative).body).toMatch(/(^|&)price_per_day=54(&|$)/);
  });
});
