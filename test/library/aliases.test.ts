import { createClient, RegistrationTakenError, UsageError } from "rentctl";
import { createSandbox, type Sandbox } from "rentctl/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** The library's renamed members (issue 39 item 4) and their deprecated aliases, kept for one release. */

let sb: Sandbox;
beforeAll(async () => {
  sb = await createSandbox();
});
afterAll(async () => {
  await sb?.close();
});

describe("renamed library members", () => {
  it("account is the namespace of account documents; fleet is its deprecated alias (same plan)", async () => {
    const client = createClient({ baseUrl: sb.url, apiKey: sb.apiKey, userId: sb.userId });
    try {
      const doc = { vehicles: [{ vehicle_reg_number: "B-SC 1001", price_per_day: 46 }] };
      const a = await client.account.plan(doc);
      const f = await client.fleet.plan(doc);
      expect(a.changes).toBe(true);
      expect(f.saved.plan).toEqual(a.saved.plan);
      expect(a.markdown).toContain("B-SC 1001");
    } finally {
      await client.close();
    }
  });

  it("attempts bounds the attempts of a request; retries is its deprecated alias (attempts wins when both)", () => {
    expect(() => createClient({ baseUrl: sb.url, attempts: 0 })).toThrow(
      new UsageError("attempts must be a whole number from 1 to 10, not 0"),
    );
    expect(() => createClient({ baseUrl: sb.url, retries: 11 })).toThrow(/retries must be a whole number from 1 to 10/);
    expect(() => createClient({ baseUrl: sb.url, attempts: 2, retries: 0 })).not.toThrow();
  });

  it("a taken registration number is the one RegistrationTakenError, exported", async () => {
    const client = createClient({ baseUrl: sb.url, apiKey: sb.apiKey, userId: sb.userId });
    try {
      const err = await client.vehicles.edit(3, { vehicle_reg_number: "B-SC 1001" }).catch((e) => e);
      expect(err).toBeInstanceOf(RegistrationTakenError);
      expect(err.taken).toEqual([1]);
    } finally {
      await client.close();
    }
  });
});
