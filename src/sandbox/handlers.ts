import { EXTRA_EDITABLE_FIELDS } from "../contract/extra-fields.js";
import { DEFAULT_LOCALE, DEFAULT_SEGMENT, UPLOAD_MAX_FILES, UPLOAD_MIN_FILES } from "../contract/operations.js";
import type { Operation, ParamSpec } from "../contract/types.js";
import { coerce, crossFieldProblems, type Problem, validateRecord, type WireRecord } from "../contract/validate.js";
import type { ParsedInput, RawFields } from "./request.js";
import type { ExtraRow, ImageRow, VehicleRow } from "./rows.js";
import {
  ADDITIONAL_FEATURES,
  BENEFITS,
  BRANDS,
  CLASSES,
  CURRENCIES,
  DELIVERY_PLACES,
  DEPOSIT_PAYMENT_METHODS,
  DEPOSIT_RETURN_OPTIONS,
  DISTANCE_UNITS,
  EQUIPMENTS,
  EXTRA_OPTIONS,
  FUEL_POLICIES,
  isLocale,
  LOCALES,
  MODELS,
  orderVehicleFields,
  PAYMENT_SYSTEMS,
  PAYMENT_TYPES,
  PROTECTION_PLANS,
  REGISTRATION_COUNTRIES,
  SEGMENTS,
  type SegmentItem,
  type Text,
  TRANSMISSIONS,
  TUNING_OPTIONS,
  translate,
  YEARS_OF_ISSUE,
} from "./seed.js";
import type { Mutation, Store } from "./store.js";

/**
 * The behaviour of every operation, keyed by operation id. Each handler gets
 * the parsed request and returns the success body (without `meta`) or throws
 * a SandboxHttpError (named apart from src/api/errors.ts's ApiError, the client side).
 *
 * Checks run in one fixed order on every operation:
 * 1. bearer key missing or unknown -> 401 (done by the server before this);
 * 2. a well-formed `user_id` that is not the key's owner -> 401;
 * 3. every validation problem at once (types, ranges, lengths, required
 *    members, members a closed operation does not allow, cross-field rules,
 *    catalog references, images and extras of the account) -> 400;
 * 4. the vehicle or extra addressed does not exist -> 404;
 * 5. it exists but belongs to another owner -> 401.
 */

/** An HTTP error answer of the sandbox (status, message, per-field problems); not the client's ApiError in src/api/errors.ts. */
export class SandboxHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields?: Record<string, string[]>,
  ) {
    super(message);
  }
}

export const unauthorized = (): SandboxHttpError => new SandboxHttpError(401, "unauthorized");

export interface HandlerContext {
  op: Operation;
  input: ParsedInput;
  /** The key's owner on auth operations; null on public ones. */
  owner: number | null;
  store: Store;
  /** Current time as stored in created_at / updated_at. */
  now: () => string;
}

export type SuccessBody = Record<string, unknown>;
export type Handler = (ctx: HandlerContext) => SuccessBody;

/** Largest single uploaded file (the contract gives none). */
export const MAX_UPLOAD_FILE_BYTES = 10 * 1024 * 1024;

// ---------------------------------------------------------------- validation helpers

function fieldsOf(problems: Problem[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const p of problems) {
    const list = out[p.field] ?? [];
    if (!list.includes(p.message)) list.push(p.message);
    out[p.field] = list;
  }
  return out;
}

function failIf(problems: Problem[]): void {
  if (problems.length) throw new SandboxHttpError(400, "validation error", fieldsOf(problems));
}

/**
 * An array member whose items are all empty (`key[]=` sent to say "none")
 * counts as an empty list, i.e. absent.
 */
function normalizeArrays(fields: RawFields, specs: readonly ParamSpec[]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...fields };
  for (const spec of specs) {
    const v = out[spec.name];
    if (spec.type.endsWith("[]") && Array.isArray(v) && v.every((x) => x.trim() === "")) out[spec.name] = [];
  }
  return out;
}

/**
 * Coerce the request members with the contract's own rules. Members the
 * operation does not declare are rejected on closed operations and dropped
 * elsewhere. File parts are only accepted by upload.
 */
