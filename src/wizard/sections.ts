import { sectionDecl } from "../contract/sections.js";
import { isEmpty } from "../contract/validate.js";
import { type Ask, toInts, toStrings } from "./ask.js";
import type { Item } from "./catalogs.js";

/**
 * The wizard's sections, in the order a person thinks about a vehicle. Each
 * owns the wire fields it asks (for the review screen and the "edit a
 * section" loop) and asks them with the current answers as defaults, so the
 * same code serves the first pass, a `--from-file` pre-fill and an edit.
 */
export interface Section {
  key: string;
  title: string;
  fields: readonly string[];
  ask(q: Ask): Promise<void>;
}

/** A section's key, title and fields from the one declaration (src/contract/sections.ts: the card reads it too). */
function of(key: string): Pick<Section, "key" | "title" | "fields"> {
  const d = sectionDecl(key);
  return { key, title: d.title, fields: d.fields.map(([f]) => f) };
}

const SUBSCRIPTION: ReadonlyArray<[string, string]> = [
  ["price_subscription_month", "Monthly price for 1-2 months"],
  ["price_subscription_3month", "Monthly price for 3-5 months"],
  ["price_subscription_6month", "Monthly price for 6-12 months"],
  ["price_subscription_year", "Annual price for 1 year"],
  ["price_subscription_2years", "Annual price for 2 years"],
  ["price_subscription_3years", "Annual price for 3 years"],
];

const PP = "vehicle_protection_plans_";

interface Plan {
  code: string;
  label: string;
  fields: ReadonlyArray<[string, string]>;
}

/** A collision damage waiver: both (CDW 1 and 2) are priced by the same three fields of their number. */
function cdwPlan(n: 1 | 2, label: string): Plan {
  const p = `${PP}cdw${n}_`;
  return {
    code: `cdw${n}`,
    label,
    fields: [
      [`${p}price_day`, `CDW ${n} price per day`],
      [`${p}franchise`, `CDW ${n} franchise (excess)`],
      [`${p}security_deposit`, `CDW ${n} security deposit`],
    ],
  };
}

/** The optional protection plans: a label and the fields that price each. */
export const PLANS: ReadonlyArray<Plan> = [
  cdwPlan(1, "Collision damage waiver (CDW 1)"),
  cdwPlan(2, "Super collision damage waiver (CDW 2)"),
  {
    code: "tire_windshield",
    label: "Tyre and windscreen protection",
    fields: [[`${PP}tire_windshield_price_day`, "Tyre and windscreen plan price per day"]],
  },
  { code: "theft", label: "Theft protection", fields: [[`${PP}theft_price_day`, "Theft plan price per day"]] },
  {
    code: "interior",
    label: "Interior protection",
    fields: [[`${PP}interior_price_day`, "Interior plan price per day"]],
  },
  {
    code: "roadside",
    label: "Roadside assistance",
    fields: [[`${PP}roadside_price_day`, "Roadside assistance price per day"]],
  },
];

const DEPOSIT_PAY: ReadonlyArray<[string, string]> = [
  [`${PP}deposit_pay_cash`, "Cash"],
  [`${PP}deposit_pay_debit_card`, "Debit card"],
  [`${PP}deposit_pay_credit_card`, "Credit card"],
];

/** The server's name for a plan when the settings carry one (matched by code or by its fields), else ours. */
function planLabel(plans: Item[], plan: (typeof PLANS)[number]): string {
  for (const p of plans) {
    const fields = p.raw.fields;
    const name = typeof p.raw.name === "string" && p.raw.name.trim() ? p.raw.name.trim() : p.label;
    if (p.raw.code === plan.code) return name;
    if (Array.isArray(fields) && fields.some((f) => f === plan.fields[0]![0])) return name;
  }
  return plan.label;
}

