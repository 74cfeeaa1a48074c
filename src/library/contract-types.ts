// Generated from the record schemas (src/contract/schemas.ts, built from the contract table)
// by scripts/contract-types.ts: do not edit. test/library/contract-types.test.ts fails when it is out of date.

/** A vehicle as created: wire names and types of the v302 contract (the client fills user_id and locale_id). */
export type VehicleInput = {
  /** Vehicle location as free text. */
  pickup_location: string;
  /** Vehicle class id. At least 1. Id from catalog.classes_or_types. */
  vehicle_class_id: number;
  /** Vehicle configuration id. At least 1. Id from catalog.equipments. */
  vehicle_model_id: number;
  /** Segment id. At least 1. Id from catalog.segments. */
  vehicle_segment_id: number;
  /** Year of issue: the year (2024), or its catalog id (id:17). At least 1. Id from catalog.years_of_issue. */
  vehicle_year_of_issue_id: number;
  /** VIN. The spec states it both required and optional: accepted either way. */
  vehicle_vin?: string;
  /** Recorded odometer reading. The spec states it both required and optional: accepted either way. */
  vehicle_odometer?: string;
  /** Registration country id from the setup configuration. At least 1. Id from catalog.setup. The spec states it both required and optional: accepted either way. */
  vehicle_reg_number_country?: number;
  /** Registration number. */
  vehicle_reg_number: string;
  /** 1 = active (available for rent), 0 = inactive. */
  vehicle_activity: 0 | 1;
  /** Daily price. At least 0. */
  price_per_day: number;
  /** Daily price for rentals of 3-6 days. At least 0. */
  price_per_3days: number;
  /** Daily price for rentals of 7-13 days. At least 0. */
  price_per_week: number;
  /** Daily price for rentals of 14 days or longer. At least 0. */
  price_per_14days: number;
  /** Pricing currency id. At least 1. Id from catalog.currencies. */
  vehicle_currency_id?: number;
  /** Insurance price. At least 0. The spec states it both required and optional: accepted either way. */
  vehicle_protection_plans_insurance_price?: number;
  /** Include the deposit in full insurance coverage. */
  vehicle_protection_plans_insurance_exclude_security_deposit?: 0 | 1;
  /** 1 = a security deposit is present, 0 = no deposit. */
  vehicle_protection_plans_no_deposit: 0 | 1;
  /** 1 = third-party insurance included, 0 = not. */
  vehicle_protection_plans_third_party_insurance: 0 | 1;
  /** Security deposit amount. At least 0. */
  vehicle_protection_plans_deposit_price: number;
  /** Cash accepted for the deposit. */
  vehicle_protection_plans_deposit_pay_cash?: 0 | 1;
  /** Debit card accepted for the deposit. */
  vehicle_protection_plans_deposit_pay_debit_card?: 0 | 1;
  /** Credit card accepted for the deposit. */
  vehicle_protection_plans_deposit_pay_credit_card?: 0 | 1;
  /** Id of one deposit return option (cash). At least 1. Id from catalog.protection_plans. */
  vehicle_protection_plans_deposit_return_period_cash?: number;
  /** Id of one deposit return option (card). At least 1. Id from catalog.protection_plans. */
  vehicle_protection_plans_deposit_return_period_card?: number;
  /** Protection plan CDW1 daily price. At least 0. */
  vehicle_protection_plans_cdw1_price_day?: number;
  /** CDW1 franchise. At least 0. */
  vehicle_protection_plans_cdw1_franchise?: number;
  /** CDW1 security deposit. At least 0. */
  vehicle_protection_plans_cdw1_security_deposit?: number;
  /** CDW2 daily price. At least 0. */
  vehicle_protection_plans_cdw2_price_day?: number;
  /** CDW2 franchise. At least 0. */
  vehicle_protection_plans_cdw2_franchise?: number;
  /** CDW2 security deposit. At least 0. */
  vehicle_protection_plans_cdw2_security_deposit?: number;
  /** Tire and windshield plan daily price. At least 0. */
  vehicle_protection_plans_tire_windshield_price_day?: number;
  /** Theft plan daily price. At least 0. */
  vehicle_protection_plans_theft_price_day?: number;
  /** Interior plan daily price. At least 0. */
  vehicle_protection_plans_interior_price_day?: number;
  /** Roadside plan daily price. At least 0. */
  vehicle_protection_plans_roadside_price_day?: number;
  /** Tuning description, at most 5000 characters. At most 5000 characters. */
  vehicle_tuning_text?: string;
  /** Delivery place ids. At least 1. Id from catalog.delivery. */
  vehicle_delivery_address_fixed_place?: number[];
  /** Delivery locations. */
  vehicle_delivery_address_fixed_location?: string[];
  /** Delivery price per location. At least 0. */
  vehicle_delivery_address_fixed_price?: number[];
  /** Alternative return place ids. At least 1. Id from catalog.delivery. */
  vehicle_delivery_return_fixed_place?: number[];
  /** Alternative return locations. */
  vehicle_delivery_return_fixed_location?: string[];
  /** Return price per location. At least 0. */
  vehicle_delivery_return_fixed_price?: number[];
  /** Distance unit id; default 0. At least 0. Id from catalog.distance_units. */
  vehicle_distance_unit_id?: number;
  /** Distance included in the rental. At least 0. */
  vehicle_distance_included: number;
  /** Daily excess-distance surcharge per unit of distance. At least 0. */
  vehicle_surcharge_for_excess: number;
  /** Monthly vehicle price, as described. At least 0. */
  price_surcharge_over_time: number;
  /** Vehicle image ids (from image upload). At least 1. The spec states it both required and optional: accepted either way. */
  vehicle_images?: number[];
  /** Minimum rental period in days (>= 1). At least 1. */
  vehicle_minimal_renting_period: number;
  /** Minimum renter age in years. At least 0. */
  vehicle_minimal_age_to_rent: number;
  /** Minimum driving experience in years. At least 0. */
  vehicle_drivers_experience: number;
  /** Monthly price for rentals of 1-2 months. At least 0. */
  price_subscription_month?: number;
  /** Monthly price for rentals of 3-5 months. At least 0. */
  price_subscription_3month?: number;
  /** Monthly price for rentals of 6-12 months. At least 0. */
  price_subscription_6month?: number;
  /** Annual price for a 1-year rental. At least 0. */
  price_subscription_year?: number;
  /** Annual price for a 2-year rental. At least 0. */
  price_subscription_2years?: number;
  /** Annual price for a 3-year rental. At least 0. */
  price_subscription_3years?: number;
  /** Description, at most 5000 characters. At most 5000 characters. */
  vehicle_description?: string;
  /** Benefit ids. At least 1. Id from catalog.benefits. */
  vehicle_benefits_id?: number[];
  /** Additional-feature ids. At least 1. Id from catalog.additional_features. */
  vehicle_options_id?: number[];
  /** Accepted payment methods (payment type ids). At least 1. Id from catalog.payment_types. */
  vehicle_payment_types?: number[];
  /** Comma-separated unavailable dates in d.m.Y format (e.g. 24.12.2026,25.12.2026). */
  vehicle_availability_calendar?: string;
  /** Passenger capacity. At least 0. */
  vehicle_passenger_capacity: number;
  /** Luggage capacity. At least 0. */
  vehicle_luggage_capacity: number;
  /** Extras assigned to the vehicle (extra ids). At least 1. */
  vehicle_extras?: number[];
  /** Fuel policy id. At least 1. Id from catalog.fuel_policy. */
  vehicle_fuel_policy: number;
  /** Minimum booking lead time, 1 to 3 days. From 1 to 3. */
  vehicle_booking_lead_time?: number;
};

