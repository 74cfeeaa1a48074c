import type { RentctlClient, VehicleInput } from "rentctl";
import { describe, expect, it } from "vitest";

/**
 * Type-level tests of the library (issue "rentctl as a library"): each
 * `@ts-expect-error` line must fail to compile, so `npm run typecheck` (CI's
 * tsc over test/) fails if the types ever accept a wrong field name or type.
 * The functions are never called; the runtime test only keeps vitest happy.
 */
function typeChecks(client: RentctlClient, valid: VehicleInput): void {
  void client.vehicles.create(valid);
  // @ts-expect-error: an unknown field name
  void client.vehicles.create({ ...valid, vehicle_colour: "red" });
  // @ts-expect-error: a price is a number
  void client.vehicles.create({ ...valid, price_per_day: "45" });
  // @ts-expect-error: a required field left out
  void client.vehicles.create({ pickup_location: "Berlin" });
  // @ts-expect-error: vehicle_activity is 0 or 1
  void client.vehicles.edit(1, { vehicle_activity: 2 });
  // @ts-expect-error: an edit takes fields of the contract only
  void client.vehicles.edit(1, { price: 3 });
  // @ts-expect-error: an extra's quantity is a number
  void client.extras.create({ option_id: 1, price: 5, currency_id: 1, period: 1, quantity: "2" });
  // @ts-expect-error: brands takes the contract's query parameters
  void client.catalog.brands({ brand: 1 });
  // @ts-expect-error: no such catalog
  void client.catalog.colours();
  void client.catalog.models({ brand_id: 3 });
}

describe("library types", () => {
  it("are checked by tsc (see the @ts-expect-error lines above)", () => {
    expect(typeof typeChecks).toBe("function");
  });
});