const vehicle: Section = {
  ...of("vehicle"),
  async ask(q) {
    const before = toInts(q.a.vehicle_segment_id)[0];
    await q.pick("vehicle_segment_id", "Segment", await q.cat.list("catalog.segments"), { default: 1 });
    const seg = q.segment();
    if (before !== undefined && before !== seg) {
      // Brands, classes, benefits and features are per segment: what was chosen for the old one goes.
      q.state.aux = {};
      delete q.a.vehicle_model_id;
      delete q.a.vehicle_class_id;
      const dropped = ["vehicle_benefits_id", "vehicle_options_id"].filter((f) => !isEmpty(q.a[f]));
      for (const f of dropped) delete q.a[f];
      if (dropped.length)
        q.deps.msg.warn("segment changed: benefits and features were cleared (pick them again under Features)");
    }

    let keep = false;
    const given = toInts(q.a.vehicle_model_id)[0];
    if (given !== undefined && q.state.aux.model_id === undefined) {
      keep = await q.p.confirm({ message: `Keep configuration ${given} (vehicle_model_id) as given?`, default: true });
    }
    if (!keep) {
      const brands = await q.cat.list("catalog.brands", { segment_id: seg });
      if (!brands || brands.length === 0) {
        await q.pick("vehicle_model_id", "Configuration", null);
      } else {
        const brandId = await q.choose("vehicle_model_id", "Brand (type to search)", brands, q.state.aux.brand_id, {
          search: true,
          required: true,
          rememberAs: "brand",
        });
        if (brandId !== q.state.aux.brand_id) q.state.aux = { brand_id: brandId };
        const brand = brands.find((b) => b.id === brandId)?.label ?? `brand ${brandId}`;
        const models = await q.cat.list("catalog.models", { brand_id: brandId!, segment_id: seg });
        const modelId = models?.length
          ? await q.choose("vehicle_model_id", "Model", models, q.state.aux.model_id, {
              required: true,
              rememberAs: "model",
            })
          : undefined;
        if (modelId === undefined) {
          await q.pick("vehicle_model_id", "Configuration", null);
        } else {
          q.state.aux.model_id = modelId;
          const model = models!.find((m) => m.id === modelId)?.label ?? `model ${modelId}`;
          const equipments = await q.cat.list("catalog.equipments", { model_id: modelId });
          const id = await q.pick("vehicle_model_id", "Configuration (equipment)", equipments, { required: true });
          const named = (equipments ?? []).map((e) => ({ ...e, label: `${brand} ${model} · ${e.label}` }));
          if (id !== undefined) q.cat.remember("vehicle_model_id", named);
        }
      }
    }
    await q.pick("vehicle_year_of_issue_id", "Year of issue", await q.cat.list("catalog.years_of_issue"));
    await q.pick(
      "vehicle_class_id",
      "Class or type",
      await q.cat.list("catalog.classes_or_types", { segment_id: seg }),
    );
  },
};

const registration: Section = {
  ...of("registration"),
  async ask(q) {
    await q.pick("vehicle_reg_number_country", "Registration country", await q.cat.registrationCountries(q.segment()), {
      noneLabel: "(leave out)",
    });
    await q.text("vehicle_reg_number", "Registration number", { also: (reg) => q.registrationFree(reg) });
    await q.text("vehicle_vin", "VIN (blank to leave out)");
    await q.text("vehicle_odometer", "Odometer reading (blank to leave out)");
    await q.text("pickup_location", "Pickup location (address)");
  },
};

const prices: Section = {
  ...of("prices"),
  async ask(q) {
    await q.int("price_per_day", "Price per day (1-2 days)");
    await q.int("price_per_3days", "Price per day for 3-6 days", { default: toInts(q.a.price_per_day)[0] });
    await q.int("price_per_week", "Price per day for 7-13 days", { default: toInts(q.a.price_per_3days)[0] });
    await q.int("price_per_14days", "Price per day for 14 days or more", { default: toInts(q.a.price_per_week)[0] });
    const setup = await q.cat.flexible("catalog.setup", { segment_id: q.segment() });
    const defCurrency = typeof setup?.default_currency_id === "number" ? setup.default_currency_id : undefined;
    await q.pick("vehicle_currency_id", "Currency", await q.cat.list("catalog.currencies"), {
      default: defCurrency,
      noneLabel: "(the account's default)",
    });
    if (
      await q.group(
        "Offer subscription (monthly or yearly) prices?",
        SUBSCRIPTION.map(([f]) => f),
      )
    ) {
      for (const [f, label] of SUBSCRIPTION) await q.int(f, `${label} (blank to leave out)`);
    }
  },
};

