import { EXTRA_FIELDS } from "./extra-fields.js";
import { type Operation, type ParamSpec, param } from "./types.js";
import { VEHICLE_FIELDS } from "./vehicle-fields.js";

/**
 * Every operation of the Partner API v302, as data. The HTTP client, the
 * `api` and `catalog` commands, completions and the sandbox all read this
 * table. (The spec's operations table has 32 rows: 20 public, 12 auth.)
 */

export const API_PREFIX = "/api/v302";
export const API_VERSION = 302;
/** `locale_id` 40 is English, the default everywhere. */
export const DEFAULT_LOCALE = 40;
/** Segment 1 is the cars segment, the default wherever `segment_id` is optional. */
export const DEFAULT_SEGMENT = 1;
/**
 * Page size used when walking every page (`--all`). The contract gives no
 * maximum for `limit`; 100 keeps each page small and any server that caps
 * lower is handled by reading `per_page` back.
 */
export const WALK_PAGE_SIZE = 100;

const p = param;

const localeOpt = p("locale_id", "integer", false, "Response language (40 = English)", {
  min: 1,
  default: DEFAULT_LOCALE,
  catalog: "catalog.locales",
});
const localeReq = p("locale_id", "integer", true, "Response language (40 = English)", {
  min: 1,
  default: DEFAULT_LOCALE,
  catalog: "catalog.locales",
});
const segmentOpt = p("segment_id", "integer", false, "Vehicle segment (1 = cars)", {
  min: 1,
  default: DEFAULT_SEGMENT,
  catalog: "catalog.segments",
});
const segmentReq = p("segment_id", "integer", true, "Vehicle segment (1 = cars)", {
  min: 1,
  catalog: "catalog.segments",
});
const limit = p("limit", "integer", false, "Page size", { min: 1, default: 15 });
const offset = p("offset", "integer", false, "Items to skip", { min: 0, default: 0 });
const userId = p("user_id", "integer", true, "Owner id (the API key's owner)", { min: 1 });
const vehicleId = p("vehicle_id", "integer", true, "Vehicle id", { min: 1 });
const extraId = p("extra_id", "integer", true, "Extra id", { min: 1 });

function catalog(
  id: string,
  catalogName: string,
  path: string,
  summary: string,
  params: ParamSpec[],
  errors: number[] = [400],
  envelope: Operation["envelope"] = "list",
): Operation {
  return {
    id: `catalog.${id}`,
    catalogName,
    method: "GET",
    path: `${API_PREFIX}/${path}`,
    access: "public",
    summary,
    params,
    envelope,
    errors,
  };
}

