import { CATALOG_OPERATIONS } from "../contract/operations.js";
import type { JsonObject } from "../contract/records.js";
import type { ParamSpec } from "../contract/types.js";
import { VEHICLE_EDITABLE_FIELDS } from "../contract/vehicle-fields.js";
import type { Deps } from "../deps.js";
import { UsageError } from "../errors.js";
import type { PlanTarget, SavedPlan } from "../fleet/saved-plan.js";
import { captured, parsedStdout } from "./capture.js";
import type { PlanTokens } from "./tokens.js";

/**
 * The tools of `rentctl mcp`, each a thin door onto the code a CLI command
 * runs (the same selection, names, plans, apply and undo), with its input
 * schema generated from the contract's field declarations, so a field added
 * there appears here without a second edit.
 *
 * - read tools (readOnlyHint): catalogs, vehicles, extras, calendar, the
 *   account document, the undo history;
 * - plan_changes (read-only too): the plan of a change and a plan token;
 * - apply_plan and undo: only with --allow-writes.
 */

export interface ToolResult {
  /** The data (structuredContent). */
  data: Record<string, unknown>;
  /** A short text for the model (the summary; the data follows as JSON). */
  summary: string;
}

export interface ToolContext {
  deps: Deps;
  tokens: PlanTokens;
  maxChanges: number;
  /** Where writes are allowed: "none" (the default), "sandbox" or "all". */
  writes: "none" | "sandbox" | "all";
  target(): Promise<PlanTarget>;
}

export interface Tool {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
  /** Offered only when writes are allowed. */
  writes?: boolean;
  run(ctx: ToolContext, args: Record<string, unknown>): Promise<ToolResult>;
}

// --- input schemas, from the contract's declarations --------------------------------------------------------------

function fieldSchema(f: ParamSpec, relative: boolean): Record<string, unknown> {
  const scalar =
    f.type === "integer" || f.type === "flag"
      ? relative
        ? { type: ["integer", "string"] }
        : { type: "integer" }
      : f.type === "string"
        ? { type: "string" }
        : { type: "array", items: { type: f.type === "integer[]" ? ["integer", "string"] : "string" } };
  const range =
    f.min !== undefined && f.max !== undefined
      ? ` (${f.min} to ${f.max})`
      : f.min !== undefined
        ? ` (at least ${f.min})`
        : "";
  const names = f.catalog ? `; an id or a name from ${f.catalog.replace("catalog.", "the catalog ")}` : "";
  return { ...scalar, description: `${f.description}${range}${names}` };
}

const EDITABLE = VEHICLE_EDITABLE_FIELDS;

/** The `changes` object of plan_changes: every vehicle field, by wire name, relative forms allowed on numbers. */
function changesSchema(): Record<string, unknown> {
  return {
    type: "object",
    description:
      'Field changes for every selected vehicle, by wire name. Numbers take absolute values (45) or relative ones as strings ("+10%", "-5", "*1.1"); catalog fields take an id or a name ("Automatic"); an empty string clears an optional field.',
    properties: Object.fromEntries(EDITABLE.map((f) => [f.name, fieldSchema(f, true)])),
    additionalProperties: false,
  };
}

const whereSchema = {
  type: "array",
  items: { type: "string" },
  description:
    'Selection, as `rentctl vehicle list --where`: FIELD OP VALUE with = != < <= > >= ~ (regex); all must hold. Fields by wire or short name (price_per_day, segment, class, model, year, id, available). Examples: "price_per_day<40", "segment=cars", "model=corolla", "available=2026-12-24..2026-12-26".',
};

const idSchema = { type: "integer", minimum: 1 };

// --- helpers ----------------------------------------------------------------------------------------------------

/** Run a command's code with stdout and stderr captured; its JSON result and its notes. */
async function runCaptured(deps: Deps, fn: (d: Deps) => Promise<void>): Promise<{ data: unknown; notes: string }> {
  const c = captured(deps);
  await fn(c.deps);
  return { data: parsedStdout(c), notes: c.stderr().trim() };
}

