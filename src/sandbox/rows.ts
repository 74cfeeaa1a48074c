import type { WireRecord } from "../contract/validate.js";

/**
 * The rows the sandbox stores (and persists: see store.ts). Wire fields are
 * kept as sent (coerced); rows are immutable: a change puts a new row.
 */

export interface VehicleRow {
  id: number;
  owner: number;
  /** Stored wire fields (coerced), in the order of VEHICLE_FIELDS. */
  fields: WireRecord;
  created_at: string;
  updated_at: string;
}

export interface ExtraRow {
  id: number;
  owner: number;
  /** option_id, price, currency_id, period, quantity (those present). */
  fields: WireRecord;
  is_active: 0 | 1;
  created_at: string;
  updated_at: string;
}

export interface ImageRow {
  id: number;
  owner: number;
  file_name: string;
  size: number;
  content_type: string;
  created_at: string;
}

export interface SandboxState {
  next: { vehicle: number; extra: number; image: number };
  vehicles: VehicleRow[];
  extras: ExtraRow[];
  images: ImageRow[];
}