export const OPERATIONS: readonly Operation[] = [
  catalog(
    "setup",
    "setup",
    "setup",
    "Setup configuration (registration countries and other dictionaries)",
    [segmentOpt, localeOpt],
    [400],
    "flexible",
  ),
  catalog("currencies", "currencies", "currencies", "Currencies (id, code, symbol)", []),
  catalog("locales", "locales", "locales", "Locales (id, name, code)", []),
  catalog("segments", "segments", "vehicles/segments", "Vehicle segments (1 = cars)", [localeOpt]),
  catalog("brands", "brands", "vehicles/brands", "Vehicle brands of a segment", [segmentOpt]),
  catalog("models", "models", "vehicles/models", "Models of a brand", [
    p("brand_id", "integer", true, "Brand", { min: 1, catalog: "catalog.brands" }),
    segmentOpt,
    localeOpt,
  ]),
  catalog("equipments", "equipments", "vehicles/equipments", "Configurations (equipments) of a model", [
    p("model_id", "integer", true, "Model", { min: 1, catalog: "catalog.models" }),
    localeOpt,
  ]),
  catalog("years_of_issue", "years", "vehicles/years_of_issue", "Years of issue", [], []),
  catalog("classes_or_types", "classes", "vehicles/classes_or_types", "Vehicle classes or types of a segment", [
    segmentReq,
    localeOpt,
  ]),
  catalog("transmissions", "transmissions", "vehicles/transmissions", "Transmissions of a segment", [
    segmentReq,
    localeOpt,
  ]),
  catalog("benefits", "benefits", "vehicles/benefits", "Benefits", [segmentOpt, localeOpt]),
  catalog("additional_features", "features", "vehicles/additional_features", "Additional features", [
    segmentOpt,
    localeOpt,
  ]),
  catalog("options", "options", "vehicles/options", "Racing and tuning options", [segmentOpt, localeOpt], []),
  catalog(
    "protection_plans",
    "protection-plans",
    "vehicles/protection_plans",
    "Protection plan settings",
    [localeOpt],
    [400],
    "flexible",
  ),
  catalog("delivery", "delivery", "vehicles/delivery", "Delivery and return places", [localeOpt]),
  catalog("fuel_policy", "fuel-policies", "vehicles/fuel_policy", "Fuel policies", [localeOpt]),
  catalog("distance_units", "distance-units", "vehicles/distance_units", "Distance units", [localeOpt]),
  catalog("payment_systems", "payment-systems", "vehicles/payment_systems", "Payment systems", [localeOpt]),
  catalog("payment_types", "payment-types", "vehicles/payment/types", "Payment types", [localeOpt]),
  catalog("extra_options", "extra-options", "vehicles/extras/options", "Extra option types", [localeReq]),

  {
    id: "vehicles.list",
    method: "GET",
    path: `${API_PREFIX}/vehicles/list`,
    access: "auth",
    summary: "List the owner's vehicles",
    params: [userId, localeReq, limit, offset],
    envelope: "paginated",
    errors: [400, 401],
  },
  {
    id: "vehicles.get",
    method: "GET",
    path: `${API_PREFIX}/vehicles/list/id`,
    access: "auth",
    summary: "Get one vehicle",
    params: [vehicleId, localeReq],
    envelope: "flexible",
    errors: [400, 401, 404],
  },
  {
    id: "vehicles.create",
    method: "POST",
    path: `${API_PREFIX}/vehicles/create`,
    access: "auth",
    summary: "Create a vehicle",
    params: [...VEHICLE_FIELDS],
    body: "form-or-multipart",
    envelope: "flexible",
    errors: [400, 401],
  },
  {
    id: "vehicles.edit",
    method: "POST",
    path: `${API_PREFIX}/vehicles/edit`,
    access: "auth",
    summary: "Edit a vehicle (omitted fields may be cleared: send the full record)",
    // Spec gap: "the remaining fields: not shown". Decision: edit takes the create fields, none demanded beyond vehicle_id.
    params: [
      vehicleId,
      ...VEHICLE_FIELDS.map((f) => ({
        ...f,
        required: f.name === "user_id" ? true : f.required === true ? false : f.required,
      })),
    ],
    body: "form-or-multipart",
    envelope: "flexible",
    errors: [400, 401, 404],
  },
  {
    id: "vehicles.remove",
    method: "POST",
    path: `${API_PREFIX}/vehicles/remove`,
    access: "auth",
    summary: "Remove a vehicle",
    params: [userId, vehicleId],
    body: "form",
    closed: true,
    envelope: "flexible",
    errors: [400, 401, 404],
  },
  {
    id: "vehicles.upload",
    method: "POST",
    path: `${API_PREFIX}/vehicles/upload`,
    access: "auth",
    summary: "Upload 1-10 vehicle images; returns the created image ids",
    params: [userId],
    body: "multipart",
    closed: true,
    envelope: "flexible",
    errors: [400, 401],
  },
  {
    id: "extras.list",
    method: "GET",
    path: `${API_PREFIX}/vehicles/extras/list`,
    access: "auth",
    summary: "List the owner's extras",
    params: [localeReq, limit, offset],
    envelope: "paginated",
    errors: [400, 401],
  },
  {
    id: "extras.get",
    method: "GET",
    path: `${API_PREFIX}/vehicles/extras/list/id`,
    access: "auth",
    summary: "Get one extra",
    params: [extraId, localeReq],
    envelope: "flexible",
    errors: [400, 401, 404],
  },
  {
    id: "extras.create",
    method: "POST",
    path: `${API_PREFIX}/vehicles/extras/create`,
    access: "auth",
    summary: "Create an extra",
    params: [...EXTRA_FIELDS],
    body: "form",
    envelope: "flexible",
    errors: [400, 401],
  },
  {
    id: "extras.update",
    method: "POST",
    path: `${API_PREFIX}/vehicles/extras/update`,
    access: "auth",
    summary: "Update an extra (full replacement: send every member)",
    params: [extraId, ...EXTRA_FIELDS],
    body: "form",
    envelope: "flexible",
    errors: [400, 401, 404],
  },
  {
    id: "extras.switch",
    method: "POST",
    path: `${API_PREFIX}/vehicles/extras/switch`,
    access: "auth",
    summary: "Toggle an extra on or off",
    params: [extraId],
    body: "form",
    closed: true,
    envelope: "flexible",
    errors: [400, 401, 404],
  },
  {
    id: "extras.delete",
    method: "POST",
    path: `${API_PREFIX}/vehicles/extras/delete`,
    access: "auth",
    summary: "Delete an extra",
    params: [extraId],
    body: "form",
    closed: true,
    envelope: "flexible",
    errors: [400, 401, 404],
  },
];

/** Image upload limits: 1 to 10 file parts per request, part name `file` (repeated). */
export const UPLOAD_PART_NAME = "file";
export const UPLOAD_MIN_FILES = 1;
export const UPLOAD_MAX_FILES = 10;

const BY_ID = new Map(OPERATIONS.map((o) => [o.id, o]));

export function operation(id: string): Operation {
  const op = BY_ID.get(id);
  if (!op) throw new Error(`unknown operation ${id}`);
  return op;
}

/** Find the operation a raw path (with or without the `/api/v302` prefix) and method name. */
export function findOperation(method: string, path: string): Operation | undefined {
  const clean = normalizePath(path);
  return OPERATIONS.find((o) => o.path === clean && o.method === method.toUpperCase());
}

export function normalizePath(path: string): string {
  let clean = path.split("?")[0] ?? "";
  if (!clean.startsWith("/")) clean = `/${clean}`;
  if (!clean.startsWith(`${API_PREFIX}/`)) clean = `${API_PREFIX}${clean}`;
  return clean.replace(/\/+$/, "");
}

export const CATALOG_OPERATIONS: readonly Operation[] = OPERATIONS.filter((o) => o.catalogName !== undefined);
