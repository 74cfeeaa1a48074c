import { clientFilledNames, editableFields, type ParamSpec, param } from "./types.js";

/**
 * Every vehicle input field of the v302 contract, in the order of the spec's
 * table. Create and edit share these names.
 *
 * Spec gaps decided here:
 * - Fields the spec marks required in one statement and optional in another
 *   (`"conflicting"`) are accepted present or absent, never demanded.
 * - `vehicle_reg_number_country` is typed integer (the spec's own choice).
 * - `vehicle_payment_types` and `vehicle_extras` are "array" without an item
 *   type; both hold catalog / extra ids, so they are integer arrays.
 * - Prices and amounts have minimum 0 unless the spec says otherwise.
 */

const money = { min: 0 };

const field = param;

export const VEHICLE_FIELDS: readonly ParamSpec[] = [
  field("user_id", "integer", true, "Owner identifier; must match the API key's owner", { min: 1, clientFilled: true }),
  field("locale_id", "integer", false, "Locale id", { min: 1, catalog: "catalog.locales", clientFilled: true }),
  field("pickup_location", "string", true, "Vehicle location as free text"),
  field("vehicle_class_id", "integer", true, "Vehicle class id", { min: 1, catalog: "catalog.classes_or_types" }),
  field("vehicle_model_id", "integer", true, "Vehicle configuration id", { min: 1, catalog: "catalog.equipments" }),
  field("vehicle_segment_id", "integer", true, "Segment id", { min: 1, catalog: "catalog.segments" }),
  field("vehicle_year_of_issue_id", "integer", true, "Year of issue: the year (2024), or its catalog id (id:17)", {
    min: 1,
    catalog: "catalog.years_of_issue",
    namesFrom: 1000,
  }),
  field("vehicle_vin", "string", "conflicting", "VIN"),
  field("vehicle_odometer", "string", "conflicting", "Recorded odometer reading"),
  field(
    "vehicle_reg_number_country",
    "integer",
    "conflicting",
    "Registration country id from the setup configuration",
    {
      min: 1,
      catalog: "catalog.setup",
    },
  ),
  field("vehicle_reg_number", "string", true, "Registration number"),
  field("vehicle_activity", "flag", true, "1 = active (available for rent), 0 = inactive"),
  field("price_per_day", "integer", true, "Daily price", money),
  field("price_per_3days", "integer", true, "Daily price for rentals of 3-6 days", money),
  field("price_per_week", "integer", true, "Daily price for rentals of 7-13 days", money),
  field("price_per_14days", "integer", true, "Daily price for rentals of 14 days or longer", money),
  field("vehicle_currency_id", "integer", false, "Pricing currency id", { min: 1, catalog: "catalog.currencies" }),
  field("vehicle_protection_plans_insurance_price", "integer", "conflicting", "Insurance price", money),
  field(
    "vehicle_protection_plans_insurance_exclude_security_deposit",
    "flag",
    false,
    "Include the deposit in full insurance coverage",
  ),
  field("vehicle_protection_plans_no_deposit", "flag", true, "1 = a security deposit is present, 0 = no deposit"),
  field("vehicle_protection_plans_third_party_insurance", "flag", true, "1 = third-party insurance included, 0 = not"),
  field("vehicle_protection_plans_deposit_price", "integer", true, "Security deposit amount", money),
  field("vehicle_protection_plans_deposit_pay_cash", "flag", false, "Cash accepted for the deposit"),
  field("vehicle_protection_plans_deposit_pay_debit_card", "flag", false, "Debit card accepted for the deposit"),
  field("vehicle_protection_plans_deposit_pay_credit_card", "flag", false, "Credit card accepted for the deposit"),
  field(
    "vehicle_protection_plans_deposit_return_period_cash",
    "integer",
    false,
    "Id of one deposit return option (cash)",
    { min: 1, catalog: "catalog.protection_plans" },
  ),
  field(
    "vehicle_protection_plans_deposit_return_period_card",
    "integer",
    false,
    "Id of one deposit return option (card)",
    { min: 1, catalog: "catalog.protection_plans" },
  ),
  field("vehicle_protection_plans_cdw1_price_day", "integer", false, "Protection plan CDW1 daily price", money),
  field("vehicle_protection_plans_cdw1_franchise", "integer", false, "CDW1 franchise", money),
  field("vehicle_protection_plans_cdw1_security_deposit", "integer", false, "CDW1 security deposit", money),
  field("vehicle_protection_plans_cdw2_price_day", "integer", false, "CDW2 daily price", money),
  field("vehicle_protection_plans_cdw2_franchise", "integer", false, "CDW2 franchise", money),
  field("vehicle_protection_plans_cdw2_security_deposit", "integer", false, "CDW2 security deposit", money),
  field(
    "vehicle_protection_plans_tire_windshield_price_day",
    "integer",
    false,
    "Tire and windshield plan daily price",
    money,
  ),
  field("vehicle_protection_plans_theft_price_day", "integer", false, "Theft plan daily price", money),
  field("vehicle_protection_plans_interior_price_day", "integer", false, "Interior plan daily price", money),
  field("vehicle_protection_plans_roadside_price_day", "integer", false, "Roadside plan daily price", money),
  field("vehicle_tuning_text", "string", false, "Tuning description, at most 5000 characters", { maxLength: 5000 }),
  field("vehicle_delivery_address_fixed_place", "integer[]", false, "Delivery place ids", {
    min: 1,
    catalog: "catalog.delivery",
  }),
  field("vehicle_delivery_address_fixed_location", "string[]", false, "Delivery locations"),
  field("vehicle_delivery_address_fixed_price", "integer[]", false, "Delivery price per location", money),
  field("vehicle_delivery_return_fixed_place", "integer[]", false, "Alternative return place ids", {
    min: 1,
    catalog: "catalog.delivery",
  }),
  field("vehicle_delivery_return_fixed_location", "string[]", false, "Alternative return locations"),
  field("vehicle_delivery_return_fixed_price", "integer[]", false, "Return price per location", money),
  field("vehicle_distance_unit_id", "integer", false, "Distance unit id; default 0", {
    min: 0,
    default: 0,
    catalog: "catalog.distance_units",
  }),
  field("vehicle_distance_included", "integer", true, "Distance included in the rental", money),
  field("vehicle_surcharge_for_excess", "integer", true, "Daily excess-distance surcharge per unit of distance", money),
  field("price_surcharge_over_time", "integer", true, "Monthly vehicle price, as described", money),
  field("vehicle_images", "integer[]", "conflicting", "Vehicle image ids (from image upload)", { min: 1 }),
  field("vehicle_minimal_renting_period", "integer", true, "Minimum rental period in days (>= 1)", { min: 1 }),
  field("vehicle_minimal_age_to_rent", "integer", true, "Minimum renter age in years", { min: 0 }),
  field("vehicle_drivers_experience", "integer", true, "Minimum driving experience in years", { min: 0 }),
  field("price_subscription_month", "integer", false, "Monthly price for rentals of 1-2 months", money),
  field("price_subscription_3month", "integer", false, "Monthly price for rentals of 3-5 months", money),
  field("price_subscription_6month", "integer", false, "Monthly price for rentals of 6-12 months", money),
  field("price_subscription_year", "integer", false, "Annual price for a 1-year rental", money),
  field("price_subscription_2years", "integer", false, "Annual price for a 2-year rental", money),
  field("price_subscription_3years", "integer", false, "Annual price for a 3-year rental", money),
  field("vehicle_description", "string", false, "Description, at most 5000 characters", { maxLength: 5000 }),
  field("vehicle_benefits_id", "integer[]", false, "Benefit ids", { min: 1, catalog: "catalog.benefits" }),
  field("vehicle_options_id", "integer[]", false, "Additional-feature ids", {
    min: 1,
    catalog: "catalog.additional_features",
  }),
  field("vehicle_payment_types", "integer[]", false, "Accepted payment methods (payment type ids)", {
    min: 1,
    catalog: "catalog.payment_types",
  }),
  field(
    "vehicle_availability_calendar",
    "string",
    false,
    "Comma-separated unavailable dates in d.m.Y format (e.g. 24.12.2026,25.12.2026)",
  ),
  field("vehicle_passenger_capacity", "integer", true, "Passenger capacity", { min: 0 }),
  field("vehicle_luggage_capacity", "integer", true, "Luggage capacity", { min: 0 }),
  field("vehicle_extras", "integer[]", false, "Extras assigned to the vehicle (extra ids)", { min: 1 }),
  field("vehicle_fuel_policy", "integer", true, "Fuel policy id", { min: 1, catalog: "catalog.fuel_policy" }),
  field("vehicle_booking_lead_time", "integer", false, "Minimum booking lead time, 1 to 3 days", { min: 1, max: 3 }),
];

