import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NotFoundError } from "../../src/api/errors.js";
import { InputError } from "../../src/base/errors.js";
import { createExtra } from "../../src/ops/extra/create.js";
import { deleteExtra } from "../../src/ops/extra/delete.js";
import { disableExtra, enableExtra } from "../../src/ops/extra/enable.js";
import { switchExtra } from "../../src/ops/extra/switch.js";
import { updateExtra } from "../../src/ops/extra/update.js";
import { editVehicle } from "../../src/ops/vehicle/edit.js";
import { type OpBench, opBench } from "./helpers.js";

/** The write operations of extras (src/ops/extra/*) in-process against the sandbox: data back, nothing printed. */

let b: OpBench;
beforeAll(async () => {
  b = await opBench();
});
afterAll(async () => {
  await b?.close();
});

const extra = { option_id: 1, price: 10, currency_id: 1, period: 1, quantity: 2 };

describe("extra write operations", () => {
  it("createExtra creates and returns the id; a dry run and a bad member send nothing", async () => {
    b.mark();
    const dry = await createExtra(b.ctx, { values: extra, dryRun: true });
    expect(dry.dryRun?.request).toBeDefined();
    const bad = await createExtra(b.ctx, { values: { ...extra, period: 9 } }).catch((e) => e);
    expect(bad).toBeInstanceOf(InputError);
    expect(b.sent()).not.toContain("extras.create");
    const made = await createExtra(b.ctx, { values: extra });
    expect(made.id).toBeGreaterThan(0);
    expect(b.sent()).toContain("extras.create");
  });

  it("updateExtra keeps the members not given; the same change again sends nothing", async () => {
    const made = await createExtra(b.ctx, { values: extra });
    const id = made.id!;
    const r = await updateExtra(b.ctx, { id, changes: { price: 12, locale_id: 7 } });
    expect(r.sent).toBe(true);
    expect(r.changes.map((c) => c.field)).toEqual(["price"]);
    b.mark();
    const again = await updateExtra(b.ctx, { id, changes: { price: 12 } });
    expect(again).toMatchObject({ sent: false, changes: [] });
    expect(b.sent()).not.toContain("extras.update");
  });

  it("enable / disable are idempotent; switch toggles; an unknown extra is not found", async () => {
    const id = (await createExtra(b.ctx, { values: extra })).id!;
    const off = await disableExtra(b.ctx, { id });
    const offAgain = await disableExtra(b.ctx, { id });
    expect(offAgain).toMatchObject({ state: "off", switched: false });
    expect(off.state).toBe("off");
    const on = await enableExtra(b.ctx, { id });
    expect(on).toMatchObject({ state: "on", switched: true });
    const toggled = await switchExtra(b.ctx, { id });
    expect(toggled.id).toBe(id);
    const dry = await switchExtra(b.ctx, { id, dryRun: true });
    expect(dry.dryRun?.request).toMatchObject({ method: "POST" });
    await expect(enableExtra(b.ctx, { id: 99_999 })).rejects.toBeInstanceOf(NotFoundError);
  });

  it("deleteExtra names the vehicles using it to confirm, records it for undo; a refusal sends nothing", async () => {
    const id = (await createExtra(b.ctx, { values: extra })).id!;
    await editVehicle(b.ctx, { id: 1, changes: { vehicle_extras: [id] } });
    b.mark();
    const refused = await deleteExtra(b.ctx, {
      id,
      confirm: async () => {
        throw new InputError("not confirmed");
      },
    }).catch((e) => e);
    expect(refused.message).toBe("not confirmed");
    expect(b.sent()).not.toContain("extras.delete");
    let asked: number[] = [];
    const r = await deleteExtra(b.ctx, {
      id,
      confirm: async (users) => {
        asked = users.map((u) => u.id);
      },
    });
    expect(asked).toEqual([1]);
    expect(r).toMatchObject({ id, deleted: true, usedBy: [{ id: 1 }] });
    expect(r.undoOp).toBeDefined();
    expect(b.sent()).toContain("extras.delete");
  });
});
