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

/** The records the client returns are typed from the contract's record schemas (issue 40, "Done when"). */
async function recordChecks(client: RentctlClient): Promise<void> {
  const v = await client.vehicles.get(1);
  // @ts-expect-error: a misspelt field of a returned vehicle
  void v.price_per_dya;
  const n: number = v.price_per_day;
  const active: 0 | 1 = v.vehicle_activity;
  // @ts-expect-error: an optional field may be absent or null
  const vin: string = v.vehicle_vin;
  const images: number[] | null | undefined = v.vehicle_images;
  // members the contract does not name stay reachable, typed unknown
  const all: Readonly<Record<string, unknown>> = v;
  const created: unknown = all.created_at;
  const e = await client.extras.get(1);
  const price: number = e.price;
  // @ts-expect-error: an extra's price is a number, not a string
  const priceText: string = e.price;
  for await (const page of client.vehicles.list()) {
    const first: number | undefined = page[0]?.price_per_day;
    void first;
  }
  const [eur] = await client.catalog.currencies();
  const code: string | undefined = eur?.code;
  const [brand] = await client.catalog.brands();
  const brandId: number | undefined = brand?.id;
  const created2 = await client.vehicles.create({} as VehicleInput);
  const p2: number = created2.record.price_per_day;
  void [n, active, vin, images, created, price, priceText, code, brandId, p2];
}

describe("library types", () => {
  it("are checked by tsc (see the @ts-expect-error lines above)", () => {
    expect(typeof typeChecks).toBe("function");
    expect(typeof recordChecks).toBe("function");
  });
});