/** Names for the catalog ids of records, as the table views show them (`names: { vehicle_model_id: "Toyota Corolla …" }`). */
async function withNames(deps: Deps, records: JsonObject[]): Promise<JsonObject[]> {
  const [{ FieldNames }, { listExtras }] = await Promise.all([
    import("../catalog/names.js"),
    import("../resources/list.js"),
  ]);
  let extras: Promise<JsonObject[]> | undefined;
  const fn = new FieldNames(deps.catalogs(), () => {
    extras ??= listExtras(deps);
    return extras;
  });
  const out: JsonObject[] = [];
  for (const r of records) {
    const names: JsonObject = {};
    for (const [k, v] of Object.entries(r)) {
      if (!fn.names(k) || v === null || v === "") continue;
      if (Array.isArray(v)) {
        const got = await Promise.all(v.map(async (id) => (await fn.name(k, Number(id), r)) ?? `#${id}`));
        if (got.length) names[k] = got;
      } else if (typeof v === "number" || (typeof v === "string" && /^\d+$/.test(v))) {
        const n = await fn.name(k, Number(v), r);
        if (n !== undefined) names[k] = n;
      }
    }
    out.push(Object.keys(names).length ? { ...r, names } : r);
  }
  return out;
}

function str(v: unknown, what: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw new UsageError(`${what}: expected a string`);
  return v;
}

function strings(v: unknown, what: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((s) => typeof s !== "string"))
    throw new UsageError(`${what}: expected a list of strings`);
  return v as string[];
}

function int(v: unknown, what: string, dflt?: number, max?: number, min = 0): number {
  if (v === undefined || v === null) {
    if (dflt === undefined) throw new UsageError(`${what} is required`);
    return dflt;
  }
  const n = typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v;
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < min || (max !== undefined && n > max))
    throw new UsageError(
      `${what}: expected a whole number from ${min}${max !== undefined ? ` to ${max}` : ""}, got ${JSON.stringify(v)}`,
    );
  return n;
}

/** Arguments the tool's input schema does not name are refused (a misspelt filter must not read as "all"). */
export function checkArguments(tool: Tool, args: Record<string, unknown>): void {
  const props = (tool.inputSchema.properties ?? {}) as Record<string, unknown>;
  const unknown = Object.keys(args).filter((k) => !(k in props));
  if (unknown.length)
    throw new UsageError(
      `${tool.name}: unknown argument${unknown.length === 1 ? "" : "s"} ${unknown.map((k) => JSON.stringify(k)).join(", ")}; it takes ${Object.keys(props).join(", ") || "none"}`,
    );
  for (const k of (tool.inputSchema.required ?? []) as string[])
    if (args[k] === undefined) throw new UsageError(`${tool.name}: "${k}" is required`);
}

/** Counts of a saved plan's entries: what apply_plan would send. */
export function planCounts(plan: JsonObject): Record<string, number> {
  const n = (v: unknown) => (Array.isArray(v) ? v.length : 0);
  const e = (plan.extras ?? {}) as JsonObject;
  const v = (plan.vehicles ?? {}) as JsonObject;
  return {
    extras_create: n(e.create),
    extras_update: n(e.update),
    extras_switch: n(e.switch),
    extras_delete: n(e.delete),
    vehicles_create: n(v.create),
    vehicles_change: n(v.change),
    vehicles_remove: n(v.remove),
  };
}

const total = (c: Record<string, number>) => Object.values(c).reduce((a, b) => a + b, 0);

// --- the tools --------------------------------------------------------------------------------------------------

const catalogNames = CATALOG_OPERATIONS.map((o) => o.catalogName!);

