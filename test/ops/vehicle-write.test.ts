import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONCURRENCY, checkConcurrency } from "../../src/base/concurrency.js";
import { EXIT, InputError, UsageError } from "../../src/base/errors.js";
import { fold } from "../../src/base/nearest.js";
import { EXTRA_EDITABLE_FIELDS, EXTRA_FIELDS } from "../../src/contract/extra-fields.js";
import { VEHICLE_CLIENT_FILLED, VEHICLE_EDITABLE_FIELDS, VEHICLE_FIELDS } from "../../src/contract/vehicle-fields.js";
import { sampleVehicle } from "../../src/library/sandbox.js";
import { createVehicle } from "../../src/ops/vehicle/create.js";
import { editVehicle } from "../../src/ops/vehicle/edit.js";
import { RegistrationTakenError } from "../../src/ops/vehicle/registration.js";
import { type OpBench, opBench } from "./helpers.js";

/**
 * The write operations of one vehicle (src/ops/vehicle/create.ts, edit.ts) in-process against
 * the sandbox, and the rules they share with every front end: the client-filled fields from the
 * contract table, the one taken-registration refusal, the one concurrency bound, the one text fold.
 */

let b: OpBench;
beforeAll(async () => {
  b = await opBench();
});
afterAll(async () => {
  await b?.close();
});

const car = (reg: string, extra: Record<string, unknown> = {}) => ({
  ...sampleVehicle(1001),
  vehicle_reg_number: reg,
  ...extra,
});

describe("createVehicle", () => {
  it("creates the vehicle and returns its id and record; the target is reported before sending", async () => {
    const seen: string[] = [];
    b.mark();
    const r = await createVehicle(b.ctx, { values: car("OPS 1") }, { onProgress: (p) => seen.push(p.what) });
    expect(r.dryRun).toBeUndefined();
    expect(r.id).toBeGreaterThan(0);
    expect(b.sent()).toContain("vehicles.create");
    expect(seen).toEqual(["creating a vehicle"]);
  });

  it("a dry run checks everything and sends nothing: it answers the request", async () => {
    b.mark();
    const r = await createVehicle(b.ctx, { values: car("OPS DRY"), dryRun: true });
    expect(r.dryRun?.request).toMatchObject({ method: "POST" });
    expect(b.sent()).not.toContain("vehicles.create");
  });

  it("a registration number the account has is refused (RegistrationTakenError, exit 2, nothing sent) unless allowed", async () => {
    b.mark();
    const err = await createVehicle(b.ctx, { values: car(" b-sc 1001 ") }).catch((e) => e);
    expect(err).toBeInstanceOf(RegistrationTakenError);
    expect(err).toBeInstanceOf(InputError);
    expect(err.exitCode).toBe(EXIT.usage);
    expect(err.message).toBe('vehicle 1 already has registration number "b-sc 1001"; nothing was sent');
    expect(err.taken).toEqual([1]);
    expect(b.sent()).not.toContain("vehicles.create");
    const ok = await createVehicle(b.ctx, { values: car("B-SC 1001"), allowDuplicate: true });
    expect(ok.id).toBeGreaterThan(0);
  });

  it("every contract problem is listed at once, nothing sent", async () => {
    b.mark();
    const err = await createVehicle(b.ctx, {
      values: car("OPS BAD", { price_per_day: -1, pickup_location: "" }),
    }).catch((e) => e);
    expect(err).toBeInstanceOf(InputError);
    expect(err.details.map((d: { field: string }) => d.field)).toEqual(
      expect.arrayContaining(["price_per_day", "pickup_location"]),
    );
    expect(b.sent()).not.toContain("vehicles.create");
  });
});

