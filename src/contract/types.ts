/**
 * Shapes of the contract declarations. Everything the CLI knows about the
 * Partner API v302 is data of these types, declared once in this folder and
 * read by flags, validation, help, completions and the sandbox alike.
 */

/** Wire value kinds. `flag` is an integer restricted to 0/1. */
export type ValueType = "integer" | "string" | "flag" | "integer[]" | "string[]";

export interface ParamSpec {
  /** Wire name, exactly as sent. */
  name: string;
  type: ValueType;
  /** `true` required; `false` optional; `"conflicting"` stated both ways in the spec (accepted present or absent). */
  required: boolean | "conflicting";
  description: string;
  default?: number | string;
  min?: number;
  max?: number;
  /** For strings: maximum length in characters. */
  maxLength?: number;
  /** Catalog (operation id) whose ids this value refers to, for name resolution, completions and the wizard. */
  catalog?: string;
  /**
   * The catalog's names are numbers (years of issue: "2024"): a whole number from this value up is a
   * name (the year), a smaller one an id, and `id:N` always an id. One rule, so `--year 2024` is never id 2024.
   */
  namesFrom?: number;
  /**
   * Filled by the client, never by the person (the owner from the profile, the locale from the
   * settings): not editable, no column of a file, no member of a change. The one mark every
   * "editable fields" list is derived from (`editableFields`).
   */
  clientFilled?: true;
}

/** The fields a person gives (create, edit, files, plans, tools): a field table without the client-filled ones. */
export function editableFields(specs: readonly ParamSpec[]): readonly ParamSpec[] {
  return specs.filter((f) => f.clientFilled !== true);
}

/** The names of the client-filled fields of a field table. */
export function clientFilledNames(specs: readonly ParamSpec[]): ReadonlySet<string> {
  return new Set(specs.filter((f) => f.clientFilled === true).map((f) => f.name));
}

/** Declare one parameter or field: the single helper behind the operation table and the field tables. */
export function param(
  name: string,
  type: ValueType,
  required: ParamSpec["required"],
  description: string,
  extra: Partial<ParamSpec> = {},
): ParamSpec {
  return { name, type, required, description, ...extra };
}

export type Access = "public" | "auth";
export type Envelope = "list" | "paginated" | "flexible";
export type HttpMethod = "GET" | "POST";

/** How a POST body is encoded. */
export type BodyEncoding = "form" | "multipart" | "form-or-multipart";

export interface Operation {
  /** Stable id, e.g. `catalog.currencies`, `vehicles.create`. */
  id: string;
  method: HttpMethod;
  /** Path relative to the base address, version included. */
  path: string;
  access: Access;
  summary: string;
  /** Query parameters for GET, body members for POST. */
  params: ParamSpec[];
  body?: BodyEncoding;
  /** The contract says "no other members allowed". */
  closed?: boolean;
  envelope: Envelope;
  /** Documented error statuses. */
  errors: number[];
  /** For catalog operations: the `rentctl catalog <name>` name. */
  catalogName?: string;
}