function validateInput(
  ctx: HandlerContext,
  opts: { required: boolean; specs?: readonly ParamSpec[]; raw?: RawFields },
): { record: WireRecord; problems: Problem[] } {
  const specs = opts.specs ?? ctx.op.params;
  const closed = ctx.op.closed === true;
  const problems: Problem[] = [];
  if (ctx.op.id !== "vehicles.upload") {
    for (const f of ctx.input.files) problems.push({ field: f.field, message: "must be a text value, not a file" });
  }
  const r = validateRecord(normalizeArrays(opts.raw ?? ctx.input.fields, specs), specs, {
    requireRequired: opts.required,
    closed,
    allowUnknown: !closed,
  });
  problems.push(...r.problems);
  const declared = new Set(specs.map((s) => s.name));
  const record: WireRecord = {};
  for (const [k, v] of Object.entries(r.record)) if (declared.has(k)) record[k] = v;
  return { record, problems };
}

function requireMembers(record: WireRecord, problems: Problem[], names: string[]): void {
  for (const name of names) {
    if (record[name] === undefined && !problems.some((p) => p.field === name)) {
      problems.push({ field: name, message: "is required" });
    }
  }
}

/** Step 2 of the order above: a `user_id` that parses but is not the key's owner. */
function assertUserId(ctx: HandlerContext): void {
  const raw = ctx.input.fields.user_id;
  const spec = ctx.op.params.find((p) => p.name === "user_id");
  if (raw === undefined || !spec) return;
  const { value } = coerce(spec, raw);
  if (typeof value === "number" && value !== ctx.owner) throw unauthorized();
}

function owner(ctx: HandlerContext): number {
  if (ctx.owner === null) throw unauthorized();
  return ctx.owner;
}

const num = (record: WireRecord, name: string): number | undefined => {
  const v = record[name];
  return typeof v === "number" ? v : undefined;
};

const ids = (record: WireRecord, name: string): number[] => {
  const v = record[name];
  return Array.isArray(v) ? v.filter((x): x is number => typeof x === "number") : [];
};

function byId<T extends { id: number }>(items: readonly T[]): ReadonlyMap<number, T> {
  return new Map(items.map((i) => [i.id, i]));
}

let indexes: ReturnType<typeof buildIndexes> | undefined;
function buildIndexes() {
  return {
    segments: byId(SEGMENTS),
    brands: byId(BRANDS),
    models: byId(MODELS),
    equipments: byId(EQUIPMENTS),
    classes: byId(CLASSES),
    transmissions: byId(TRANSMISSIONS),
    years: byId(YEARS_OF_ISSUE),
    currencies: byId(CURRENCIES),
    countries: byId(REGISTRATION_COUNTRIES),
    depositReturn: byId(DEPOSIT_RETURN_OPTIONS),
    delivery: byId(DELIVERY_PLACES),
    distanceUnits: byId(DISTANCE_UNITS),
    benefits: byId(BENEFITS),
    features: byId(ADDITIONAL_FEATURES),
    paymentTypes: byId(PAYMENT_TYPES),
    fuelPolicies: byId(FUEL_POLICIES),
    extraOptions: byId(EXTRA_OPTIONS),
  };
}
/** Catalog lookups, built on first use (keeps importing the module cheap). */
function idx(): ReturnType<typeof buildIndexes> {
  indexes ??= buildIndexes();
  return indexes;
}

/** `locale_id`, when given, must be a listed locale. */
function localeProblems(record: WireRecord): Problem[] {
  const id = num(record, "locale_id");
  return id !== undefined && !isLocale(id) ? [{ field: "locale_id", message: `no locale with id ${id}` }] : [];
}

const localeOf = (record: WireRecord): number => num(record, "locale_id") ?? DEFAULT_LOCALE;

function refProblem(field: string, what: string, id: number, where = ""): Problem {
  return { field, message: `no ${what} with id ${id}${where}` };
}

// ---------------------------------------------------------------- response shapes

function named<T extends { name: Text }>(
  items: readonly T[],
  locale: number,
): Array<Omit<T, "name"> & { name: string }> {
  return items.map((item) => ({ ...item, name: translate(item.name, locale) }));
}