export const TOOLS: Tool[] = [
  {
    name: "search_catalog",
    title: "Search a reference catalog",
    description: `Look up ids by name in one of the API's reference catalogs (brands, models, classes, delivery places, extra options, currencies, …). Returns matching entries ({id, name, …}); without "query", the whole catalog (at most "limit"). Models need brand_id, equipments (configurations) need model_id. Example: {"catalog": "brands", "query": "toyota"}, then {"catalog": "models", "params": {"brand_id": <the id it gave>}}.`,
    inputSchema: {
      type: "object",
      properties: {
        catalog: { type: "string", enum: catalogNames, description: "Which catalog" },
        query: { type: "string", description: "Case-insensitive text the name contains (accents folded)" },
        params: {
          type: "object",
          description: "The catalog's own parameters: segment_id, brand_id (models), model_id (equipments)",
          additionalProperties: { type: "integer" },
        },
        limit: { type: "integer", minimum: 1, maximum: 500, default: 100 },
      },
      required: ["catalog"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: async ({ deps }, args) => {
      const name = str(args.catalog, "catalog");
      const op = CATALOG_OPERATIONS.find((o) => o.catalogName === name);
      if (!op) throw new UsageError(`unknown catalog ${JSON.stringify(name)}: one of ${catalogNames.join(", ")}`);
      const params = (args.params ?? {}) as Record<string, number>;
      const items = await deps.catalogs().items(op.id, params);
      const fold = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
      const q = str(args.query, "query");
      const hits = q ? items.filter((i) => fold(JSON.stringify(i)).includes(fold(q))) : items;
      const limit = int(args.limit, "limit", 100, 500, 1);
      return {
        data: { catalog: name, count: hits.length, items: hits.slice(0, limit) },
        summary: `${hits.length} ${name} entr${hits.length === 1 ? "y" : "ies"}${q ? ` matching "${q}"` : ""}${hits.length > limit ? ` (first ${limit} shown)` : ""}`,
      };
    },
  },
  {
    name: "list_vehicles",
    title: "List vehicles",
    description:
      'List the owner\'s vehicles, optionally only those matching "where" expressions (as `rentctl vehicle list --where`) or a "search" text (registration, model name, location), sorted by a field. Each vehicle comes with "names" for its catalog ids (model, class, currency, benefits, …). Paginated: pass the returned "next_cursor" to get the next page. Example: {"where": ["segment=cars", "price_per_day<50"], "limit": 20}.',
    inputSchema: {
      type: "object",
      properties: {
        where: whereSchema,
        search: { type: "string", description: "Text in the registration, model name or location" },
        sort: { type: "string", description: 'A field, optionally ":desc" (e.g. "price_per_day:desc")' },
        limit: { type: "integer", minimum: 1, maximum: 100, default: 20 },
        cursor: { type: "string", description: "next_cursor of the previous page" },
      },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: async ({ deps }, args) => {
      const limit = int(args.limit, "limit", 20, 100, 1);
      const offset = args.cursor === undefined ? 0 : int(args.cursor, "cursor");
      const where = strings(args.where, "where");
      const { data, notes } = await runCaptured(deps, async (d) => {
        const { run } = await import("../commands/vehicle/list-where.js");
        await run(d, {
          where,
          sort: str(args.sort, "sort"),
          search: str(args.search, "search"),
          limit: limit + 1,
          offset,
        });
      });
      const all = (Array.isArray(data) ? data : []) as JsonObject[];
      const page = all.slice(0, limit);
      const more = all.length > limit;
      return {
        data: {
          vehicles: await withNames(deps, page),
          ...(more ? { next_cursor: String(offset + limit) } : {}),
        },
        summary: `${page.length} vehicle${page.length === 1 ? "" : "s"}${offset ? ` from #${offset + 1}` : ""}${more ? "; more with next_cursor" : ""}${notes ? `\n${notes}` : ""}`,
      };
    },
  },
  {
    name: "get_vehicle",
    title: "Get one vehicle",
    description: 'One vehicle\'s whole record by id, with "names" for its catalog ids. Example: {"id": 1}.',
    inputSchema: { type: "object", properties: { id: idSchema }, required: ["id"], additionalProperties: false },
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: async ({ deps }, args) => {
      const { fetchRecord, VEHICLE } = await import("../resources/safe-edit.js");
      const [v] = await withNames(deps, [await fetchRecord(deps, VEHICLE, int(args.id, "id"))]);
      return { data: { vehicle: v }, summary: `vehicle ${args.id} (${String(v!.vehicle_reg_number ?? "").trim()})` };
    },
  },
  {
    name: "list_extras",
    title: "List extras",
    description:
      "The owner's paid extras (child seats, GPS, …): option, price, currency, period (the server's number), quantity, on/off, with option and currency names. Example: {}.",
    inputSchema: { type: "object", properties: {}, additionalProperties: false },
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: async ({ deps }) => {
      const { listExtras } = await import("../resources/list.js");
      const extras = await withNames(deps, await listExtras(deps));
      return { data: { extras }, summary: `${extras.length} extra${extras.length === 1 ? "" : "s"}` };
    },
  },
  {
    name: "get_extra",
    title: "Get one extra",
    description: 'One extra by id, with the vehicles that use it ("used_by"). Example: {"id": 2}.',
    inputSchema: { type: "object", properties: { id: idSchema }, required: ["id"], additionalProperties: false },
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: async ({ deps }, args) => {
      const id = int(args.id, "id");
      const [{ fetchRecord, EXTRA }, { vehiclesUsingExtra }] = await Promise.all([
        import("../resources/safe-edit.js"),
        import("../resources/list.js"),
      ]);
      const [extra] = await withNames(deps, [await fetchRecord(deps, EXTRA, id)]);
      const usedBy = await vehiclesUsingExtra(deps, id);
      return {
        data: { extra: extra!, used_by: usedBy },
        summary: `extra ${id}, used by ${usedBy.length} vehicle${usedBy.length === 1 ? "" : "s"}`,
      };
    },
  },
  {
    name: "vehicle_calendar",
    title: "Availability calendar of a vehicle",
    description:
      'The days a vehicle is blocked (not available), from a month on ("from": "2026-12"), for 1 to 24 months. Example: {"id": 3, "from": "2026-12", "months": 2}.',
    inputSchema: {
      type: "object",
      properties: {
        id: idSchema,
        from: { type: "string", description: "First month, YYYY-MM (default: this month)" },
        months: { type: "integer", minimum: 1, maximum: 24, default: 3 },
      },
      required: ["id"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: async ({ deps }, args) => {
      const { data, notes } = await runCaptured(deps, async (d) => {
        const { run } = await import("../commands/vehicle/calendar.js");
        await run(d, {
          ids: [String(int(args.id, "id"))],
          from: str(args.from, "from"),
          months: args.months === undefined ? undefined : String(int(args.months, "months", 3, 24)),
        });
      });
      return {
        data: { calendar: data as JsonObject },
        summary: `calendar of vehicle ${args.id}${notes ? `\n${notes}` : ""}`,
      };
    },
  },
  {
    name: "export_account",
    title: "Export the account",
    description:
      'The whole account as one document {extras: [...], vehicles: [...]}, as `rentctl account export` writes it; "names": true gives catalog values as names (portable between accounts). Edit it and pass it (or a fragment) to plan_changes. Example: {"names": true}.',
    inputSchema: {
      type: "object",
      properties: { names: { type: "boolean", default: false } },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: async ({ deps }, args) => {
      const { data, notes } = await runCaptured(deps, async (d) => {
        const { run } = await import("../commands/account/export.js");
        await run(d, undefined, { format: "json", names: Boolean(args.names) });
      });
      const doc = (data ?? {}) as JsonObject;
      const n = (k: string) => (Array.isArray(doc[k]) ? (doc[k] as unknown[]).length : 0);
      return {
        data: { account: doc },
        summary: `${n("extras")} extras, ${n("vehicles")} vehicles${notes ? `\n${notes}` : ""}`,
      };
    },
  },
  {
    name: "undo_history",
    title: "Undo history",
    description:
      'The recent writes that can be undone (newest first): op, time, action, id. Pass an op to the undo tool (with --allow-writes). Example: {"limit": 10}.',
    inputSchema: {
      type: "object",
      properties: { limit: { type: "integer", minimum: 1, maximum: 200, default: 20 } },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: async ({ deps }, args) => {
      const { data } = await runCaptured(deps, async (d) => {
        const { run } = await import("../commands/undo/undo.js");
        await run(d, undefined, { limit: int(args.limit, "limit", 20, 200, 1) });
      });
      const entries = (Array.isArray(data) ? data : []) as JsonObject[];
      return { data: { entries }, summary: `${entries.length} undo entr${entries.length === 1 ? "y" : "ies"}` };
    },
  },
  {
    name: "plan_changes",
    title: "Plan a change (nothing is sent)",
    description: `Plan a change and return it for review, with a plan token that apply_plan takes (single use, expires). Nothing is sent. Give ONE of:
- "where" (or "ids") with "changes": field changes for the selected vehicles, relative values allowed ("clamp": true rounds fractions). Example: {"where": ["class=SUV", "pickup_location~Munich"], "changes": {"price_per_day": "+10%"}, "clamp": true}
- "where" (or "ids") with "calendar": {"block": ["2026-12-24..2026-12-26"], "unblock": [...]}: availability days.
- "document": an account document or fragment, as export_account returns ({extras, vehicles}; vehicles matched by registration number; fields left out are kept). "prune": true also removes what the document does not list.
The result: counts, a markdown summary for the person to review, the plan, and the token. Show the markdown to the person before applying.`,
    inputSchema: {
      type: "object",
      properties: {
        where: whereSchema,
        ids: { type: "array", items: idSchema, description: "Vehicle ids (instead of where)" },
        changes: changesSchema(),
        calendar: {
          type: "object",
          properties: {
            block: {
              type: "array",
              items: { type: "string" },
              description: "Days or ranges to block: 2026-12-24, 2026-12-24..2026-12-26, 2026-12",
            },
            unblock: {
              type: "array",
              items: { type: "string" },
              description: "Days or ranges to make available again",
            },
          },
          additionalProperties: false,
        },
        document: {
          description:
            "An account document {extras: [...], vehicles: [...]} or a list of vehicle rows (as export_account gives); see `rentctl account schema`",
          type: ["object", "array"],
        },
        prune: {
          type: "boolean",
          default: false,
          description: "With document: remove vehicles and delete extras it does not list",
        },
        clamp: {
          type: "boolean",
          default: false,
          description:
            "With relative changes: round a result that is not a whole number half up (45 +10% = 49.5 → 50) and set one outside the field's range to its bound; without it such a change is refused",
        },
      },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: (ctx, args) => planChanges(ctx, args),
  },
  {
    name: "apply_plan",
    title: "Apply a reviewed plan",
    description:
      'Apply exactly the plan of a token from plan_changes, after the person reviewed its markdown. Refused with nothing sent when the token is unknown, used, expired, for another owner, above the server\'s --max-changes, or stale (a record it read changed since). Runs locked and journaled; returns the counts and the undo op. May remove vehicles or delete extras when the plan says so. Example: {"token": "rp_1001_…"}.',
    inputSchema: {
      type: "object",
      properties: { token: { type: "string", description: "The plan token of plan_changes" } },
      required: ["token"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    writes: true,
    run: (ctx, args) => applyPlan(ctx, args),
  },
  {
    name: "undo",
    title: "Undo one write",
    description:
      'Undo one op of the undo history (an apply is undone as a whole, exactly: a vehicle changed since is left alone and named). Example: {"op": "12"}.',
    inputSchema: {
      type: "object",
      properties: { op: { type: "string", description: "An op of undo_history (or of apply_plan's result)" } },
      required: ["op"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    writes: true,
    run: async (ctx, args) => {
      await writesAllowed(ctx);
      const op = str(args.op, "op");
      if (!op) throw new UsageError("op is required");
      const { data, notes } = await runCaptured(ctx.deps, async (d) => {
        const { run } = await import("../commands/undo/undo.js");
        await run(d, op, {});
      });
      return {
        data: { op, undone: true, ...(data ? { result: data as JsonObject } : {}) },
        summary: notes || `op ${op} undone`,
      };
    },
  },
];

async function writesAllowed(ctx: ToolContext): Promise<void> {
  if (ctx.writes === "none")
    throw new UsageError("writes are off: start the server with --allow-writes to apply plans; nothing was sent");
  if (ctx.writes === "sandbox" && (await ctx.target()).env !== "sandbox")
    throw new UsageError("--allow-writes=sandbox: writes go to the sandbox only; nothing was sent");
}

async function planChanges(ctx: ToolContext, args: Record<string, unknown>): Promise<ToolResult> {
  const deps = ctx.deps;
  const where = strings(args.where, "where");
  const ids = args.ids === undefined ? [] : (args.ids as unknown[]).map((v) => String(int(v, "ids")));
  const forms = [args.document !== undefined, args.changes !== undefined, args.calendar !== undefined].filter(Boolean);
  if (forms.length !== 1)
    throw new UsageError('give one of "document", "changes" (with where or ids) or "calendar" (with where or ids)');
  let document: unknown = args.document;
  let prune = Boolean(args.prune);
  if (args.document === undefined) {
    if (!where.length && !ids.length)
      throw new UsageError('"changes" and "calendar" need "where" or "ids" to select vehicles');
    if (prune) throw new UsageError('"prune" goes with "document" only');
    const selection = { where, ids };
    let plan: import("../fleet/plan.js").Plan;
    if (args.changes !== undefined) {
      const changes = args.changes;
      if (typeof changes !== "object" || changes === null || Array.isArray(changes))
        throw new UsageError('"changes": an object of field: value');
      const { requireField } = await import("../fleet/where.js");
      const flags: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(changes)) flags[requireField(k, "changes").name] = v;
      const { planSelectionEdit } = await import("../commands/vehicle/many.js");
      plan = (await planSelectionEdit(captured(deps).deps, { ...selection, flags, clamp: Boolean(args.clamp) })).plan;
    } else {
      const cal = args.calendar as { block?: unknown; unblock?: unknown };
      const { planCalendarEdit } = await import("../commands/vehicle/calendar.js");
      plan = await planCalendarEdit(captured(deps).deps, {
        ...selection,
        block: strings(cal?.block, "calendar.block"),
        unblock: strings(cal?.unblock, "calendar.unblock"),
      });
    }
    if (plan.change.length + plan.unchanged === 0)
      throw new UsageError("no vehicle matches the selection: nothing to plan", {
        details: [
          ...where.map((w) => ({ field: "where", message: w })),
          ...ids.map((i) => ({ field: "ids", message: i })),
        ],
      });
    // the selection's changes as rows of a fleet document: one plan and one apply path for every form
    document = {
      vehicles: plan.change.map((c) => ({
        vehicle_reg_number: c.reg,
        ...Object.fromEntries(Object.keys(c.fields).map((k) => [k, c.after[k] ?? ""])),
      })),
    };
    prune = false;
  }
  if (typeof document !== "object" || document === null) throw new UsageError('"document": an object or a list');
  // An account file without a vehicles list means "no vehicles" to --prune: every vehicle would go.
  // A tool call that names only extras means the extras, so it is refused here, before any plan.
  if (prune && !Array.isArray(document) && !Array.isArray((document as { vehicles?: unknown }).vehicles))
    throw new UsageError(
      '"prune" with a document that has no "vehicles" list would remove every vehicle; nothing was planned',
      {
        hint: 'list every vehicle to keep under "vehicles" (export_account gives them), or leave "prune" out and delete one extra by listing the others with prune and all vehicles',
      },
    );
  const { saved, markdown } = await planDocument(deps, withoutNames(document), prune);
  const counts = planCounts(saved.plan);
  const n = total(counts);
  if (n === 0)
    return { data: { changes: 0, counts, markdown }, summary: "nothing to change: the account already matches" };
  const issued = ctx.tokens.issue(saved);
  const over = n > ctx.maxChanges;
  // The person can apply exactly this plan with the CLI (a read-only server, or over --max-changes).
  const planFile = await savePlanFile(deps, saved, issued.token);
  return {
    data: {
      changes: n,
      counts,
      markdown,
      plan: saved.plan,
      token: issued.token,
      expires_at: issued.expiresAt,
      max_changes: ctx.maxChanges,
      plan_file: planFile,
      apply_with: `rentctl account apply --plan ${planFile}`,
      ...(over ? { refused: `the plan has ${n} changes, over this server's --max-changes ${ctx.maxChanges}` } : {}),
    },
    summary: `${n} change${n === 1 ? "" : "s"} planned (token ${issued.token}, expires ${issued.expiresAt})${over ? `; over --max-changes ${ctx.maxChanges}: apply_plan will refuse it` : ""}${ctx.writes === "none" ? `; this server is read-only: the person applies it with \`rentctl account apply --plan ${planFile}\`` : ""}\n\n${markdown}`,
  };
}

/** Records as the read tools give them carry `names` (ours, not the server's): a document may pass them back as rows. */
function withoutNames(document: object): object {
  const strip = (rows: unknown) =>
    Array.isArray(rows)
      ? rows.map((r) => {
          if (typeof r !== "object" || r === null || Array.isArray(r) || !("names" in r)) return r;
          const { names: _names, ...rest } = r as Record<string, unknown>;
          return rest;
        })
      : rows;
  if (Array.isArray(document)) return strip(document) as object;
  const d = document as Record<string, unknown>;
  return {
    ...d,
    ...("vehicles" in d ? { vehicles: strip(d.vehicles) } : {}),
    ...("extras" in d ? { extras: strip(d.extras) } : {}),
  };
}

/** The saved plan as a file in the data dir (0600), for `rentctl account apply --plan FILE`. */
async function savePlanFile(deps: Deps, saved: SavedPlan, token: string): Promise<string> {
  const [{ join }, { mkdir }, { writeFileAtomic }] = await Promise.all([
    import("node:path"),
    import("node:fs/promises"),
    import("../temp-files.js"),
  ]);
  const dir = join(deps.paths.dataDir, "plans");
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, `${token.slice(0, 28)}.json`);
  await writeFileAtomic(file, `${JSON.stringify(saved, null, 2)}\n`);
  return file;
}

/** Plan an account document against the account: the saved plan `account diff --out` writes. */
async function planDocument(
  deps: Deps,
  document: object,
  prune: boolean,
): Promise<{ saved: SavedPlan; markdown: string }> {
  const [sp, { planAccount, accountFingerprints }, { accountPlanJson, accountPlanMarkdown }] = await Promise.all([
    import("../fleet/saved-plan.js"),
    import("../account/plan.js"),
    import("../account/print.js"),
  ]);
  const text = `${JSON.stringify(document, null, 2)}\n`;
  const source = await sp.textSource(deps, {
    label: "plan_changes.json",
    format: "json",
    baseDir: process.cwd(),
    text,
  });
  try {
    const plan = await planAccount(captured(deps).deps, source, { prune, fingerprints: true });
    const saved = await sp.makeSavedPlan(deps, {
      kind: "account",
      source,
      prune,
      text,
      fingerprints: accountFingerprints(plan),
      plan: accountPlanJson(plan),
    });
    return { saved, markdown: accountPlanMarkdown(plan) };
  } finally {
    await source.cleanup();
  }
}

async function applyPlan(ctx: ToolContext, args: Record<string, unknown>): Promise<ToolResult> {
  await writesAllowed(ctx);
  const token = str(args.token, "token");
  if (!token) throw new UsageError("token is required");
  const saved = ctx.tokens.take(token, await ctx.target());
  const counts = planCounts(saved.plan);
  const n = total(counts);
  if (n > ctx.maxChanges)
    throw new UsageError(
      `the plan has ${n} changes, over this server's --max-changes ${ctx.maxChanges}; nothing was sent`,
      { hint: "split the change into smaller plans, or apply it with `rentctl account apply --plan`" },
    );
  const { applySavedAccountPlan } = await import("../jobs/account-apply.js");
  const c = captured(ctx.deps);
  const result = await applySavedAccountPlan(c.deps, saved, { concurrency: 4, started: Date.now() });
  const done = Object.entries(result.counts)
    .map(([k, v]) => `${v} ${k}`)
    .join(", ");
  return {
    data: { applied: true, counts: result.counts, ...(result.undoOp ? { undo_op: result.undoOp } : {}) },
    summary: `applied: ${done || "nothing to do"}${result.undoOp ? `; undo with the undo tool, op ${result.undoOp}` : ""}`,
  };
}
