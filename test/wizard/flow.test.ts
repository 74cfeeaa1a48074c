import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ApiValidationError } from "../../src/api/errors.js";
import { AbortedError, InterruptedError, UsageError } from "../../src/base/errors.js";
import { run } from "../../src/wizard/command.js";
import { setWizardPromptsFactory } from "../../src/wizard/prompts.js";
import { COMPLETE_RECORD, CTRL_C, DEFAULT, type Fake, fakeDeps, type Step, scripted } from "./helpers.js";

let fake: Fake | undefined;
afterEach(() => {
  fake?.cleanup();
  fake = undefined;
  setWizardPromptsFactory(undefined);
});

function setup(opts: Parameters<typeof fakeDeps>[0] = {}): Fake {
  fake = fakeDeps(opts);
  return fake;
}

/** COMPLETE_RECORD but the registration number: the wizard walks the questions (a complete file goes straight to the review). */
const { vehicle_reg_number: _reg, ...PARTIAL_RECORD } = COMPLETE_RECORD;
const REG: Step = ["Registration number", "B-SC 1234"];

function writeRecord(f: Fake, record: Record<string, unknown> = COMPLETE_RECORD): string {
  const file = join(f.dir, "car.json");
  writeFileSync(file, JSON.stringify(record));
  return file;
}