const protection: Section = {
  ...of("protection"),
  async ask(q) {
    // The contract: vehicle_protection_plans_no_deposit 1 = a security deposit is present.
    const deposit = await q.flag(`${PP}no_deposit`, "Is a security deposit taken?", true);
    if (deposit) {
      await q.int(`${PP}deposit_price`, "Deposit amount");
      const cur = DEPOSIT_PAY.filter(([f]) => toInts(q.a[f])[0] === 1).map(([f]) => f);
      const ways = await q.p.checkbox<string>({
        message: "How may the deposit be paid?",
        choices: DEPOSIT_PAY.map(([f, name]) => ({ name, value: f, checked: cur.includes(f) })),
      });
      for (const [f] of DEPOSIT_PAY) q.a[f] = ways.includes(f) ? 1 : 0;
      const returns = await q.cat.depositReturnOptions();
      if (ways.includes(`${PP}deposit_pay_cash`)) {
        await q.pick(`${PP}deposit_return_period_cash`, "When is a cash deposit returned?", returns, {
          noneLabel: "(not stated)",
        });
      } else delete q.a[`${PP}deposit_return_period_cash`];
      if (ways.some((w) => w.endsWith("_card"))) {
        await q.pick(`${PP}deposit_return_period_card`, "When is a card deposit returned?", returns, {
          noneLabel: "(not stated)",
        });
      } else delete q.a[`${PP}deposit_return_period_card`];
    } else {
      q.a[`${PP}deposit_price`] = 0;
      for (const [f] of DEPOSIT_PAY) delete q.a[f];
      delete q.a[`${PP}deposit_return_period_cash`];
      delete q.a[`${PP}deposit_return_period_card`];
    }
    await q.flag(`${PP}third_party_insurance`, "Is third-party insurance included?", true);
    if (
      await q.group("Offer full insurance for a price?", [
        `${PP}insurance_price`,
        `${PP}insurance_exclude_security_deposit`,
      ])
    ) {
      await q.int(`${PP}insurance_price`, "Insurance price", { required: true });
      await q.flag(`${PP}insurance_exclude_security_deposit`, "Does full insurance cover the deposit?", false);
    }
    const plans = await q.cat.protectionPlans();
    for (const plan of PLANS) {
      const label = planLabel(plans, plan);
      if (
        await q.group(
          `Offer ${label}?`,
          plan.fields.map(([f]) => f),
        )
      ) {
        const [first, ...rest] = plan.fields;
        await q.int(first![0], first![1], { required: true });
        for (const [f, m] of rest) await q.int(f, `${m} (blank to leave out)`);
      }
    }
  },
};

const distance: Section = {
  ...of("distance"),
  async ask(q) {
    const units = await q.cat.list("catalog.distance_units");
    await q.pick("vehicle_distance_unit_id", "Distance unit", units, {
      default: units?.[0]?.id,
      noneLabel: "(the default, 0)",
    });
    await q.int("vehicle_distance_included", "Distance included (per day)");
    await q.int("vehicle_surcharge_for_excess", "Surcharge per unit of distance over the included");
    await q.int("price_surcharge_over_time", "Monthly price (price over time)");
  },
};

const rules: Section = {
  ...of("rules"),
  async ask(q) {
    await q.int("vehicle_minimal_renting_period", "Minimum rental period (days)", { default: 1 });
    await q.int("vehicle_minimal_age_to_rent", "Minimum renter age (years)");
    await q.int("vehicle_drivers_experience", "Minimum driving experience (years)");
    await q.int("vehicle_booking_lead_time", "Booking lead time, 1 to 3 days (blank for none)");
    await q.flag("vehicle_activity", "Make the vehicle available for rent right away?", true);
  },
};

const capacity: Section = {
  ...of("capacity"),
  async ask(q) {
    await q.int("vehicle_passenger_capacity", "Passengers");
    await q.int("vehicle_luggage_capacity", "Luggage (bags)");
    await q.pick("vehicle_fuel_policy", "Fuel policy", await q.cat.list("catalog.fuel_policy"));
  },
};