describe("editVehicle", () => {
  it("changes a field through the guarded edit and records it for undo", async () => {
    const r = await editVehicle(b.ctx, { id: 2, changes: { price_per_day: 77 } });
    expect(r.sent).toBe(true);
    expect(r.changes).toEqual([{ field: "price_per_day", before: expect.anything(), after: 77 }]);
    expect(r.undoOp).toBeDefined();
  });

  it("the same change again sends nothing; client-filled fields are no part of a change", async () => {
    b.mark();
    const r = await editVehicle(b.ctx, { id: 2, changes: { price_per_day: 77, user_id: 1002, locale_id: 7 } });
    expect(r).toMatchObject({ sent: false, changes: [] });
    expect(b.sent()).not.toContain("vehicles.edit");
  });

  it("a dry run answers the difference and the request, sends nothing", async () => {
    b.mark();
    const r = await editVehicle(b.ctx, { id: 2, changes: { price_per_day: 78 }, dryRun: true });
    expect(r.sent).toBe(false);
    expect(r.changes).toEqual([{ field: "price_per_day", before: 77, after: 78 }]);
    expect(r.dryRun?.request).toBeDefined();
    expect(b.sent()).not.toContain("vehicles.edit");
  });

  it("another vehicle's registration number is refused; its own is kept; allowDuplicate gives it", async () => {
    const err = await editVehicle(b.ctx, { id: 3, changes: { vehicle_reg_number: "m-sc 2002" } }).catch((e) => e);
    expect(err).toBeInstanceOf(RegistrationTakenError);
    expect(err.message).toBe('vehicle 2 already has registration number "m-sc 2002"; nothing was sent');
    const own = await editVehicle(b.ctx, { id: 2, changes: { vehicle_reg_number: "M-SC 2002" }, dryRun: true });
    expect(own.changes).toEqual([]);
    const ok = await editVehicle(b.ctx, {
      id: 3,
      changes: { vehicle_reg_number: "M-SC 2002" },
      allowDuplicate: true,
      dryRun: true,
    });
    expect(ok.changes.map((c) => c.field)).toEqual(["vehicle_reg_number"]);
  });
});

describe("one copy of each rule", () => {
  it("the editable fields are the contract table's, without the ones marked client-filled", () => {
    expect([...VEHICLE_CLIENT_FILLED].sort()).toEqual(["locale_id", "user_id"]);
    expect(VEHICLE_EDITABLE_FIELDS.map((f) => f.name)).toEqual(
      VEHICLE_FIELDS.map((f) => f.name).filter((n) => n !== "user_id" && n !== "locale_id"),
    );
    expect(EXTRA_EDITABLE_FIELDS.map((f) => f.name)).toEqual(
      EXTRA_FIELDS.map((f) => f.name).filter((n) => n !== "locale_id"),
    );
  });

  it("the concurrency bound: 1 to 16, 4 by default; out of range is a usage error, never clamped", () => {
    expect(checkConcurrency(undefined)).toBe(CONCURRENCY.default);
    expect(checkConcurrency(1)).toBe(1);
    expect(checkConcurrency(16)).toBe(16);
    for (const n of [0, 17, 2.5, Number.NaN])
      expect(() => checkConcurrency(n)).toThrow(
        new UsageError(`concurrency must be a whole number from 1 to 16, not ${n}`),
      );
  });

  it("the text fold: case, accents and compatibility forms", () => {
    expect(fold("München")).toBe("munchen");
    expect(fold("ŠKODA Octavia")).toBe("skoda octavia");
    expect(fold("\uFB01at")).toBe("fiat");
    expect(fold("Citroe\u0308n")).toBe(fold("Citroën"));
  });
});

describe("removeVehicle and setVehicleActivity", () => {
  it("deactivate then activate through the safe edit; the same state again sends nothing", async () => {
    const { setVehicleActivity } = await import("../../src/ops/vehicle/activate.js");
    const off = await setVehicleActivity(b.ctx, { id: 2, active: false });
    expect(off).toMatchObject({ id: 2, vehicle_activity: 0, changed: true });
    b.mark();
    const again = await setVehicleActivity(b.ctx, { id: 2, active: false });
    expect(again.changed).toBe(false);
    expect(b.sent()).not.toContain("vehicles.edit");
    const dry = await setVehicleActivity(b.ctx, { id: 2, active: true, dryRun: true });
    expect(dry.changes).toEqual([{ field: "vehicle_activity", before: 0, after: 1 }]);
    expect((await setVehicleActivity(b.ctx, { id: 2, active: true })).changed).toBe(true);
  });

  it("removes a vehicle with its undo op; a dry run answers the request and sends nothing", async () => {
    const { removeVehicle } = await import("../../src/ops/vehicle/remove.js");
    const made = await createVehicle(b.ctx, { values: car("OPS RM") });
    b.mark();
    const dry = await removeVehicle(b.ctx, { id: made.id!, dryRun: true });
    expect(dry.dryRun?.request).toMatchObject({ method: "POST" });
    expect(b.sent()).toEqual([]);
    const r = await removeVehicle(b.ctx, { id: made.id! });
    expect(r).toMatchObject({ id: made.id, removed: true });
    expect(r.undoOp).toBeDefined();
    expect(b.sent()).toContain("vehicles.remove");
  });
});