/** A change to a vehicle: the fields to change (vehicles.edit reads the record, applies them, sends the whole). */
export type VehicleChange = Partial<VehicleInput>;

/** An extra as created (the client fills locale_id). */
export type ExtraInput = {
  /** Extra option type id (from extra options). At least 1. Id from catalog.extra_options. */
  option_id: number;
  /** Price. At least 0. */
  price: number;
  /** Currency id. At least 1. Id from catalog.currencies. */
  currency_id: number;
  /** Charging period: 1 = per day, 2 = per rental. From 1 to 2. */
  period: number;
  /** Quantity available. At least 1. */
  quantity: number;
};

/** A change to an extra (extras.update sends the whole record: the members not given are kept). */
export type ExtraChange = Partial<ExtraInput>;

/** A vehicle as returned (wire names of the v302 contract; `id` first). The contract does not show the returned fields: rentctl reads them as the input fields, and other members the server adds are kept. Read the members beyond these (typed unknown) as `const all: Readonly<Record<string, unknown>> = record`. */
export type Vehicle = {
  /** Identifier (integer >= 1) */
  id: number;
  /** Owner identifier; must match the API key's owner. At least 1. */
  user_id: number;
  /** Locale id. At least 1. Id from catalog.locales. */
  locale_id?: number | null;
  /** Vehicle location as free text. */
  pickup_location: string;
  /** Vehicle class id. At least 1. Id from catalog.classes_or_types. */
  vehicle_class_id: number;
  /** Vehicle configuration id. At least 1. Id from catalog.equipments. */
  vehicle_model_id: number;
  /** Segment id. At least 1. Id from catalog.segments. */
  vehicle_segment_id: number;
  /** Year of issue: the year (2024), or its catalog id (id:17). At least 1. Id from catalog.years_of_issue. */
  vehicle_year_of_issue_id: number;
  /** VIN. The spec states it both required and optional: accepted either way. */
  vehicle_vin?: string | null;
  /** Recorded odometer reading. The spec states it both required and optional: accepted either way. */
  vehicle_odometer?: string | null;
  /** Registration country id from the setup configuration. At least 1. Id from catalog.setup. The spec states it both required and optional: accepted either way. */
  vehicle_reg_number_country?: number | null;
  /** Registration number. */
  vehicle_reg_number: string;
  /** 1 = active (available for rent), 0 = inactive. */
  vehicle_activity: 0 | 1;
  /** Daily price. At least 0. */
  price_per_day: number;
  /** Daily price for rentals of 3-6 days. At least 0. */
  price_per_3days: number;
  /** Daily price for rentals of 7-13 days. At least 0. */
  price_per_week: number;
  /** Daily price for rentals of 14 days or longer. At least 0. */
  price_per_14days: number;
  /** Pricing currency id. At least 1. Id from catalog.currencies. */
  vehicle_currency_id?: number | null;
  /** Insurance price. At least 0. The spec states it both required and optional: accepted either way. */
  vehicle_protection_plans_insurance_price?: number | null;
  /** Include the deposit in full insurance coverage. */
  vehicle_protection_plans_insurance_exclude_security_deposit?: 0 | 1 | null;
  /** 1 = a security deposit is present, 0 = no deposit. */
  vehicle_protection_plans_no_deposit: 0 | 1;
  /** 1 = third-party insurance included, 0 = not. */
  vehicle_protection_plans_third_party_insurance: 0 | 1;
  /** Security deposit amount. At least 0. */
  vehicle_protection_plans_deposit_price: number;
  /** Cash accepted for the deposit. */
  vehicle_protection_plans_deposit_pay_cash?: 0 | 1 | null;
  /** Debit card accepted for the deposit. */
  vehicle_protection_plans_deposit_pay_debit_card?: 0 | 1 | null;
  /** Credit card accepted for the deposit. */
  vehicle_protection_plans_deposit_pay_credit_card?: 0 | 1 | null;
  /** Id of one deposit return option (cash). At least 1. Id from catalog.protection_plans. */
  vehicle_protection_plans_deposit_return_period_cash?: number | null;
  /** Id of one deposit return option (card). At least 1. Id from catalog.protection_plans. */
  vehicle_protection_plans_deposit_return_period_card?: number | null;
  /** Protection plan CDW1 daily price. At least 0. */
  vehicle_protection_plans_cdw1_price_day?: number | null;
  /** CDW1 franchise. At least 0. */
  vehicle_protection_plans_cdw1_franchise?: number | null;
  /** CDW1 security deposit. At least 0. */
  vehicle_protection_plans_cdw1_security_deposit?: number | null;
  /** CDW2 daily price. At least 0. */
  vehicle_protection_plans_cdw2_price_day?: number | null;
  /** CDW2 franchise. At least 0. */
  vehicle_protection_plans_cdw2_franchise?: number | null;
  /** CDW2 security deposit. At least 0. */
  vehicle_protection_plans_cdw2_security_deposit?: number | null;
  /** Tire and windshield plan daily price. At least 0. */
  vehicle_protection_plans_tire_windshield_price_day?: number | null;
  /** Theft plan daily price. At least 0. */
  vehicle_protection_plans_theft_price_day?: number | null;
  /** Interior plan daily price. At least 0. */
  vehicle_protection_plans_interior_price_day?: number | null;
  /** Roadside plan daily price. At least 0. */
  vehicle_protection_plans_roadside_price_day?: number | null;
  /** Tuning description, at most 5000 characters. At most 5000 characters. */
  vehicle_tuning_text?: string | null;
  /** Delivery place ids. At least 1. Id from catalog.delivery. */
  vehicle_delivery_address_fixed_place?: number[] | null;
  /** Delivery locations. */
  vehicle_delivery_address_fixed_location?: string[] | null;
  /** Delivery price per location. At least 0. */
  vehicle_delivery_address_fixed_price?: number[] | null;
  /** Alternative return place ids. At least 1. Id from catalog.delivery. */
  vehicle_delivery_return_fixed_place?: number[] | null;
  /** Alternative return locations. */
  vehicle_delivery_return_fixed_location?: string[] | null;
  /** Return price per location. At least 0. */
  vehicle_delivery_return_fixed_price?: number[] | null;
  /** Distance unit id; default 0. At least 0. Id from catalog.distance_units. */
  vehicle_distance_unit_id?: number | null;
  /** Distance included in the rental. At least 0. */
  vehicle_distance_included: number;
  /** Daily excess-distance surcharge per unit of distance. At least 0. */
  vehicle_surcharge_for_excess: number;
  /** Monthly vehicle price, as described. At least 0. */
  price_surcharge_over_time: number;
  /** Vehicle image ids (from image upload). At least 1. The spec states it both required and optional: accepted either way. */
  vehicle_images?: number[] | null;
  /** Minimum rental period in days (>= 1). At least 1. */
  vehicle_minimal_renting_period: number;
  /** Minimum renter age in years. At least 0. */
  vehicle_minimal_age_to_rent: number;
  /** Minimum driving experience in years. At least 0. */
  vehicle_drivers_experience: number;
  /** Monthly price for rentals of 1-2 months. At least 0. */
  price_subscription_month?: number | null;
  /** Monthly price for rentals of 3-5 months. At least 0. */
  price_subscription_3month?: number | null;
  /** Monthly price for rentals of 6-12 months. At least 0. */
  price_subscription_6month?: number | null;
  /** Annual price for a 1-year rental. At least 0. */
  price_subscription_year?: number | null;
  /** Annual price for a 2-year rental. At least 0. */
  price_subscription_2years?: number | null;
  /** Annual price for a 3-year rental. At least 0. */
  price_subscription_3years?: number | null;
  /** Description, at most 5000 characters. At most 5000 characters. */
  vehicle_description?: string | null;
  /** Benefit ids. At least 1. Id from catalog.benefits. */
  vehicle_benefits_id?: number[] | null;
  /** Additional-feature ids. At least 1. Id from catalog.additional_features. */
  vehicle_options_id?: number[] | null;
  /** Accepted payment methods (payment type ids). At least 1. Id from catalog.payment_types. */
  vehicle_payment_types?: number[] | null;
  /** Comma-separated unavailable dates in d.m.Y format (e.g. 24.12.2026,25.12.2026). */
  vehicle_availability_calendar?: string | null;
  /** Passenger capacity. At least 0. */
  vehicle_passenger_capacity: number;
  /** Luggage capacity. At least 0. */
  vehicle_luggage_capacity: number;
  /** Extras assigned to the vehicle (extra ids). At least 1. */
  vehicle_extras?: number[] | null;
  /** Fuel policy id. At least 1. Id from catalog.fuel_policy. */
  vehicle_fuel_policy: number;
  /** Minimum booking lead time, 1 to 3 days. From 1 to 3. */
  vehicle_booking_lead_time?: number | null;
};

