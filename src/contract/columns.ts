/**
 * Default table columns of each resource, declared beside the field tables:
 * a key is a wire name (or a member the server returns, like `is_active`),
 * a header is what the table shows and what `--fields` also accepts.
 */
export interface ColumnSpec {
  key: string;
  header?: string;
  /**
   * Tables only (json, csv, yaml keep the wire data): show the catalog's name
   * beside the id (`Compact (2)`), from the catalog service's cache.
   */
  catalog?: string;
  /** The catalog member to show: its name (default) or its code (`EUR`). */
  labelKey?: "name" | "code";
  /** The catalog request's parameters taken from the record (`segment_id` from `vehicle_segment_id`). */
  catalogParams?: Record<string, string>;
  /** Tables only: `yesno` shows 1/0 as yes/no; `money` adds the currency code of `currencyKey`. */
  display?: "yesno" | "money";
  currencyKey?: string;
}

export const VEHICLE_COLUMNS: ColumnSpec[] = [
  { key: "id", header: "ID" },
  { key: "vehicle_reg_number", header: "REG NUMBER" },
  { key: "vehicle_model_id", header: "MODEL", catalog: "catalog.equipments" },
  {
    key: "vehicle_class_id",
    header: "CLASS",
    catalog: "catalog.classes_or_types",
    catalogParams: { segment_id: "vehicle_segment_id" },
  },
  { key: "vehicle_activity", header: "ACTIVE", display: "yesno" },
  { key: "price_per_day", header: "PRICE/DAY", display: "money", currencyKey: "vehicle_currency_id" },
  { key: "vehicle_currency_id", header: "CURRENCY", catalog: "catalog.currencies", labelKey: "code" },
  { key: "pickup_location", header: "LOCATION" },
];

export const EXTRA_COLUMNS: ColumnSpec[] = [
  { key: "id", header: "ID" },
  { key: "option_id", header: "OPTION", catalog: "catalog.extra_options" },
  { key: "price", header: "PRICE", display: "money", currencyKey: "currency_id" },
  { key: "currency_id", header: "CURRENCY", catalog: "catalog.currencies", labelKey: "code" },
  { key: "period", header: "PERIOD" },
  { key: "quantity", header: "QUANTITY" },
  { key: "is_active", header: "ACTIVE", display: "yesno" },
];
