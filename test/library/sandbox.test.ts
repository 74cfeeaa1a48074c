// Through the package's own `exports` (dist/lib/sandbox.js and its emitted types), as an integrator imports it.
import { createSandbox, sampleVehicle } from "rentctl/sandbox";
import { describe, expect, it } from "vitest";

/**
 * The in-process sandbox (issue "rentctl as a library", section 2): stateful,
 * seeded, resettable, with fault switches changed at runtime and a record of
 * what each request carried. The first test is the README's example.
 */

// A tiny function of "your" integration: create a vehicle, return its id.
async function listVehicle(baseUrl: string, apiKey: string, fields: Record<string, string>): Promise<number> {
  const res = await fetch(`${baseUrl}/api/v302/vehicles/create`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
  if (!res.ok) throw new Error(`create failed: ${res.status}`);
  const body = (await res.json()) as { data?: { id?: number }; id?: number };
  return Number(body.data?.id ?? body.id);
}

const car: Record<string, string> = Object.fromEntries(
  Object.entries({ ...sampleVehicle(1003), vehicle_reg_number: "T-EST 1", price_per_day: 40 }).map(([k, v]) => [
    k,
    String(v),
  ]),
);

describe("createSandbox (rentctl/sandbox)", () => {
  it("README example: your code creates a vehicle; the sandbox keeps it and records what was sent", async () => {
    const sb = await createSandbox({ seed: "empty" });
    try {
      const key1003 = sb.owners.find((o) => o.userId === 1003)!.apiKey;
      const id = await listVehicle(sb.url, key1003, car);
      expect(id).toBeGreaterThan(0);
      const list = await fetch(`${sb.url}/api/v302/vehicles/list?user_id=1003&locale_id=40`, {
        headers: { authorization: `Bearer ${key1003}` },
      });
      expect(((await list.json()) as { total: number }).total).toBe(1);
      const sent = sb.requests();
      expect(sent.map((r) => r.operation)).toEqual(["vehicles.create", "vehicles.list"]);
      expect(sent[0]!.fields).toMatchObject({ vehicle_reg_number: "T-EST 1", price_per_day: "40" });
      expect(JSON.stringify(sent)).not.toContain(key1003);
    } finally {
      await sb.close();
    }
  });

  it("seeds: demo has the demo fleet, empty has none, records are created through the sandbox's checks; reset starts over", async () => {
    const demo = await createSandbox();
    const listOf = async (url: string, key: string, user: number) =>
      (
        (await (
          await fetch(`${url}/api/v302/vehicles/list?user_id=${user}&locale_id=40`, {
            headers: { authorization: `Bearer ${key}` },
          })
        ).json()) as { total: number }
      ).total;
    try {
      expect(await listOf(demo.url, demo.apiKey, 1001)).toBe(3);
    } finally {
      await demo.close();
    }
    const seeded = await createSandbox({ seed: { vehicles: [{ ...sampleVehicle(1002), user_id: 1002 }] } });
    try {
      const key = seeded.owners.find((o) => o.userId === 1002)!.apiKey;
      expect(seeded.requests()).toEqual([]); // seeding is not recorded
      expect(await listOf(seeded.url, key, 1002)).toBe(1);
      await listVehicle(seeded.url, key, { ...car, user_id: "1002", vehicle_reg_number: "T-EST 2" });
      expect(await listOf(seeded.url, key, 1002)).toBe(2);
      await seeded.reset();
      expect(await listOf(seeded.url, key, 1002)).toBe(1);
    } finally {
      await seeded.close();
    }
    await expect(createSandbox({ seed: { vehicles: [{ user_id: 1001, price_per_day: -1 }] } })).rejects.toThrow(
      /seeding vehicles\/create failed \(400\)/,
    );
  });

  it("faults set at runtime hit the next requests only", async () => {
    const sb = await createSandbox({ seed: "empty" });
    try {
      const get = () => fetch(`${sb.url}/api/v302/currencies`).then((r) => r.status);
      expect(await get()).toBe(200);
      sb.setFaults({ failRate: 1, faultFirst: 2 });
      expect([await get(), await get(), await get()]).toEqual([500, 503, 200]);
      sb.setFaults({});
      expect(await get()).toBe(200);
    } finally {
      await sb.close();
    }
  });

  it("requests() records every attempt with the fault it got, so a test counts the retries", async () => {
    const sb = await createSandbox({ seed: "empty" });
    try {
      const get = () => fetch(`${sb.url}/api/v302/currencies`).then((r) => r.status);
      sb.setFaults({ failRate: 1, faultFirst: 2 });
      expect([await get(), await get(), await get()]).toEqual([500, 503, 200]);
      expect(sb.requests().map((r) => [r.operation, r.fault])).toEqual([
        ["catalog.currencies", "fail"],
        ["catalog.currencies", "fail"],
        ["catalog.currencies", undefined],
      ]);
      sb.setFaults({ resetRate: 1, faultFirst: 1 });
      await expect(get()).rejects.toThrow();
      expect(sb.requests().at(-1)).toMatchObject({ operation: "catalog.currencies", fault: "reset" });
    } finally {
      await sb.close();
    }
  });

  it("setFaults({ only }) aims the faults at one operation; faultFirst counts its requests only", async () => {
    const sb = await createSandbox({ seed: "empty" });
    try {
      const key = sb.owners.find((o) => o.userId === 1003)!.apiKey;
      const create = (reg: string) =>
        fetch(`${sb.url}/api/v302/vehicles/create`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ ...car, vehicle_reg_number: reg }),
        }).then((r) => r.status);
      const currencies = () => fetch(`${sb.url}/api/v302/currencies`).then((r) => r.status);
      sb.setFaults({ failRate: 1, faultFirst: 1, only: "vehicles.create" });
      expect(await currencies()).toBe(200);
      expect(await create("T-EST 3")).toBe(500);
      expect(await currencies()).toBe(200);
      expect(await create("T-EST 3")).toBe(200);
      expect(sb.requests().map((r) => `${r.operation}${r.fault ? ` ${r.fault}` : ""}`)).toEqual([
        "catalog.currencies",
        "vehicles.create fail",
        "catalog.currencies",
        "vehicles.create",
      ]);
      expect(() => sb.setFaults({ failRate: 1, only: "vehicles.crate" })).toThrow(/no operation of the contract/);
    } finally {
      await sb.close();
    }
  });

  it("reset() clears the faults with the state; reset({ keepFaults: true }) keeps them", async () => {
    const sb = await createSandbox({ seed: "empty", faults: { failRate: 1 } });
    try {
      const get = () => fetch(`${sb.url}/api/v302/currencies`).then((r) => r.status);
      expect(await get()).toBe(500);
      await sb.reset();
      expect(await get()).toBe(200);
      sb.setFaults({ failRate: 1, only: "catalog.currencies" });
      await sb.reset({ keepFaults: true });
      expect(await get()).toBeGreaterThanOrEqual(500); // 500 and 503 in turn
      expect(sb.requests()).toEqual([expect.objectContaining({ operation: "catalog.currencies", fault: "fail" })]);
    } finally {
      await sb.close();
    }
  });
});
