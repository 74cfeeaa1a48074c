/**
 * How a person reads a vehicle or an extra: sections in the order a person
 * thinks about a vehicle, each field with its human label. Declared once:
 * the `vehicle get` / `extra get` card and the wizard's questions and review
 * screen all read these (src/output/card.ts renders both).
 */

export interface SectionDecl {
  key: string;
  title: string;
  /** [wire name, label], in the order shown. */
  fields: ReadonlyArray<readonly [field: string, label: string]>;
}

const PP = "vehicle_protection_plans_";

export const VEHICLE_SECTIONS: readonly SectionDecl[] = [
  {
    key: "vehicle",
    title: "Vehicle",
    fields: [
      ["vehicle_segment_id", "Segment"],
      ["vehicle_model_id", "Model"],
      ["vehicle_year_of_issue_id", "Year"],
      ["vehicle_class_id", "Class"],
    ],
  },
  {
    key: "registration",
    title: "Registration and location",
    fields: [
      ["vehicle_reg_number", "Registration"],
      ["vehicle_reg_number_country", "Registration country"],
      ["vehicle_vin", "VIN"],
      ["vehicle_odometer", "Odometer"],
      ["pickup_location", "Pickup location"],
    ],
  },
  {
    key: "prices",
    title: "Prices",
    fields: [
      ["price_per_day", "Per day (1-2 days)"],
      ["price_per_3days", "Per day (3-6 days)"],
      ["price_per_week", "Per day (7-13 days)"],
      ["price_per_14days", "Per day (14+ days)"],
      ["vehicle_currency_id", "Currency"],
      ["price_subscription_month", "Monthly (1-2 months)"],
      ["price_subscription_3month", "Monthly (3-5 months)"],
      ["price_subscription_6month", "Monthly (6-12 months)"],
      ["price_subscription_year", "Yearly (1 year)"],
      ["price_subscription_2years", "Yearly (2 years)"],
      ["price_subscription_3years", "Yearly (3 years)"],
    ],
  },
  {
    key: "protection",
    title: "Protection and deposit",
    fields: [
      [`${PP}no_deposit`, "Security deposit taken"],
      [`${PP}deposit_price`, "Deposit"],
      [`${PP}deposit_pay_cash`, "Deposit in cash"],
      [`${PP}deposit_pay_debit_card`, "Deposit by debit card"],
      [`${PP}deposit_pay_credit_card`, "Deposit by credit card"],
      [`${PP}deposit_return_period_cash`, "Cash deposit returned"],
      [`${PP}deposit_return_period_card`, "Card deposit returned"],
      [`${PP}third_party_insurance`, "Third-party insurance"],
      [`${PP}insurance_price`, "Full insurance"],
      [`${PP}insurance_exclude_security_deposit`, "Insurance covers deposit"],
      [`${PP}cdw1_price_day`, "CDW 1 per day"],
      [`${PP}cdw1_franchise`, "CDW 1 franchise"],
      [`${PP}cdw1_security_deposit`, "CDW 1 deposit"],
      [`${PP}cdw2_price_day`, "CDW 2 per day"],
      [`${PP}cdw2_franchise`, "CDW 2 franchise"],
      [`${PP}cdw2_security_deposit`, "CDW 2 deposit"],
      [`${PP}tire_windshield_price_day`, "Tyres and windscreen per day"],
      [`${PP}theft_price_day`, "Theft protection per day"],
      [`${PP}interior_price_day`, "Interior protection per day"],
      [`${PP}roadside_price_day`, "Roadside assistance per day"],
    ],
  },
  {
    key: "distance",
    title: "Distance",
    fields: [
      ["vehicle_distance_unit_id", "Distance unit"],
      ["vehicle_distance_included", "Included per day"],
      ["vehicle_surcharge_for_excess", "Surcharge per extra unit"],
      ["price_surcharge_over_time", "Monthly price over time"],
    ],
  },
  {
    key: "rules",
    title: "Rental rules",
    fields: [
      ["vehicle_activity", "Available for rent"],
      ["vehicle_minimal_renting_period", "Minimum rental (days)"],
      ["vehicle_minimal_age_to_rent", "Minimum age"],
      ["vehicle_drivers_experience", "Driving experience (years)"],
      ["vehicle_booking_lead_time", "Booking lead time (days)"],
    ],
  },
  {
    key: "capacity",
    title: "Capacity and fuel",
    fields: [
      ["vehicle_passenger_capacity", "Passengers"],
      ["vehicle_luggage_capacity", "Luggage (bags)"],
      ["vehicle_fuel_policy", "Fuel policy"],
    ],
  },
  {
    key: "delivery",
    title: "Delivery and return",
    fields: [
      ["vehicle_delivery_address_fixed_place", "Delivery places"],
      ["vehicle_delivery_address_fixed_location", "Delivery locations"],
      ["vehicle_delivery_address_fixed_price", "Delivery prices"],
      ["vehicle_delivery_return_fixed_place", "Return places"],
      ["vehicle_delivery_return_fixed_location", "Return locations"],
      ["vehicle_delivery_return_fixed_price", "Return prices"],
    ],
  },
  {
    key: "features",
    title: "Benefits, features and payment",
    fields: [
      ["vehicle_benefits_id", "Benefits"],
      ["vehicle_options_id", "Features"],
      ["vehicle_payment_types", "Payment types"],
    ],
  },
  { key: "extras", title: "Extras", fields: [["vehicle_extras", "Extras"]] },
  { key: "availability", title: "Availability", fields: [["vehicle_availability_calendar", "Blocked dates"]] },
  {
    key: "texts",
    title: "Description",
    fields: [
      ["vehicle_description", "Description"],
      ["vehicle_tuning_text", "Tuning"],
    ],
  },
  { key: "images", title: "Images", fields: [["vehicle_images", "Images"]] },
];

export const EXTRA_SECTIONS: readonly SectionDecl[] = [
  {
    key: "extra",
    title: "Extra",
    fields: [
      ["option_id", "Option"],
      ["price", "Price"],
      ["currency_id", "Currency"],
      ["period", "Period"],
      ["quantity", "Quantity"],
      ["is_active", "Active"],
    ],
  },
];

/** The members a record carries beside its fields, shown last (`Record`), labelled. */
export const RECORD_LABELS: Readonly<Record<string, string>> = {
  id: "Id",
  user_id: "Owner",
  created_at: "Created",
  updated_at: "Updated",
};

export function sectionDecl(key: string): SectionDecl {
  const s = VEHICLE_SECTIONS.find((x) => x.key === key);
  if (!s) throw new Error(`no section ${key}`);
  return s;
}

/** Fields whose amount is in the record's currency (the card adds its code). */
export const MONEY_FIELD =
  /^price_|_price(_day)?$|_franchise$|_security_deposit$|^vehicle_surcharge_for_excess$|^price$/;
