import type { EncodableRecord } from "../api/encode.js";
import { requireUser } from "../config/target.js";
import type { ColumnSpec } from "../contract/columns.js";
import { EXTRA_COLUMNS, VEHICLE_COLUMNS } from "../contract/columns.js";
import { EXTRA_EDITABLE_FIELDS, EXTRA_FIELDS, EXTRA_MEMBER_ALIASES } from "../contract/extra-fields.js";
import type { ParamSpec } from "../contract/types.js";
import { VEHICLE_EDITABLE_FIELDS, VEHICLE_FIELDS } from "../contract/vehicle-fields.js";
import type { CoreDeps } from "../deps.js";

/**
 * One description per resource of the contract: its operations, fields,
 * the members filled from the profile, default list columns and journal
 * actions. The generic list / get / create / update / remove code reads it,
 * so vehicles and extras are one implementation, and a new resource's
 * behaviour is declared in one place.
 */
export interface Resource {
  kind: "vehicle" | "extra";
  noun: string;
  /** Plural, for footers (`12 vehicles`). */
  plural: string;
  listOp: string;
  getOp: string;
  createOp: string;
  updateOp: string;
  removeOp: string;
  idParam: "vehicle_id" | "extra_id";
  /** Input fields the record carries (wire names), without the fixed ones. */
  fields: readonly ParamSpec[];
  /** Every input field, the fixed ones included (validation of a create). */
  allFields: readonly ParamSpec[];
  /** Members filled from the profile rather than the record. */
  fixed(deps: CoreDeps): Promise<EncodableRecord>;
  /** The parameters of a list request besides the page. */
  listParams(deps: CoreDeps): Promise<EncodableRecord>;
  /** Default table columns (declared beside the contract's fields). */
  columns: ColumnSpec[];
  updateAction: HistoryAction;
  removeAction: HistoryAction;
  /**
   * The contract does not show this resource's record: safe update sends back
   * the server's own members under the server's names (aliases: other names a
   * field may have on the server).
   */
  mirrorServer?: { aliases: Readonly<Record<string, readonly string[]>> };
}

export const VEHICLE: Resource = {
  kind: "vehicle",
  noun: "vehicle",
  plural: "vehicles",
  listOp: "vehicles.list",
  getOp: "vehicles.get",
  createOp: "vehicles.create",
  updateOp: "vehicles.edit",
  removeOp: "vehicles.remove",
  idParam: "vehicle_id",
  fields: VEHICLE_EDITABLE_FIELDS,
  allFields: VEHICLE_FIELDS,
  fixed: async (deps) => ({ user_id: await requireUser(deps), locale_id: await deps.locale() }),
  listParams: async (deps) => ({ user_id: await requireUser(deps), locale_id: await deps.locale() }),
  columns: VEHICLE_COLUMNS,
  updateAction: "vehicle.edit",
  removeAction: "vehicle.remove",
};

export const EXTRA: Resource = {
  kind: "extra",
  noun: "extra",
  plural: "extras",
  listOp: "extras.list",
  getOp: "extras.get",
  createOp: "extras.create",
  updateOp: "extras.update",
  removeOp: "extras.delete",
  idParam: "extra_id",
  fields: EXTRA_EDITABLE_FIELDS,
  allFields: EXTRA_FIELDS,
  fixed: async (deps) => ({ locale_id: await deps.locale() }),
  listParams: async (deps) => ({ locale_id: await deps.locale() }),
  columns: EXTRA_COLUMNS,
  updateAction: "extra.update",
  removeAction: "extra.delete",
  mirrorServer: { aliases: EXTRA_MEMBER_ALIASES },
};

export type HistoryAction =
  | "vehicle.edit"
  | "vehicle.remove"
  | "extra.update"
  | "extra.delete"
  /** `vehicle apply`, `account apply`: the batch entry; its rows are entries with `batch` = its op. */
  | "vehicle.apply"
  /** `vehicle import`: a batch entry like an apply's, its rows the vehicles it created. */
  | "vehicle.import"
  /** A vehicle created (undo removes it; `before` is the record sent). */
  | "vehicle.create"
  /** An extra created (undo deletes it; `before` is the record sent). */
  | "extra.create"
  /** An extra switched on or off (undo switches it back; `before` is its record before). */
  | "extra.switch";