/** An extra as returned: `id` first. The contract shows only `extra_id`; option_id, price, currency_id, period and quantity are rentctl's assumed names (src/contract/extra-fields.ts), and other members are kept. Read the members beyond these (typed unknown) as `const all: Readonly<Record<string, unknown>> = record`. */
export type Extra = {
  /** Identifier (integer >= 1) */
  id: number;
  /** Identifier (integer >= 1) */
  extra_id?: number;
  /** Locale id. At least 1. Id from catalog.locales. */
  locale_id?: number | null;
  /** Extra option type id (from extra options). At least 1. Id from catalog.extra_options. */
  option_id: number;
  /** Price. At least 0. */
  price: number;
  /** Currency id. At least 1. Id from catalog.currencies. */
  currency_id: number;
  /** Charging period: 1 = per day, 2 = per rental. From 1 to 2. */
  period: number;
  /** Quantity available. At least 1. */
  quantity: number;
};

/** An uploaded image: its id (for `vehicle_images`); other members the server adds are kept. Read the members beyond these (typed unknown) as `const all: Readonly<Record<string, unknown>> = record`. */
export type Image = {
  /** Identifier (integer >= 1) */
  id: number;
};

/** An item of the currencies list. Read the members beyond these (typed unknown) as `const all: Readonly<Record<string, unknown>> = record`. */
export type Currency = {
  /** Identifier (integer >= 1) */
  id: number;
  /** Currency code */
  code: string;
  symbol: string;
};

