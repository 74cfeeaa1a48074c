import { EXTRA_FIELDS } from "./extra-fields.js";
import type { ParamSpec, ValueType } from "./types.js";
import { VEHICLE_FIELDS } from "./vehicle-fields.js";

/**
 * A returned record's members, from the contract's field tables: what a front
 * end that declares the shape of its answers (MCP's outputSchema) reads. The
 * one place the record shape is derived; `id` first (as normalizeRecord puts
 * it), then every declared field. Only `id` is sure to be present: a server
 * may leave a field out, send null for one, or add members of its own
 * (created_at, option_name), so a shape built from this keeps other members.
 */
export interface RecordMember {
  name: string;
  type: ValueType;
  description: string;
  /** Always present in a returned record. */
  present: boolean;
}

/** The members of a vehicle or extra record as the server returns it (see RecordMember). */
export function recordMembers(kind: "vehicle" | "extra"): RecordMember[] {
  const fields: readonly ParamSpec[] = kind === "vehicle" ? VEHICLE_FIELDS : EXTRA_FIELDS;
  return [
    { name: "id", type: "integer", description: `The ${kind}'s id (server-assigned)`, present: true },
    ...fields
      .filter((f) => f.name !== "id" && f.name !== "locale_id") // the locale is sent with a write, never returned
      .map((f) => ({ name: f.name, type: f.type, description: f.description, present: false })),
  ];
}