/** The vehicle fields a person gives (create, edit, files, plans, tools): all but the client-filled ones. */
export const VEHICLE_EDITABLE_FIELDS: readonly ParamSpec[] = editableFields(VEHICLE_FIELDS);

/** The vehicle fields the client fills (`user_id` from the profile, `locale_id` from the settings). */
export const VEHICLE_CLIENT_FILLED: ReadonlySet<string> = clientFilledNames(VEHICLE_FIELDS);

export const VEHICLE_FIELD_BY_NAME: ReadonlyMap<string, ParamSpec> = new Map(VEHICLE_FIELDS.map((f) => [f.name, f]));

/** Short flag aliases for the most common fields (long flags are the kebab-case wire names). */
export const VEHICLE_FIELD_ALIASES: Readonly<Record<string, string>> = {
  vehicle_reg_number: "reg",
  vehicle_model_id: "model",
  vehicle_class_id: "class",
  vehicle_segment_id: "segment",
  vehicle_year_of_issue_id: "year",
  price_per_day: "price",
  vehicle_currency_id: "currency",
  vehicle_activity: "active",
  pickup_location: "location",
  vehicle_images: "image",
  vehicle_description: "description",
};

/**
 * Date format of `vehicle_availability_calendar` items: d.m.Y (day and month
 * with or without a leading zero, four-digit year).
 */
export const AVAILABILITY_DATE = /^(0?[1-9]|[12]\d|3[01])\.(0?[1-9]|1[0-2])\.\d{4}$/;
