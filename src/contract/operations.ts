import { EXTRA_FIELDS } from "./extra-fields.js";
import { type BodyEncoding, type Envelope, type HttpMethod, type Operation, type ParamSpec, param } from "./types.js";
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
const localeReq: ParamSpec = { ...localeOpt, required: true };
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

/** The errors of an owner's operation that names one record by id: 404 when it is not the owner's (or gone). */
const BY_ID_ERRORS = [400, 401, 404];

/** An owner's operation (`access: auth`): a flexible envelope and errors 400 and 401 unless `more` says otherwise. */
function owned(
  id: string,
  method: HttpMethod,
  path: string,
  summary: string,
  params: ParamSpec[],
  more: { body?: BodyEncoding; closed?: true; envelope?: Envelope; errors?: number[] } = {},
): Operation {
  const { envelope = "flexible", errors = [400, 401], ...encoding } = more;
  return { id, method, path: `${API_PREFIX}/${path}`, access: "auth", summary, params, ...encoding, envelope, errors };
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

  owned("vehicles.list", "GET", "vehicles/list", "List the owner's vehicles", [userId, localeReq, limit, offset], {
    envelope: "paginated",
  }),
  owned("vehicles.get", "GET", "vehicles/list/id", "Get one vehicle", [vehicleId, localeReq], { errors: BY_ID_ERRORS }),
  owned("vehicles.create", "POST", "vehicles/create", "Create a vehicle", [...VEHICLE_FIELDS], {
    body: "form-or-multipart",
  }),
  owned(
    "vehicles.edit",
    "POST",
    "vehicles/edit",
    "Edit a vehicle (omitted fields may be cleared: send the full record)",
    // Spec gap: "the remaining fields: not shown". Decision: edit takes the create fields, none demanded beyond vehicle_id.
    [
      vehicleId,
      ...VEHICLE_FIELDS.map((f) => ({
        ...f,
        required: f.name === "user_id" ? true : f.required === true ? false : f.required,
      })),
    ],
    { body: "form-or-multipart", errors: BY_ID_ERRORS },
  ),
  owned("vehicles.remove", "POST", "vehicles/remove", "Remove a vehicle", [userId, vehicleId], {
    body: "form",
    closed: true,
    errors: BY_ID_ERRORS,
  }),
  owned(
    "vehicles.upload",
    "POST",
    "vehicles/upload",
    "Upload 1-10 vehicle images; returns the created image ids",
    [userId],
    {
      body: "multipart",
      closed: true,
    },
  ),
  owned("extras.list", "GET", "vehicles/extras/list", "List the owner's extras", [localeReq, limit, offset], {
    envelope: "paginated",
  }),
  owned("extras.get", "GET", "vehicles/extras/list/id", "Get one extra", [extraId, localeReq], {
    errors: BY_ID_ERRORS,
  }),
  owned("extras.create", "POST", "vehicles/extras/create", "Create an extra", [...EXTRA_FIELDS], { body: "form" }),
  owned(
    "extras.update",
    "POST",
    "vehicles/extras/update",
    "Update an extra (full replacement: send every member)",
    [extraId, ...EXTRA_FIELDS],
    { body: "form", errors: BY_ID_ERRORS },
  ),
  owned("extras.switch", "POST", "vehicles/extras/switch", "Toggle an extra on or off", [extraId], {
    body: "form",
    closed: true,
    errors: BY_ID_ERRORS,
  }),
  owned("extras.delete", "POST", "vehicles/extras/delete", "Delete an extra", [extraId], {
    body: "form",
    closed: true,
    errors: BY_ID_ERRORS,
  }),
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
