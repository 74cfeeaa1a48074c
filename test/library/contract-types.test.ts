import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { contractTypesSource } from "../../scripts/contract-types.js";

/** The library's input types are generated from the contract table: this fails when they are not current. */
describe("src/library/contract-types.ts", () => {
  it("is what the contract table generates (UPDATE_CONTRACT_TYPES=1 rewrites it)", () => {
    const file = new URL("../../src/library/contract-types.ts", import.meta.url);
    const want = contractTypesSource();
    if (process.env.UPDATE_CONTRACT_TYPES) writeFileSync(file, want);
    expect(readFileSync(file, "utf8")).toBe(want);
  });

  it("names every vehicle field of the contract and every catalog", async () => {
    const { VEHICLE_FIELDS } = await import("../../src/contract/vehicle-fields.js");
    const { CATALOG_OPERATIONS } = await import("../../src/contract/operations.js");
    const text = contractTypesSource();
    for (const f of VEHICLE_FIELDS.filter((f) => f.name !== "user_id" && f.name !== "locale_id"))
      expect(text).toMatch(new RegExp(`\\n  ${f.name}\\??: `));
    for (const op of CATALOG_OPERATIONS) expect(text).toContain(JSON.stringify(op.id));
  });
});