describe("vehicle wizard: the whole flow", () => {
  it("asks every group in order, validates inline, uploads after confirm and creates", async () => {
    const f = setup();
    const image = join(f.dir, "front.jpg");
    writeFileSync(image, Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46])); // an image by its content
    const steps: Step[] = [
      // vehicle
      ["Segment", 1],
      ["Brand", "toy"],
      ["Model", /Corolla/],
      ["Configuration", /Hybrid/],
      ["Year of issue", "2023"],
      ["Class or type", /Compact/],
      // registration and location
      ["Registration country", /Germany/],
      ["Registration number", "B-XY 123"],
      ["VIN", "WVWZZZ1JZXW000001"],
      ["Odometer", "12000"],
      ["Pickup location", "Berlin, Hauptbahnhof"],
      // prices, with a re-ask
      ["Price per day (1-2 days)", "-5"],
      ["Price per day (1-2 days)", "abc"],
      ["Price per day (1-2 days)", "50"],
      ["3-6 days", "45"],
      ["7-13 days", "40"],
      ["14 days or more", DEFAULT],
      ["Currency", /EUR/],
      ["subscription", true],
      ["1-2 months", "900"],
      ["3-5 months", ""],
      ["6-12 months", ""],
      ["1 year", "9000"],
      ["2 years", ""],
      ["3 years", ""],
      // protection
      ["security deposit", true],
      ["Deposit amount", "300"],
      ["deposit be paid", ["vehicle_protection_plans_deposit_pay_cash", /Credit/]],
      ["cash deposit returned", /On return/],
      ["card deposit returned", /3 days/],
      ["third-party insurance", true],
      ["full insurance for a price", true],
      ["Insurance price", "12"],
      ["cover the deposit", false],
      ["Offer CDW One?", true],
      ["CDW 1 price per day", "10"],
      ["CDW 1 franchise", "500"],
      ["CDW 1 security deposit", ""],
      ["CDW 2", false],
      ["Tyre and windscreen", false],
      ["Theft protection", true],
      ["Theft plan price per day", "5"],
      ["Interior protection", false],
      ["Roadside assistance", false],
      // distance
      ["Distance unit", /Kilometres/],
      ["Distance included", "200"],
      ["Surcharge per unit", "1"],
      ["Monthly price", "1000"],
      // rules
      ["Minimum rental period", DEFAULT],
      ["Minimum renter age", "21"],
      ["driving experience", "2"],
      ["Booking lead time", "4"],
      ["Booking lead time", "2"],
      ["available for rent", true],
      // capacity
      ["Passengers", "5"],
      ["Luggage", "3"],
      ["Fuel policy", /Full to full/],
      // delivery and return
      ["Deliver the vehicle", true],
      ["Delivery places", [1, 2]],
      ["Airport: delivery price", "20"],
      ["Train station: delivery price", "15"],
      ["Accept returns", false],
      // features
      ["Benefits", [/Free cancellation/]],
      ["Additional features", [2]],
      ["payment types", [1, 2]],
      // availability
      ["Block dates", true],
      ["Unavailable dates", "31.13.2026"],
      ["Unavailable dates", "2026-12-24, 25.12.2026"], // either date form: sent as the contract's
      // texts
      ["Add a description", true],
      ["Description", "Clean and economical"],
      ["tuning", false],
      // images
      ["Add image files", true],
      ["Image file 1", join(f.dir, "missing.jpg")],
      ["Image file 1", image],
      ["Image file 2", ""],
      // review
      ["What now?", "create"],
    ];
    const s = scripted(steps);
    await run(f.deps, {}, s.prompts);
    expect(s.remaining()).toEqual([]);

    expect(s.rejected.map((r) => r.reason)).toEqual([
      "price_per_day must be at least 0, got -5",
      'price_per_day must be a whole number, got "abc"',
      "vehicle_booking_lead_time must be at most 3, got 4",
      'vehicle_availability_calendar dates must be real days in d.m.Y (e.g. 24.12.2026), not "31.13.2026"',
      `${join(f.dir, "missing.jpg")} does not exist`,
    ]);

    // The registration number looked up (not taken), images (after the confirmation), then the vehicle with their ids.
    const ops = f.client.sent.filter((x) => !x.opId.startsWith("catalog.")).map((x) => x.opId);
    // (looked up as it was typed, and again before the create: the account may have changed meanwhile)
    expect(ops).toEqual(["vehicles.list", "vehicles.list", "vehicles.upload", "vehicles.create"]);
    expect(f.client.calls("vehicles.upload")[0]!.files).toEqual(["front.jpg"]);
    expect(f.client.calls("vehicles.create")[0]!.params).toEqual({
      user_id: 1001,
      locale_id: 40,
      vehicle_segment_id: 1,
      vehicle_model_id: 1000,
      vehicle_year_of_issue_id: 16,
      vehicle_class_id: 1,
      vehicle_reg_number_country: 1,
      vehicle_reg_number: "B-XY 123",
      vehicle_vin: "WVWZZZ1JZXW000001",
      vehicle_odometer: "12000",
      pickup_location: "Berlin, Hauptbahnhof",
      price_per_day: 50,
      price_per_3days: 45,
      price_per_week: 40,
      price_per_14days: 40,
      vehicle_currency_id: 1,
      price_subscription_month: 900,
      price_subscription_year: 9000,
      vehicle_protection_plans_no_deposit: 1,
      vehicle_protection_plans_deposit_price: 300,
      vehicle_protection_plans_deposit_pay_cash: 1,
      vehicle_protection_plans_deposit_pay_debit_card: 0,
      vehicle_protection_plans_deposit_pay_credit_card: 1,
      vehicle_protection_plans_deposit_return_period_cash: 1,
      vehicle_protection_plans_deposit_return_period_card: 2,
      vehicle_protection_plans_third_party_insurance: 1,
      vehicle_protection_plans_insurance_price: 12,
      vehicle_protection_plans_insurance_exclude_security_deposit: 0,
      vehicle_protection_plans_cdw1_price_day: 10,
      vehicle_protection_plans_cdw1_franchise: 500,
      vehicle_protection_plans_theft_price_day: 5,
      vehicle_distance_unit_id: 1,
      vehicle_distance_included: 200,
      vehicle_surcharge_for_excess: 1,
      price_surcharge_over_time: 1000,
      vehicle_minimal_renting_period: 1,
      vehicle_minimal_age_to_rent: 21,
      vehicle_drivers_experience: 2,
      vehicle_booking_lead_time: 2,
      vehicle_activity: 1,
      vehicle_passenger_capacity: 5,
      vehicle_luggage_capacity: 3,
      vehicle_fuel_policy: 1,
      vehicle_delivery_address_fixed_place: [1, 2],
      vehicle_delivery_address_fixed_price: [20, 15],
      vehicle_benefits_id: [1],
      vehicle_options_id: [2],
      vehicle_payment_types: [1, 2],
      vehicle_availability_calendar: "24.12.2026,25.12.2026",
      vehicle_description: "Clean and economical",
      vehicle_images: [900],
    });

    // stdout carries only the new id; the review (with names beside ids) went to stderr.
    expect(f.stdout()).toBe("501\n");
    const err = f.stderr();
    expect(err).toContain("Review: this is what will be sent");
    expect(err).toMatch(/Model\s+Toyota Corolla · 1\.8 Hybrid Comfort\s+id 1000/);
    expect(err).toMatch(/Registration country\s+Germany \(DE\)\s+id 1/);
    expect(err).toMatch(/Year\s+2023\s+id 16/);
    expect(err).toMatch(/Delivery places\s+Airport, Train station\s+ids 1, 2/);
    expect(err).toMatch(/Files to upload\s+\S*front\.jpg/);
    expect(err).toContain("vehicle 501 created");
  });

  it("pre-fills the answers from --from-file (enter through all prompts)", async () => {
    const f = setup();
    const s = scripted([REG], "lenient");
    await run(f.deps, { fromFile: writeRecord(f, PARTIAL_RECORD) }, s.prompts);
    expect(s.log.find((c) => c.message.startsWith("Keep configuration 1000"))?.answer).toBe(true);
    expect(s.log.some((c) => c.message.startsWith("Brand"))).toBe(false);
    const { user_id, locale_id, ...sent } = f.client.calls("vehicles.create")[0]!.params;
    expect({ user_id, locale_id }).toEqual({ user_id: 1001, locale_id: 40 });
    expect(sent).toEqual(COMPLETE_RECORD);
    expect(f.stdout()).toBe("501\n");
  });

  it("goes straight to the review when the file gives every answer, with names beside the ids", async () => {
    const f = setup();
    // A first run cached the configuration's catalogs (brand -> model -> configuration).
    const catalogs = f.deps.catalogs();
    await catalogs.items("catalog.brands", { segment_id: 1 });
    await catalogs.items("catalog.models", { brand_id: 10 });
    await catalogs.items("catalog.equipments", { model_id: 100 });
    const again = fakeDeps();
    try {
      const { cpSync } = await import("node:fs");
      cpSync(join(f.dir, "data"), join(again.dir, "data"), { recursive: true });
      const s = scripted([["What now?", "create"]]);
      await run(again.deps, { fromFile: writeRecord(again) }, s.prompts);
      expect(s.log.map((c) => c.message)).toEqual(["What now?"]);
      const err = again.stderr();
      expect(err).toMatch(/New vehicle on test as owner 1001/);
      expect(err).toMatch(/every answer is known from \S*car\.json: straight to the review/);
      expect(err).toMatch(/Model\s+Toyota Corolla · 1\.8 Hybrid Comfort\s+id 1000/);
      expect(err).toMatch(/Segment\s+Cars\s+id 1/);
      expect(err).toMatch(/Currency\s+EUR\b.*\s+id 1/);
      expect(err).toMatch(/Registration country\s+Germany \(DE\)\s+id 1/);
      expect(err).toMatch(/Benefits\s+Free cancellation\s+id 1/);
      const { user_id: _u, locale_id: _l, ...sent } = again.client.calls("vehicles.create")[0]!.params;
      expect(sent).toEqual(COMPLETE_RECORD);
    } finally {
      again.cleanup();
    }
  });

  it("warns under the review when a deposit is taken with no way to pay it", async () => {
    const f = setup();
    const record = { ...COMPLETE_RECORD, vehicle_protection_plans_deposit_pay_cash: 0 };
    const s = scripted([["What now?", "cancel"]]);
    const err = await run(f.deps, { fromFile: writeRecord(f, record) }, s.prompts).catch((e) => e);
    expect(err).toBeInstanceOf(AbortedError);
    expect(err.message).toBe("cancelled, nothing was created");
    expect(f.stderr()).toMatch(/warning: a deposit is taken but no way to pay it is allowed/);
    expect(f.client.calls("vehicles.create")).toEqual([]);
  });

  it("offers optional groups as one yes/no question and clears them on no", async () => {
    const f = setup();
    const record = { ...PARTIAL_RECORD, price_subscription_month: 800, vehicle_protection_plans_cdw1_price_day: 9 };
    const s = scripted([REG, ["subscription", false], ["Offer CDW One?", false]], "lenient");
    await run(f.deps, { fromFile: writeRecord(f, record) }, s.prompts);
    const confirm = s.log.find((c) => c.message.includes("subscription"));
    expect(confirm?.kind).toBe("confirm");
    expect(s.log.some((c) => c.message.includes("1-2 months"))).toBe(false);
    const sent = f.client.calls("vehicles.create")[0]!.params;
    expect(sent.price_subscription_month).toBeUndefined();
    expect(sent.vehicle_protection_plans_cdw1_price_day).toBeUndefined();
  });

  it("falls back to typing an id when a catalog cannot be fetched", async () => {
    const f = setup();
    f.client.failing.add("catalog.setup");
    const s = scripted([["Registration country (id)", "2"], REG], "lenient");
    await run(f.deps, { fromFile: writeRecord(f, PARTIAL_RECORD) }, s.prompts);
    expect(f.stderr()).toMatch(/warning: could not load setup/);
    expect(f.client.calls("vehicles.create")[0]!.params.vehicle_reg_number_country).toBe(2);
  });
});