/** An item of the locales list. Read the members beyond these (typed unknown) as `const all: Readonly<Record<string, unknown>> = record`. */
export type Locale = {
  /** Identifier (integer >= 1) */
  id: number;
  name: string;
  /** Short language code */
  code: string;
};

/** An item of the segments list (1 = cars). Read the members beyond these (typed unknown) as `const all: Readonly<Record<string, unknown>> = record`. */
export type Segment = {
  /** Identifier (integer >= 1) */
  id: number;
  name: string;
  realm: string;
};

/** An item of the other catalog lists: the contract shows no fields beyond an object; rentctl reads `id` and `name`, and keeps the rest. Read the members beyond these (typed unknown) as `const all: Readonly<Record<string, unknown>> = record`. */
export type CatalogItem = {
  /** Identifier (integer >= 1) */
  id: number;
  name?: string;
};

/** Each catalog's query parameters, by the client's method name (`client.catalog.brands({ segment_id: 1 })`). */
export interface CatalogParams {
  /** Setup configuration (registration countries and other dictionaries) (GET /api/v302/setup). */
  setup: {
    /** Vehicle segment (1 = cars). At least 1. Id from catalog.segments. */
    segment_id?: number;
    /** Response language (40 = English). At least 1. Id from catalog.locales. */
    locale_id?: number;
  };
  /** Currencies (id, code, symbol) (GET /api/v302/currencies). */
  currencies: Record<string, never>;
  /** Locales (id, name, code) (GET /api/v302/locales). */
  locales: Record<string, never>;
  /** Vehicle segments (1 = cars) (GET /api/v302/vehicles/segments). */
  segments: {
    /** Response language (40 = English). At least 1. Id from catalog.locales. */
    locale_id?: number;
  };
  /** Vehicle brands of a segment (GET /api/v302/vehicles/brands). */
  brands: {
    /** Vehicle segment (1 = cars). At least 1. Id from catalog.segments. */
    segment_id?: number;
  };
  /** Models of a brand (GET /api/v302/vehicles/models). */
  models: {
    /** Brand. At least 1. Id from catalog.brands. */
    brand_id?: number;
    /** Vehicle segment (1 = cars). At least 1. Id from catalog.segments. */
    segment_id?: number;
    /** Response language (40 = English). At least 1. Id from catalog.locales. */
    locale_id?: number;
  };
  /** Configurations (equipments) of a model (GET /api/v302/vehicles/equipments). */
  equipments: {
    /** Model. At least 1. Id from catalog.models. */
    model_id?: number;
    /** Response language (40 = English). At least 1. Id from catalog.locales. */
    locale_id?: number;
  };
  /** Years of issue (GET /api/v302/vehicles/years_of_issue). */
  years: Record<string, never>;
  /** Vehicle classes or types of a segment (GET /api/v302/vehicles/classes_or_types). */
  classes: {
    /** Vehicle segment (1 = cars). At least 1. Id from catalog.segments. */
    segment_id?: number;
    /** Response language (40 = English). At least 1. Id from catalog.locales. */
    locale_id?: number;
  };
  /** Transmissions of a segment (GET /api/v302/vehicles/transmissions). */
  transmissions: {
    /** Vehicle segment (1 = cars). At least 1. Id from catalog.segments. */
    segment_id?: number;
    /** Response language (40 = English). At least 1. Id from catalog.locales. */
    locale_id?: number;
  };
  /** Benefits (GET /api/v302/vehicles/benefits). */
  benefits: {
    /** Vehicle segment (1 = cars). At least 1. Id from catalog.segments. */
    segment_id?: number;
    /** Response language (40 = English). At least 1. Id from catalog.locales. */
    locale_id?: number;
  };
  /** Additional features (GET /api/v302/vehicles/additional_features). */
  features: {
    /** Vehicle segment (1 = cars). At least 1. Id from catalog.segments. */
    segment_id?: number;
    /** Response language (40 = English). At least 1. Id from catalog.locales. */
    locale_id?: number;
  };
  /** Racing and tuning options (GET /api/v302/vehicles/options). */
  options: {
    /** Vehicle segment (1 = cars). At least 1. Id from catalog.segments. */
    segment_id?: number;
    /** Response language (40 = English). At least 1. Id from catalog.locales. */
    locale_id?: number;
  };
  /** Protection plan settings (GET /api/v302/vehicles/protection_plans). */
  protectionPlans: {
    /** Response language (40 = English). At least 1. Id from catalog.locales. */
    locale_id?: number;
  };
  /** Delivery and return places (GET /api/v302/vehicles/delivery). */
  delivery: {
    /** Response language (40 = English). At least 1. Id from catalog.locales. */
    locale_id?: number;
  };
  /** Fuel policies (GET /api/v302/vehicles/fuel_policy). */
  fuelPolicies: {
    /** Response language (40 = English). At least 1. Id from catalog.locales. */
    locale_id?: number;
  };
  /** Distance units (GET /api/v302/vehicles/distance_units). */
  distanceUnits: {
    /** Response language (40 = English). At least 1. Id from catalog.locales. */
    locale_id?: number;
  };
  /** Payment systems (GET /api/v302/vehicles/payment_systems). */
  paymentSystems: {
    /** Response language (40 = English). At least 1. Id from catalog.locales. */
    locale_id?: number;
  };
  /** Payment types (GET /api/v302/vehicles/payment/types). */
  paymentTypes: {
    /** Response language (40 = English). At least 1. Id from catalog.locales. */
    locale_id?: number;
  };
  /** Extra option types (GET /api/v302/vehicles/extras/options). */
  extraOptions: {
    /** Response language (40 = English). At least 1. Id from catalog.locales. */
    locale_id?: number;
  };
}