export function vehicleOut(row: VehicleRow): SuccessBody {
  return { id: row.id, ...row.fields, created_at: row.created_at, updated_at: row.updated_at };
}

export function extraOut(row: ExtraRow, locale: number): SuccessBody {
  const option = idx().extraOptions.get(num(row.fields, "option_id") ?? 0);
  return {
    id: row.id,
    ...row.fields,
    is_active: row.is_active,
    ...(option ? { option_name: translate(option.name, locale) } : {}),
    user_id: row.owner,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function imageOut(row: ImageRow): SuccessBody {
  return { id: row.id, file_name: row.file_name, size: row.size, content_type: row.content_type };
}

/**
 * Paginated envelope. `per_page` and `limit` are the limit used;
 * current_page = floor(offset / limit) + 1, or 0 when there is nothing at all;
 * last_page = ceil(total / limit). An offset past the end gives an empty
 * `data` with the page number that offset would have.
 */
export function paginated(total: number, limit: number, offset: number, data: unknown[]): SuccessBody {
  return {
    total,
    per_page: limit,
    current_page: total === 0 ? 0 : Math.floor(offset / limit) + 1,
    limit,
    last_page: Math.ceil(total / limit),
    data,
  };
}

const flexible = (data: unknown): SuccessBody => ({ is_success: true, data });

// ---------------------------------------------------------------- catalogs

interface CatalogQuery {
  record: WireRecord;
  locale: number;
  segment: number;
}

/**
 * Validate a catalog query: declared members with their types, `locale_id`
 * and `segment_id` (default 1 where optional) must exist. Unknown ids of
 * brand_id / model_id / segment_id are a 400 naming the member (not an empty
 * list), so a typo never looks like an empty catalog.
 */
function catalogQuery(
  ctx: HandlerContext,
  more: (record: WireRecord, problems: Problem[]) => void = () => {},
): CatalogQuery {
  const { record, problems } = validateInput(ctx, { required: true });
  problems.push(...localeProblems(record));
  const segment = num(record, "segment_id") ?? DEFAULT_SEGMENT;
  if (ctx.op.params.some((p) => p.name === "segment_id") && !idx().segments.has(segment)) {
    problems.push(refProblem("segment_id", "segment", segment));
  }
  if (!problems.length) more(record, problems);
  failIf(problems);
  return { record, locale: localeOf(record), segment };
}

function segmentList(items: readonly SegmentItem[]): Handler {
  return (ctx) => {
    const q = catalogQuery(ctx);
    return {
      list: named(
        items.filter((i) => i.segment_id === q.segment),
        q.locale,
      ),
    };
  };
}

function localizedList(items: readonly { id: number; name: Text }[]): Handler {
  return (ctx) => {
    const q = catalogQuery(ctx);
    return { list: named(items, q.locale) };
  };
}

const catalogHandlers: Record<string, Handler> = {
  "catalog.setup": (ctx) => {
    const q = catalogQuery(ctx);
    const segment = idx().segments.get(q.segment) as (typeof SEGMENTS)[number];
    return flexible({
      segment: { ...segment, name: translate(segment.name, q.locale) },
      locale_id: q.locale,
      default_locale_id: DEFAULT_LOCALE,
      default_currency_id: 1,
      registration_countries: named(REGISTRATION_COUNTRIES, q.locale),
      currencies: CURRENCIES,
      classes_or_types: named(
        CLASSES.filter((c) => c.segment_id === q.segment),
        q.locale,
      ),
      transmissions: named(
        TRANSMISSIONS.filter((c) => c.segment_id === q.segment),
        q.locale,
      ),
      fuel_policies: named(FUEL_POLICIES, q.locale),
      distance_units: named(DISTANCE_UNITS, q.locale),
      booking_lead_time_days: { min: 1, max: 3 },
      minimal_renting_period_days: { min: 1 },
      text_limits: { vehicle_description: 5000, vehicle_tuning_text: 5000 },
      upload: { min_files: UPLOAD_MIN_FILES, max_files: UPLOAD_MAX_FILES, max_file_bytes: MAX_UPLOAD_FILE_BYTES },
      availability_calendar_format: "d.m.Y",
    });
  },
  "catalog.currencies": (ctx) => {
    catalogQuery(ctx);
    return { list: CURRENCIES };
  },
  "catalog.locales": (ctx) => {
    catalogQuery(ctx);
    return { list: LOCALES };
  },
  "catalog.segments": localizedList(SEGMENTS),
  "catalog.brands": (ctx) => {
    const q = catalogQuery(ctx);
    return { list: BRANDS.filter((b) => b.segment_id === q.segment) };
  },
  /**
   * Models of a brand. When `segment_id` is omitted the brand's own segment
   * is used (not the default 1), so motorcycle and boat brands work without
   * it; an explicit `segment_id` that is not the brand's segment is a 400
   * naming brand_id.
   */
  "catalog.models": (ctx) => {
    const q = catalogQuery(ctx, (record, problems) => {
      const brandId = num(record, "brand_id") as number;
      const brand = idx().brands.get(brandId);
      const segment = num(record, "segment_id");
      if (!brand) problems.push(refProblem("brand_id", "brand", brandId));
      else if (segment !== undefined && brand.segment_id !== segment) {
        problems.push({ field: "brand_id", message: `brand ${brandId} is not in segment ${segment}` });
      }
    });
    const brandId = num(q.record, "brand_id") as number;
    return { list: MODELS.filter((m) => m.brand_id === brandId) };
  },
  "catalog.equipments": (ctx) => {
    const q = catalogQuery(ctx, (record, problems) => {
      const modelId = num(record, "model_id") as number;
      if (!idx().models.has(modelId)) problems.push(refProblem("model_id", "model", modelId));
    });
    const modelId = num(q.record, "model_id") as number;
    return { list: EQUIPMENTS.filter((e) => e.model_id === modelId) };
  },
  "catalog.years_of_issue": (ctx) => {
    catalogQuery(ctx);
    return { list: YEARS_OF_ISSUE };
  },
  "catalog.classes_or_types": segmentList(CLASSES),
  "catalog.transmissions": segmentList(TRANSMISSIONS),
  "catalog.benefits": segmentList(BENEFITS),
  "catalog.additional_features": segmentList(ADDITIONAL_FEATURES),
  "catalog.options": segmentList(TUNING_OPTIONS),
  "catalog.protection_plans": (ctx) => {
    const q = catalogQuery(ctx);
    return flexible({
      plans: named(PROTECTION_PLANS, q.locale),
      deposit_return_options: named(DEPOSIT_RETURN_OPTIONS, q.locale),
      deposit_payment_methods: named(DEPOSIT_PAYMENT_METHODS, q.locale),
    });
  },
  "catalog.delivery": localizedList(DELIVERY_PLACES),
  "catalog.fuel_policy": localizedList(FUEL_POLICIES),
  "catalog.distance_units": localizedList(DISTANCE_UNITS),
  "catalog.payment_systems": localizedList(PAYMENT_SYSTEMS),
  "catalog.payment_types": localizedList(PAYMENT_TYPES),
  "catalog.extra_options": localizedList(EXTRA_OPTIONS),
};

// ---------------------------------------------------------------- vehicles

/** Catalog references of a vehicle record and the account's images and extras it names. */
function vehicleRefProblems(record: WireRecord, ownerId: number, store: Store): Problem[] {
  const x = idx();
  const problems: Problem[] = [...localeProblems(record)];
  const one = (field: string, what: string, has: (id: number) => boolean) => {
    const id = num(record, field);
    if (id !== undefined && !has(id)) problems.push(refProblem(field, what, id));
  };
  const many = (field: string, what: string, has: (id: number) => boolean, where = "") => {
    for (const id of ids(record, field)) if (!has(id)) problems.push(refProblem(field, what, id, where));
  };
  const segment = num(record, "vehicle_segment_id");
  one("vehicle_segment_id", "segment", (id) => x.segments.has(id));
  one("vehicle_class_id", "vehicle class", (id) => x.classes.has(id));
  one("vehicle_model_id", "vehicle configuration", (id) => x.equipments.has(id));
  one("vehicle_year_of_issue_id", "year of issue", (id) => x.years.has(id));
  one("vehicle_reg_number_country", "registration country", (id) => x.countries.has(id));
  one("vehicle_currency_id", "currency", (id) => x.currencies.has(id));
  one("vehicle_protection_plans_deposit_return_period_cash", "deposit return option", (id) => x.depositReturn.has(id));
  one("vehicle_protection_plans_deposit_return_period_card", "deposit return option", (id) => x.depositReturn.has(id));
  one("vehicle_distance_unit_id", "distance unit", (id) => id === 0 || x.distanceUnits.has(id));
  one("vehicle_fuel_policy", "fuel policy", (id) => x.fuelPolicies.has(id));
  many("vehicle_delivery_address_fixed_place", "delivery place", (id) => x.delivery.has(id));
  many("vehicle_delivery_return_fixed_place", "delivery place", (id) => x.delivery.has(id));
  many("vehicle_benefits_id", "benefit", (id) => x.benefits.has(id));
  many("vehicle_options_id", "additional feature", (id) => x.features.has(id));
  many("vehicle_payment_types", "payment type", (id) => x.paymentTypes.has(id));
  many("vehicle_images", "image", (id) => store.images.get(id)?.owner === ownerId, " in this account");
  many("vehicle_extras", "extra", (id) => store.extras.get(id)?.owner === ownerId, " in this account");
  // Class and configuration must belong to the vehicle's segment.
  if (segment !== undefined && x.segments.has(segment)) {
    const cls = x.classes.get(num(record, "vehicle_class_id") ?? 0);
    if (cls && cls.segment_id !== segment) {
      problems.push({ field: "vehicle_class_id", message: `class ${cls.id} is not in segment ${segment}` });
    }
    const eq = x.equipments.get(num(record, "vehicle_model_id") ?? 0);
    if (eq && eq.segment_id !== segment) {
      problems.push({ field: "vehicle_model_id", message: `configuration ${eq.id} is not in segment ${segment}` });
    }
  }
  return problems;
}

function findVehicle(ctx: HandlerContext, id: number): VehicleRow {
  const row = ctx.store.vehicles.get(id);
  if (!row) throw new SandboxHttpError(404, "vehicle not found");
  if (row.owner !== ctx.owner) throw unauthorized();
  return row;
}

function findExtra(ctx: HandlerContext, id: number): ExtraRow {
  const row = ctx.store.extras.get(id);
  if (!row) throw new SandboxHttpError(404, "extra not found");
  if (row.owner !== ctx.owner) throw unauthorized();
  return row;
}

const vehicleHandlers: Record<string, Handler> = {
  "vehicles.list": (ctx) => {
    const me = owner(ctx);
    assertUserId(ctx);
    const { record, problems } = validateInput(ctx, { required: true });
    problems.push(...localeProblems(record));
    failIf(problems);
    const limit = num(record, "limit") ?? 15;
    const offset = num(record, "offset") ?? 0;
    const rows = ctx.store.vehiclePage(me, offset, limit);
    return paginated(ctx.store.vehicleCount(me), limit, offset, rows.map(vehicleOut));
  },
  "vehicles.get": (ctx) => {
    owner(ctx);
    const { record, problems } = validateInput(ctx, { required: true });
    problems.push(...localeProblems(record));
    failIf(problems);
    return flexible(vehicleOut(findVehicle(ctx, num(record, "vehicle_id") as number)));
  },
  "vehicles.create": (ctx) => {
    const me = owner(ctx);
    assertUserId(ctx);
    const { record, problems } = validateInput(ctx, { required: true });
    problems.push(...crossFieldProblems(record), ...vehicleRefProblems(record, me, ctx.store));
    failIf(problems);
    const now = ctx.now();
    const row: VehicleRow = {
      id: ctx.store.allocate("vehicle"),
      owner: me,
      fields: orderVehicleFields(record),
      created_at: now,
      updated_at: now,
    };
    ctx.store.commit([{ op: "vehicle.put", row }]);
    return flexible(vehicleOut(row));
  },
  /**
   * Edit REPLACES the record. The stored fields become exactly the fields of
   * this request (vehicle_id and locale_id aside): every field left out,
   * including those required on create, is removed from the stored record
   * and is absent from later get and list answers. Only user_id and
   * vehicle_id are demanded. id and created_at are kept; updated_at changes.
   * A client that sends only the fields it wants to change loses the rest.
   */
  "vehicles.edit": (ctx) => {
    const me = owner(ctx);
    assertUserId(ctx);
    const { record, problems } = validateInput(ctx, { required: true });
    problems.push(...crossFieldProblems(record), ...vehicleRefProblems(record, me, ctx.store));
    failIf(problems);
    const current = findVehicle(ctx, num(record, "vehicle_id") as number);
    const { vehicle_id: _id, ...fields } = record;
    const row: VehicleRow = {
      id: current.id,
      owner: me,
      fields: orderVehicleFields(fields),
      created_at: current.created_at,
      updated_at: ctx.now(),
    };
    ctx.store.commit([{ op: "vehicle.put", row }]);
    return flexible(vehicleOut(row));
  },
  "vehicles.remove": (ctx) => {
    owner(ctx);
    assertUserId(ctx);
    const { record, problems } = validateInput(ctx, { required: true });
    failIf(problems);
    const row = findVehicle(ctx, num(record, "vehicle_id") as number);
    ctx.store.commit([{ op: "vehicle.del", id: row.id }]);
    return flexible({ id: row.id, deleted: true });
  },
  /**
   * Upload: multipart with `user_id` and 1 to 10 file parts named `file` or
   * `file[]`; nothing else. Only the metadata of each file is kept (name,
   * size, type), never its bytes. Any content type is accepted; an empty
   * file or one over MAX_UPLOAD_FILE_BYTES is a 400.
   */
  "vehicles.upload": (ctx) => {
    const me = owner(ctx);
    assertUserId(ctx);
    const problems: Problem[] = [];
    const { file: textFile, ...rest } = ctx.input.fields;
    if (textFile !== undefined) {
      problems.push({ field: "file", message: "must be a file part (multipart/form-data with a file name)" });
    }
    const v = validateInput(ctx, { required: true, raw: rest });
    problems.push(...v.problems);
    const files = ctx.input.files.filter((f) => f.field === "file");
    for (const f of ctx.input.files)
      if (f.field !== "file") problems.push({ field: f.field, message: "is not allowed here" });
    if (files.length < UPLOAD_MIN_FILES && textFile === undefined) {
      problems.push({
        field: "file",
        message: `is required: send ${UPLOAD_MIN_FILES} to ${UPLOAD_MAX_FILES} file parts`,
      });
    }
    if (files.length > UPLOAD_MAX_FILES) {
      problems.push({ field: "file", message: `at most ${UPLOAD_MAX_FILES} files per upload, got ${files.length}` });
    }
    files.forEach((f, i) => {
      if (f.size === 0) problems.push({ field: "file", message: `file ${i + 1} (${f.fileName}) is empty` });
      if (f.size > MAX_UPLOAD_FILE_BYTES) {
        problems.push({
          field: "file",
          message: `file ${i + 1} (${f.fileName}) is over ${MAX_UPLOAD_FILE_BYTES} bytes`,
        });
      }
    });
    failIf(problems);
    const now = ctx.now();
    const rows: ImageRow[] = files.map((f) => ({
      id: ctx.store.allocate("image"),
      owner: me,
      file_name: f.fileName,
      size: f.size,
      content_type: f.contentType,
      created_at: now,
    }));
    ctx.store.commit(rows.map((row) => ({ op: "image.put", row })));
    return flexible(rows.map(imageOut));
  },
};

// ---------------------------------------------------------------- extras

const EXTRA_MEMBERS = EXTRA_EDITABLE_FIELDS.map((f) => f.name);

function extraFields(record: WireRecord): WireRecord {
  const out: WireRecord = {};
  for (const name of EXTRA_MEMBERS) {
    const v = record[name];
    if (v !== undefined) out[name] = v;
  }
  return out;
}

function extraRefProblems(record: WireRecord): Problem[] {
  const problems = localeProblems(record);
  const option = num(record, "option_id");
  if (option !== undefined && !idx().extraOptions.has(option))
    problems.push(refProblem("option_id", "extra option", option));
  const currency = num(record, "currency_id");
  if (currency !== undefined && !idx().currencies.has(currency)) {
    problems.push(refProblem("currency_id", "currency", currency));
  }
  return problems;
}

const extraHandlers: Record<string, Handler> = {
  "extras.list": (ctx) => {
    const me = owner(ctx);
    const { record, problems } = validateInput(ctx, { required: true });
    problems.push(...localeProblems(record));
    failIf(problems);
    const limit = num(record, "limit") ?? 15;
    const offset = num(record, "offset") ?? 0;
    const locale = localeOf(record);
    const rows = ctx.store.extraPage(me, offset, limit);
    return paginated(
      ctx.store.extraCount(me),
      limit,
      offset,
      rows.map((r) => extraOut(r, locale)),
    );
  },
  "extras.get": (ctx) => {
    owner(ctx);
    const { record, problems } = validateInput(ctx, { required: true });
    problems.push(...localeProblems(record));
    failIf(problems);
    return flexible(extraOut(findExtra(ctx, num(record, "extra_id") as number), localeOf(record)));
  },
  /** A new extra is active (is_active 1). */
  "extras.create": (ctx) => {
    const me = owner(ctx);
    const { record, problems } = validateInput(ctx, { required: true });
    problems.push(...extraRefProblems(record));
    failIf(problems);
    const now = ctx.now();
    const row: ExtraRow = {
      id: ctx.store.allocate("extra"),
      owner: me,
      fields: extraFields(record),
      is_active: 1,
      created_at: now,
      updated_at: now,
    };
    ctx.store.commit([{ op: "extra.put", row }]);
    return flexible(extraOut(row, localeOf(record)));
  },
  /**
   * Update is a full replacement: only extra_id and locale_id are demanded;
   * option_id, price, currency_id, period and quantity left out are CLEARED
   * (absent from the record afterwards). is_active is not an update member
   * and is kept.
   */
  "extras.update": (ctx) => {
    owner(ctx);
    const { record, problems } = validateInput(ctx, { required: false });
    requireMembers(record, problems, ["extra_id", "locale_id"]);
    problems.push(...extraRefProblems(record));
    failIf(problems);
    const current = findExtra(ctx, num(record, "extra_id") as number);
    const row: ExtraRow = { ...current, fields: extraFields(record), updated_at: ctx.now() };
    ctx.store.commit([{ op: "extra.put", row }]);
    return flexible(extraOut(row, localeOf(record)));
  },
  /** Switch toggles is_active (1 -> 0, 0 -> 1) and answers the record. */
  "extras.switch": (ctx) => {
    owner(ctx);
    const { record, problems } = validateInput(ctx, { required: true });
    failIf(problems);
    const current = findExtra(ctx, num(record, "extra_id") as number);
    const row: ExtraRow = { ...current, is_active: current.is_active === 1 ? 0 : 1, updated_at: ctx.now() };
    ctx.store.commit([{ op: "extra.put", row }]);
    return flexible(extraOut(row, DEFAULT_LOCALE));
  },
  /** Delete also takes the extra's id out of `vehicle_extras` of the owner's vehicles (updated_at unchanged). */
  "extras.delete": (ctx) => {
    const me = owner(ctx);
    const { record, problems } = validateInput(ctx, { required: true });
    failIf(problems);
    const row = findExtra(ctx, num(record, "extra_id") as number);
    const mutations: Mutation[] = [{ op: "extra.del", id: row.id }];
    for (const v of ctx.store.ownerVehicles(me)) {
      const list = ids(v.fields, "vehicle_extras");
      if (!list.includes(row.id)) continue;
      const { vehicle_extras: _drop, ...fields } = v.fields;
      const kept = list.filter((id) => id !== row.id);
      mutations.push({
        op: "vehicle.put",
        row: { ...v, fields: orderVehicleFields(kept.length ? { ...fields, vehicle_extras: kept } : fields) },
      });
    }
    ctx.store.commit(mutations);
    return flexible({ id: row.id, deleted: true });
  },
};

/** Every operation's behaviour, by operation id. */
export const HANDLERS: Readonly<Record<string, Handler>> = {
  ...catalogHandlers,
  ...vehicleHandlers,
  ...extraHandlers,
};