describe("vehicle wizard: the review screen", () => {
  it("edits a section and comes back to the review", async () => {
    const f = setup();
    const s = scripted(
      [
        ["What now?", "edit"],
        ["Which section?", "prices"],
        ["Price per day (1-2 days)", "99"],
        ["What now?", "create"],
      ],
      "lenient",
    );
    await run(f.deps, { fromFile: writeRecord(f) }, s.prompts);
    expect(s.remaining()).toEqual([]);
    expect(f.stderr().match(/Review: this is what will be sent/g)).toHaveLength(2);
    expect(f.client.calls("vehicles.create")).toHaveLength(1);
    expect(f.client.calls("vehicles.create")[0]!.params.price_per_day).toBe(99);
  });

  it("a registration number the account has: not created, the review names the vehicle that has it", async () => {
    const f = setup();
    const file = writeRecord(f);
    const reg = String(JSON.parse(readFileSync(file, "utf8")).vehicle_reg_number);
    f.client.account = [{ vehicle_id: 77, vehicle_reg_number: ` ${reg.toLowerCase()} ` }];
    const s = scripted(
      [
        ["What now?", "create"],
        ["What now?", "cancel"],
      ],
      "lenient",
    );
    const err = await run(f.deps, { fromFile: file }, s.prompts).catch((e) => e);
    expect(err).toBeInstanceOf(AbortedError);
    expect(f.client.calls("vehicles.create")).toHaveLength(0);
    expect(f.stderr()).toMatch(/vehicle 77 already has/);
  });

  it("a registration number the account has is refused as it is typed, before the next question", async () => {
    const f = setup();
    const file = writeRecord(f, PARTIAL_RECORD);
    f.client.account = [{ vehicle_id: 77, vehicle_reg_number: "b-sc 1234", vehicle_reg_number_country: 1 }];
    const s = scripted(
      [
        ["Registration number", "B-SC 1234"],
        ["Registration number", "B-SC 9999"],
        ["What now?", "cancel"],
      ],
      "lenient",
    );
    const err = await run(f.deps, { fromFile: file }, s.prompts).catch((e) => e);
    expect(err).toBeInstanceOf(AbortedError);
    expect(s.rejected).toEqual([
      {
        message: "Registration number",
        answer: "B-SC 1234",
        reason: 'vehicle 77 already has "B-SC 1234": type another number',
      },
    ]);
    // asked again at once: the prompt after the refused number is the number again, not the VIN
    const asked = s.log.map((c) => c.message);
    const first = asked.indexOf("Registration number");
    expect(asked[first + 1]).toBe("Registration number");
    expect(asked[first + 2]).toMatch(/^VIN/);
    expect(f.client.calls("vehicles.create")).toHaveLength(0);
  });

  it("saves the answers to a file that `vehicle create --from-file` accepts, then cancels", async () => {
    const f = setup();
    const out = join(f.dir, "saved.json");
    const s = scripted(
      [
        ["Brand", "volks"],
        ["What now?", "save"],
        ["Save to file", out],
        ["What now?", "cancel"],
      ],
      "lenient",
    );
    const record = { ...COMPLETE_RECORD, vehicle_model_id: undefined };
    const err = await run(f.deps, { fromFile: writeRecord(f, record) }, s.prompts).catch((e) => e);
    expect(err).toBeInstanceOf(AbortedError);
    expect(err.message).toMatch(/nothing was created/);
    // reads only (catalogs; the account, for the registration number as it was typed): nothing written
    expect(f.client.sent.filter((x) => !x.opId.startsWith("catalog.") && x.opId !== "vehicles.list")).toEqual([]);

    const saved = JSON.parse(readFileSync(out, "utf8"));
    expect(saved).toEqual({ ...COMPLETE_RECORD, vehicle_model_id: 1100 });
    expect(saved.user_id).toBeUndefined();

    // The non-interactive path takes the file as it is.
    const { create } = await import("../../src/commands/vehicle/vehicle.js");
    await create(f.deps, { fromFile: out });
    const { user_id: _u, locale_id: _l, ...sent } = f.client.calls("vehicles.create")[0]!.params;
    expect(sent).toEqual(saved);
  });

  it("--save writes the file when confirming", async () => {
    const f = setup();
    const out = join(f.dir, "answers.json");
    const s = scripted([], "lenient");
    await run(f.deps, { fromFile: writeRecord(f), save: out }, s.prompts);
    expect(JSON.parse(readFileSync(out, "utf8"))).toEqual(COMPLETE_RECORD);
    expect(f.client.calls("vehicles.create")).toHaveLength(1);
  });

  it("a 400 from the API shows the field errors and returns to the review, answers intact", async () => {
    const f = setup();
    const image = join(f.dir, "a.png");
    writeFileSync(image, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
    f.client.create = [
      () => {
        throw new ApiValidationError("request rejected (400): validation error", {
          details: [{ field: "vehicle_reg_number", message: "is already registered" }],
        });
      },
      (p) => ({
        body: { data: { id: 777, ...p } },
        decoded: { kind: "flexible", body: { data: { id: 777 } } },
        status: 200,
      }),
    ];
    const s = scripted(
      [
        REG,
        ["Add image files", true],
        ["Image file 1", image],
        ["Image file 2", ""],
        ["What now?", "create"],
        // back at the review: edit is now the default, and the section with the problem
        ["What now?", DEFAULT],
        ["Which section?", DEFAULT],
        ["Registration number", "B-NEW 1"],
        ["What now?", "create"],
      ],
      "lenient",
    );
    await run(f.deps, { fromFile: writeRecord(f, PARTIAL_RECORD) }, s.prompts);
    expect(s.remaining()).toEqual([]);
    const err = f.stderr();
    expect(err).toContain("error: request rejected (400): validation error");
    expect(err).toContain("vehicle_reg_number: is already registered");
    expect(err).toMatch(/Registration\s+\S+.*✗ is already registered/);
    const creates = f.client.calls("vehicles.create");
    expect(creates).toHaveLength(2);
    expect(creates[1]!.params.vehicle_reg_number).toBe("B-NEW 1");
    // Uploaded once; the retry reuses the ids.
    expect(f.client.calls("vehicles.upload")).toHaveLength(1);
    expect(creates[0]!.params.vehicle_images).toEqual([900]);
    expect(creates[1]!.params.vehicle_images).toEqual([900]);
    expect(f.stdout()).toBe("777\n");
  });

  it("a field the contract refuses (prepareVehicle) returns to the review without sending", async () => {
    const f = setup();
    const s = scripted(
      [
        ["What now?", "create"],
        ["What now?", "cancel"],
      ],
      "lenient",
    );
    const err = await run(
      f.deps,
      { fromFile: writeRecord(f, { ...COMPLETE_RECORD, vehicle_extras: ["x"] }) },
      s.prompts,
    ).catch((e) => e);
    expect(err).toBeInstanceOf(AbortedError);
    expect(f.stderr()).toMatch(/vehicle_extras: must be a whole number/);
    expect(f.client.sent.filter((x) => !x.opId.startsWith("catalog.") && x.opId !== "vehicles.list")).toEqual([]);
  });

  it("a dry run prints the request and sends nothing", async () => {
    const f = setup({ flags: { dryRun: true, output: "json" } });
    const s = scripted([], "lenient");
    await run(f.deps, { fromFile: writeRecord(f) }, s.prompts);
    expect(f.client.calls("vehicles.create")).toHaveLength(0);
    expect(f.stdout()).toContain("vehicles/create");
  });
});

describe("vehicle wizard: leaving", () => {
  it("Ctrl-C at a prompt exits 130 with nothing sent", async () => {
    const f = setup();
    const image = join(f.dir, "a.png");
    writeFileSync(image, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
    const s = scripted(
      [REG, ["Add image files", true], ["Image file 1", image], ["Image file 2", ""], ["What now?", CTRL_C]],
      "lenient",
    );
    const err = await run(f.deps, { fromFile: writeRecord(f, PARTIAL_RECORD) }, s.prompts).catch((e) => e);
    expect(err).toBeInstanceOf(InterruptedError);
    expect(err.exitCode).toBe(130);
    expect(f.client.sent.filter((x) => !x.opId.startsWith("catalog.") && x.opId !== "vehicles.list")).toEqual([]);
    expect(f.stdout()).toBe("");
    expect(f.stderr()).toMatch(/cancelled, nothing was created\n\d+ answers kept as a draft: .*\n$/);
  });

  it("Ctrl-C in the middle of the questions", async () => {
    const f = setup();
    const s = scripted([
      ["Segment", 1],
      ["Brand", CTRL_C],
    ]);
    const err = await run(f.deps, {}, s.prompts).catch((e) => e);
    expect(err).toBeInstanceOf(InterruptedError);
    expect(err.exitCode).toBe(130);
  });

  it("refuses without a terminal on stdin, naming the non-interactive alternative", async () => {
    const f = setup({ tty: false });
    const s = scripted([]);
    const err = await run(f.deps, {}, s.prompts).catch((e) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect(err.exitCode).toBe(2);
    expect(`${err.message} ${err.hint}`).toContain("rentctl vehicle create --from-file FILE");
    expect(s.log).toEqual([]);
    expect(f.client.sent).toEqual([]);
  });

  it("uses the module-level prompt factory when no prompts are passed", async () => {
    const f = setup();
    const s = scripted([["Segment", CTRL_C]]);
    setWizardPromptsFactory(() => s.prompts);
    await expect(run(f.deps, {})).rejects.toBeInstanceOf(InterruptedError);
    expect(s.log).toHaveLength(1);
  });
});

describe("vehicle wizard: editing the vehicle section", () => {
  it("a new segment asks brand, model and configuration of that segment again", async () => {
    const f = setup();
    const s = scripted(
      [
        ["What now?", "edit"],
        ["Which section?", "vehicle"],
        ["Segment", 2],
        ["Brand", "duc"],
        ["Class or type", /Naked/],
        ["What now?", "create"],
      ],
      "lenient",
    );
    await run(f.deps, { fromFile: writeRecord(f) }, s.prompts);
    expect(s.remaining()).toEqual([]);
    // Straight to the review (the file is complete), so "Keep configuration" was never asked.
    expect(s.log.filter((c) => c.message.startsWith("Keep configuration"))).toHaveLength(0);
    expect(f.stderr()).toContain("segment changed: benefits and features were cleared");
    const sent = f.client.calls("vehicles.create")[0]!.params;
    expect(sent).toMatchObject({ vehicle_segment_id: 2, vehicle_model_id: 2000, vehicle_class_id: 7 });
    expect(sent.vehicle_benefits_id).toBeUndefined();
  });
});
