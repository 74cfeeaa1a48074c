// The README's example of the library (section "rentctl as a library"), compiled by tsc and run
// by vitest as it stands; test/library/readme-sync.test.ts checks that the README shows this text.
// README-EXAMPLE-START
import { createClient, type RentctlClient } from "rentctl";
import { createSandbox, sampleVehicle } from "rentctl/sandbox";
import { expect, test } from "vitest";

// Your code: list a car for rent, at a price, and return its id.
async function listCar(client: RentctlClient, reg: string, pricePerDay: number): Promise<number> {
  const { id } = await client.vehicles.create({
    ...sampleVehicle(1003),
    vehicle_reg_number: reg,
    price_per_day: pricePerDay,
  });
  return id;
}

test("listCar creates the vehicle with its price", async () => {
  const sb = await createSandbox({ seed: "empty" });
  const owner = sb.owners.find((o) => o.userId === 1003)!;
  const client = createClient({ baseUrl: sb.url, apiKey: owner.apiKey, userId: owner.userId });
  try {
    const id = await listCar(client, "B-RC 42", 55);
    expect((await client.vehicles.get(id)).price_per_day).toBe(55);
    expect(sb.requests().filter((r) => r.operation === "vehicles.create")).toHaveLength(1);
  } finally {
    await client.close();
    await sb.close();
  }
});
// README-EXAMPLE-END
