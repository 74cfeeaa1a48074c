/**
 * Default table columns of each resource, declared beside the field tables:
 * a key is a wire name (or a member the server returns, like `is_active`),
 * a header is what the table shows and what `--fields` also accepts.
 */
export interface ColumnSpec {
  key: string;
  header?: string;
}

export const VEHICLE_COLUMNS: ColumnSpec[] = [
  { key: "id", header: "ID" },
  { key: "vehicle_reg_number", header: "REG NUMBER" },
  { key: "vehicle_model_id", header: "MODEL" },
  { key: "vehicle_class_id", header: "CLASS" },
  { key: "vehicle_activity", header: "ACTIVE" },
  { key: "price_per_day", header: "PRICE/DAY" },
  { key: "vehicle_currency_id", header: "CURRENCY" },
  { key: "pickup_location", header: "LOCATION" },
];

export const EXTRA_COLUMNS: ColumnSpec[] = [
  { key: "id", header: "ID" },
  { key: "option_id", header: "OPTION" },
  { key: "price", header: "PRICE" },
  { key: "currency_id", header: "CURRENCY" },
  { key: "period", header: "PERIOD" },
  { key: "quantity", header: "QUANTITY" },
  { key: "is_active", header: "ACTIVE" },
];
