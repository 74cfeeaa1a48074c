import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { accountFileSchema, fleetFileSchema } from "../../src/plans/account-schema.js";
import { ROOT } from "../helpers/cli.js";

/** The schemas of `account schema` / `vehicle schema`, checked by a well-kept validator (ajv, JSON Schema 2020-12). */

const ajv = new Ajv2020({ allErrors: true, strict: false });
const account = ajv.compile(accountFileSchema());
const fleet = ajv.compile(fleetFileSchema());
const example = (name: string) => parse(readFileSync(join(ROOT, "examples", name), "utf8")) as unknown;

describe("account and fleet file schemas", () => {
  it("are valid JSON Schema 2020-12", () => {
    expect(ajv.validateSchema(accountFileSchema())).toBe(true);
    expect(ajv.validateSchema(fleetFileSchema())).toBe(true);
  });

  it("accept every example file", () => {
    expect(account(example("account.yaml")), JSON.stringify(account.errors)).toBe(true);
    expect(fleet(example("fleet.yaml")), JSON.stringify(fleet.errors)).toBe(true);
    // a fleet file is an account file whose extras are not managed
    expect(account(example("fleet.yaml")), JSON.stringify(account.errors)).toBe(true);
  });

  it("accept what the reader accepts: names for ids, digits in strings, one value for a list, null, kebab-case keys", () => {
    const doc = {
      $schema: "rentctl-account.schema.json",
      extras: [{ option: "Child seat", price: "5", currency: "EUR", period: 1, quantity: 2, active: "off" }],
      vehicles: [
        {
          "vehicle-reg-number": "X 1",
          vehicle_reg_number: "X 1",
          vehicle_class_id: "Compact",
          price_per_day: "45",
          vehicle_benefits_id: 3,
          vehicle_description: null,
          extras: ["Child seat", { option: 4, period: 2 }],
        },
      ],
    };
    expect(account(doc), JSON.stringify(account.errors)).toBe(true);
  });

  it("reject a file with a wrong type, an unknown key, or a value out of range", () => {
    expect(account({ vehicles: [{ vehicle_reg_number: "X 1", price_per_day: "cheap" }] })).toBe(false);
    expect(account({ vehicles: [{ vehicle_reg_number: "X 1", price_per_day: -1 }] })).toBe(false);
    expect(account({ vehicles: [{ vehicle_reg_number: "X 1", vehicle_activity: 2 }] })).toBe(false);
    expect(account({ vehicles: [{ vehicle_reg_numbr: "X 1" }] })).toBe(false);
    expect(account({ extras: [{ option: "Child seat", period: 1, price: [5] }] })).toBe(false);
    expect(account({ extras: [{ option: "Child seat" }] })).toBe(false); // no period
    expect(account({ extras: [], cars: [] })).toBe(false);
    expect(fleet({ vehicles: [{ vehicle_reg_number: "X 1", extras: ["Child seat"] }] })).toBe(false);
  });
});