/** The catalogs' method names. */
export type CatalogName = keyof CatalogParams;

/** The item each catalog lists (the contract shows the fields of currencies, locales and segments). */
export interface CatalogItems {
  setup: CatalogItem;
  currencies: Currency;
  locales: Locale;
  segments: Segment;
  brands: CatalogItem;
  models: CatalogItem;
  equipments: CatalogItem;
  years: CatalogItem;
  classes: CatalogItem;
  transmissions: CatalogItem;
  benefits: CatalogItem;
  features: CatalogItem;
  options: CatalogItem;
  protectionPlans: CatalogItem;
  delivery: CatalogItem;
  fuelPolicies: CatalogItem;
  distanceUnits: CatalogItem;
  paymentSystems: CatalogItem;
  paymentTypes: CatalogItem;
  extraOptions: CatalogItem;
}

/** The wire name of each catalog method: the operation it calls. */
export const CATALOG_OPERATION_IDS: Readonly<Record<CatalogName, string>> = {
  setup: "catalog.setup",
  currencies: "catalog.currencies",
  locales: "catalog.locales",
  segments: "catalog.segments",
  brands: "catalog.brands",
  models: "catalog.models",
  equipments: "catalog.equipments",
  years: "catalog.years_of_issue",
  classes: "catalog.classes_or_types",
  transmissions: "catalog.transmissions",
  benefits: "catalog.benefits",
  features: "catalog.additional_features",
  options: "catalog.options",
  protectionPlans: "catalog.protection_plans",
  delivery: "catalog.delivery",
  fuelPolicies: "catalog.fuel_policy",
  distanceUnits: "catalog.distance_units",
  paymentSystems: "catalog.payment_systems",
  paymentTypes: "catalog.payment_types",
  extraOptions: "catalog.extra_options",
};
