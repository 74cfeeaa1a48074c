import { describe, expect, it } from "vitest";
import { itemId, itemNames } from "../../src/catalog/items.js";
import { matchByName } from "../../src/catalog/match.js";
import type { ModelEntry } from "../../src/catalog/model-index.js";
import type { JsonObject } from "../../src/contract/records.js";
import { type CatalogPort, createNameResolver, nameRow, resolveRowNames } from "../../src/files/resolver.js";

/**
 * `--names` both ways (issue 25, "Fidelity"): every catalog value that has a name is written as
 * that name and reads back as the same id; a name two items share (two configurations with one
 * brand + model + configuration label) keeps the id.
 */

const LISTS: Record<string, JsonObject[]> = {
  "catalog.segments": [{ id: 1, name: "Cars" }],
  "catalog.classes_or_types": [{ id: 2, name: "Compact" }],
  "catalog.years_of_issue": [{ id: 16, name: "2023", year: 2023 }],
  "catalog.currencies": [{ id: 1, code: "EUR", name: "Euro" }],
  "catalog.fuel_policy": [{ id: 1, name: "Full to full" }],
  "catalog.delivery": [
    { id: 1, name: "Airport" },
    { id: 2, name: "Railway station" },
  ],
  "catalog.benefits": [
    { id: 1, name: "Free cancellation" },
    { id: 4, name: "24/7 roadside assistance" },
  ],
  "catalog.additional_features": [{ id: 5, name: "Rear-view camera" }],
  "catalog.payment_types": [{ id: 3, name: "Credit card" }],
};
const FLEXIBLE: Record<string, JsonObject[]> = {
  "catalog.setup": [{ id: 1, name: "Germany", code: "DE" }],
  "catalog.protection_plans": [{ id: 2, name: "Within 3 days" }],
};
const MODELS = new Map<number, ModelEntry>([
  [1003, ["Toyota", "Corolla", "1.8 Hybrid Comfort"]],
  // two configurations one label names: ambiguous
  [2001, ["Fiat", "Panda", "1.0 Hybrid"]],
  [2002, ["Fiat", "Panda", "1.0 Hybrid"]],
]);

const port: CatalogPort = {
  items: async (opId) => LISTS[opId] ?? [],
  listIn: async (opId) => FLEXIBLE[opId] ?? [],
  models: async () => MODELS,
  match: (items, value, field) => matchByName(items, value, field, field),
  itemId,
  itemNames,
};

const ROW = {
  vehicle_reg_number: "B-1",
  vehicle_model_id: 1003,
  vehicle_segment_id: 1,
  vehicle_class_id: 2,
  vehicle_year_of_issue_id: 16,
  vehicle_currency_id: 1,
  vehicle_fuel_policy: 1,
  vehicle_reg_number_country: 1,
  vehicle_protection_plans_deposit_return_period_card: 2,
  vehicle_delivery_address_fixed_place: [1, 2],
  vehicle_benefits_id: [1, 4],
  vehicle_options_id: [5],
  vehicle_payment_types: [3],
  price_per_day: 45,
};

describe("nameRow / resolveRowNames", () => {
  it("names every catalog value (model, year, country, lists, ...) and reads the names back to the same ids", async () => {
    const named = await nameRow(createNameResolver(port), ROW);
    expect(named).toEqual({
      vehicle_reg_number: "B-1",
      vehicle_model_id: "Toyota Corolla (1.8 Hybrid Comfort)",
      vehicle_segment_id: "Cars",
      vehicle_class_id: "Compact",
      vehicle_year_of_issue_id: 2023,
      vehicle_currency_id: "Euro",
      vehicle_fuel_policy: "Full to full",
      vehicle_reg_number_country: "Germany",
      vehicle_protection_plans_deposit_return_period_card: "Within 3 days",
      vehicle_delivery_address_fixed_place: ["Airport", "Railway station"],
      vehicle_benefits_id: ["Free cancellation", "24/7 roadside assistance"],
      vehicle_options_id: ["Rear-view camera"],
      vehicle_payment_types: ["Credit card"],
      price_per_day: 45,
    });
    const back: Record<string, unknown> = { ...named };
    expect(await resolveRowNames(createNameResolver(port), back)).toEqual([]);
    expect(back).toEqual(ROW);
  });

  it("an ambiguous configuration label keeps the id; reading that label is a problem naming both ids", async () => {
    const named = await nameRow(createNameResolver(port), { ...ROW, vehicle_model_id: 2002 });
    expect(named.vehicle_model_id).toBe(2002);
    const row: Record<string, unknown> = { ...ROW, vehicle_model_id: "fiat  panda (1.0 hybrid)" };
    const problems = await resolveRowNames(createNameResolver(port), row);
    expect(problems).toEqual([
      { field: "vehicle_model_id", message: expect.stringMatching(/names 2 configurations \(2001, 2002\)/) },
    ]);
  });

  it("an unknown configuration name is a problem with the expected form", async () => {
    const row: Record<string, unknown> = { ...ROW, vehicle_model_id: "Toyota Yaris" };
    const [p] = await resolveRowNames(createNameResolver(port), row);
    expect(p?.message).toMatch(/no vehicle configuration named "Toyota Yaris".*Brand Model \(configuration\)/);
  });
});
