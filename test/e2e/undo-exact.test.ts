import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { activeOf } from "../../src/contract/extra-fields.js";
import type { JsonObject } from "../../src/contract/records.js";
import { ndjson, vehicleRow } from "../fleet/helpers.js";
import { extraCreateArgs, json, runMain, sandboxEnv } from "../helpers/cli.js";

/** Issue 41 items 2 and 11: an undo restores exactly, says which ids changed, and the list says what each op did. */

const dir = mkdtempSync(join(tmpdir(), "undo-exact-e2e-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let s: Awaited<ReturnType<typeof sandboxEnv>>;
beforeEach(async () => {
  s = await sandboxEnv();
});
afterEach(async () => {
  await s.cleanup();
});
const run = (args: string[]) => runMain([...args, "--user", "1003"], s.env);
const createExtra = async (option: number) => {
  const r = await run(extraCreateArgs({ option, price: 8, currency: "EUR", period: 1, quantity: 1 }));
  expect(r.code).toBe(0);
  return Number(r.stdout.trim());
};
const undoList = async () => json<Array<Record<string, unknown>>>((await run(["undo", "-o", "json"])).stdout);

describe("undo restores exactly (issue 41 item 2)", () => {
  it("extra disable, extra delete, undo: the extra comes back off, under a new id the undo names", async () => {
    const id = await createExtra(1);
    expect((await run(["extra", "disable", String(id)])).code).toBe(0);
    const del = await run(["extra", "delete", String(id), "--yes"]);
    expect(del.code).toBe(0);
    const op = /rentctl undo (\d+)/.exec(del.stderr)![1]!;
    const undo = await run(["undo", op, "-o", "json"]);
    expect(undo.code).toBe(0);
    const back = json<{ recreated_from: number; id: number }>(undo.stdout);
    expect(back.recreated_from).toBe(id);
    expect(undo.stderr).toContain(`${id} → ${back.id}`);
    const extras = json<Array<Record<string, unknown>>>((await run(["extra", "list", "-o", "json"])).stdout);
    const again = extras.find((e) => Number(e.id) === back.id)!;
    expect(activeOf(again as JsonObject)).toBe(false);
  });

  it("undone in reverse order (delete, then disable): the earlier undo acts on the id the later one re-created", async () => {
    const id = await createExtra(2);
    const disable = await run(["extra", "disable", String(id)]);
    expect(disable.code).toBe(0);
    const del = await run(["extra", "delete", String(id), "--yes"]);
    const [disableOp, deleteOp] = (await undoList())
      .map((e) => String(e.op))
      .reverse()
      .slice(-2);
    expect(del.code).toBe(0);
    const back = json<{ id: number }>((await run(["undo", deleteOp!, "-o", "json"])).stdout);
    const undo = await run(["undo", disableOp!]);
    expect(undo.stderr).toContain(`extra ${back.id} switched back on`);
    expect(undo.code).toBe(0);
    const extras = json<Array<Record<string, unknown>>>((await run(["extra", "list", "-o", "json"])).stdout);
    expect(activeOf(extras.find((e) => Number(e.id) === back.id) as JsonObject)).toBe(true);
  });

  it("a create, an enable / disable and a switch each leave an entry, and undo reverses each", async () => {
    const id = await createExtra(3);
    expect((await undoList())[0]).toMatchObject({ action: "extra.create", id, what: "created" });
    expect((await run(["extra", "disable", String(id)])).code).toBe(0);
    expect((await undoList())[0]).toMatchObject({ action: "extra.switch", id, what: "switched off" });
    const op = String((await undoList())[0]!.op);
    expect((await run(["undo", op])).code).toBe(0);
    const on = json<Array<Record<string, unknown>>>((await run(["extra", "list", "-o", "json"])).stdout);
    expect(activeOf(on.find((e) => Number(e.id) === id) as JsonObject)).toBe(true);
    // the create's undo deletes it
    const createOp = String((await undoList()).find((e) => e.action === "extra.create")!.op);
    expect((await run(["undo", createOp])).code).toBe(0);
    expect((await run(["extra", "get", String(id)])).code).toBe(5);
  });
});

describe("the undo list says what each op did (issue 41 item 11)", () => {
  it("an activate is not a bare vehicle.edit, and an import or apply shows no id 0", async () => {
    const f = join(dir, "fleet.ndjson");
    writeFileSync(f, ndjson([vehicleRow("UL-1", { vehicle_activity: 0 })]));
    expect((await run(["vehicle", "import", f])).code).toBe(0);
    const vid = (await run(["vehicle", "list", "-q"])).stdout.trim();
    expect((await run(["vehicle", "activate", vid])).code).toBe(0);
    const [activate, imported] = await undoList();
    expect(activate).toMatchObject({ action: "vehicle.edit", id: Number(vid), what: "changed vehicle_activity" });
    expect(imported).toMatchObject({ action: "vehicle.import", id: null, what: "1 vehicle" });
    // plurals: one field, one vehicle
    const undo = await run(["undo", String(activate!.op)]);
    expect(undo.stderr).toContain("(1 field)");
    const many = await run(["vehicle", "edit", "--where", "price_per_day>0", "--price-per-day", "50", "--yes"]);
    expect(many.code).toBe(0);
    const op = /rentctl undo (\d+)/.exec(many.stderr)![1]!;
    const back = await run(["undo", op]);
    expect(back.stderr).toContain("✓ 1 vehicle restored to its state before operation");
  });
});
