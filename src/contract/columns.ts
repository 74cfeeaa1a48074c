/**
 * Default table columns of each resource, declared beside the field tables:
 * a key is a wire name (or a member the server returns, like `is_active`),
 * a header is what the table shows and what `--fields` also accepts.
 *
 * Tables name every id through the catalog service (src/catalog/names.ts
 * decides which catalog names which field); json, csv and yaml keep the wire
 * (csv's columns are these keys, in this order: scripts read them).
 */
export interface ColumnSpec {
  key: string;
  header?: string;
  /** Tables only: `yesno` shows 1/0 as yes/no; `money` adds the currency code of `currencyKey`; `mark` shows true as `*`. */
  display?: "yesno" | "money" | "mark";
  currencyKey?: string;
  /** `false`: csv carries the column (scripts read it) but a table leaves it out (the price shows its currency). */
  table?: boolean;
  /** Free text (a location, a model's name): the first to give up width when the table is too wide. */
  text?: boolean;
}

export const VEHICLE_COLUMNS: ColumnSpec[] = [
  { key: "id", header: "ID" },
  { key: "vehicle_reg_number", header: "REG NUMBER" },
  { key: "vehicle_model_id", header: "MODEL", text: true },
  { key: "vehicle_class_id", header: "CLASS", text: true },
  { key: "vehicle_activity", header: "ACTIVE", display: "yesno" },
  { key: "price_per_day", header: "PRICE/DAY", display: "money", currencyKey: "vehicle_currency_id" },
  { key: "vehicle_currency_id", header: "CURRENCY", table: false },
  { key: "pickup_location", header: "LOCATION", text: true },
];

export const EXTRA_COLUMNS: ColumnSpec[] = [
  { key: "id", header: "ID" },
  { key: "option_id", header: "OPTION", text: true },
  { key: "price", header: "PRICE", display: "money", currencyKey: "currency_id" },
  { key: "currency_id", header: "CURRENCY", table: false },
  { key: "period", header: "PERIOD" },
  { key: "quantity", header: "QUANTITY" },
  { key: "is_active", header: "ACTIVE", display: "yesno" },
];