async function places(q: Ask, kind: "address" | "return"): Promise<void> {
  const place = `vehicle_delivery_${kind}_fixed_place`;
  const location = `vehicle_delivery_${kind}_fixed_location`;
  const price = `vehicle_delivery_${kind}_fixed_price`;
  const what = kind === "address" ? "delivery" : "return";
  const question =
    kind === "address"
      ? "Deliver the vehicle to fixed places (with a price each)?"
      : "Accept returns at other places (with a price each)?";
  if (!(await q.group(question, [place, location, price]))) return;
  const oldPlaces = toInts(q.a[place]);
  const oldLocations = toStrings(q.a[location]);
  const oldPrices = toInts(q.a[price]);
  const items = await q.cat.list("catalog.delivery");
  if (items?.length) {
    // Places from the catalog, a price for each.
    const chosen = await q.pickMany(place, `${kind === "address" ? "Delivery" : "Return"} places`, items);
    if (oldLocations.length) {
      q.deps.msg.warn(
        `the free-text ${what} locations given (${oldLocations.join(", ")}) are replaced by the places chosen`,
      );
      delete q.a[location];
    }
    const list: number[] = [];
    for (const id of chosen) {
      const i = oldPlaces.indexOf(id);
      const name = items.find((x) => x.id === id)?.label ?? `place ${id}`;
      const v = await q.askInt(price, `${name}: ${what} price`, i >= 0 ? oldPrices[i] : undefined, { required: true });
      list.push(v ?? 0);
    }
    if (list.length) q.a[price] = list;
    else delete q.a[price];
    return;
  }
  // No places catalog: free-text locations, a price for each.
  delete q.a[place];
  const locations: string[] = [];
  const list: number[] = [];
  for (let i = 0; ; i++) {
    const loc = await q.askText(location, `${what} location ${i + 1} (blank to finish)`, oldLocations[i], {
      required: false,
    });
    if (loc === undefined) break;
    locations.push(loc);
    list.push((await q.askInt(price, `${loc}: ${what} price`, oldPrices[i], { required: true })) ?? 0);
  }
  if (locations.length) {
    q.a[location] = locations;
    q.a[price] = list;
  } else {
    delete q.a[location];
    delete q.a[price];
  }
}

const delivery: Section = {
  ...of("delivery"),
  async ask(q) {
    await places(q, "address");
    await places(q, "return");
  },
};

const features: Section = {
  ...of("features"),
  async ask(q) {
    const seg = { segment_id: q.segment() };
    await q.pickMany("vehicle_benefits_id", "Benefits", await q.cat.list("catalog.benefits", seg));
    await q.pickMany("vehicle_options_id", "Additional features", await q.cat.list("catalog.additional_features", seg));
    await q.pickMany("vehicle_payment_types", "Accepted payment types", await q.cat.list("catalog.payment_types"));
  },
};

const availability: Section = {
  ...of("availability"),
  async ask(q) {
    if (await q.group("Block dates when the vehicle is not available?", ["vehicle_availability_calendar"])) {
      await q.text("vehicle_availability_calendar", "Unavailable dates, comma-separated (24.12.2026 or 2026-12-24)", {
        required: true,
      });
    }
  },
};

const texts: Section = {
  ...of("texts"),
  async ask(q) {
    if (await q.group("Add a description?", ["vehicle_description"]))
      await q.text("vehicle_description", "Description (at most 5000 characters)", { required: true });
    if (await q.group("Describe tuning or modifications?", ["vehicle_tuning_text"]))
      await q.text("vehicle_tuning_text", "Tuning (at most 5000 characters)", { required: true });
  },
};

const images: Section = {
  ...of("images"),
  async ask(q) {
    const ids = toInts(q.a.vehicle_images);
    if (ids.length) {
      const keep = await q.p.confirm({
        message: `Keep the images already uploaded (ids ${ids.join(", ")})?`,
        default: true,
      });
      if (!keep) delete q.a.vehicle_images;
    }
    const files = q.state.imageFiles;
    if (
      files.length &&
      !(await q.p.confirm({
        message: `Keep the ${files.length} image file(s) chosen (${files.join(", ")})?`,
        default: true,
      }))
    )
      files.length = 0;
    const more = await q.p.confirm({
      message: files.length ? "Add more image files?" : "Add image files? (uploaded only after you confirm)",
      default: false,
    });
    if (!more) return;
    for (;;) {
      const path = await q.p.input({
        message: `Image file ${files.length + 1} (blank to finish)`,
        validate: async (s) => {
          const t = s.trim();
          if (t === "") return true;
          if (files.includes(t)) return `${t} is already on the list`;
          return q.checkFile(t);
        },
      });
      if (path.trim() === "") break;
      files.push(path.trim());
    }
  },
};

export const SECTIONS: readonly Section[] = [
  vehicle,
  registration,
  prices,
  protection,
  distance,
  rules,
  capacity,
  delivery,
  features,
  availability,
  texts,
  images,
];

export function sectionOf(field: string): Section | undefined {
  return SECTIONS.find((s) => s.fields.includes(field));
}
