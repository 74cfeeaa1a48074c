import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { UsageError } from "../base/errors.js";
import { nearest } from "../base/nearest.js";
import { writeFileAtomic } from "../base/temp-files.js";
import { applySavedAccountPlan } from "../bulk/account-apply.js";
import { FieldNames } from "../catalog/names.js";
import type { JsonObject } from "../contract/records.js";
import type { Deps } from "../deps.js";
import { accountDocument } from "../ops/account/export.js";
import { planAccountDocument } from "../ops/account/plan.js";
import { CATALOG_NAMES, searchCatalog } from "../ops/catalog/search.js";
import { getExtra } from "../ops/extra/get.js";
import { listExtras as listExtrasFromExtraList } from "../ops/extra/list.js";
import { extraId, vehicleId, vehicleIds } from "../ops/handles.js";
import { lintAccount } from "../ops/lint/lint.js";
import { RULE_IDS, severityRank } from "../ops/lint/rules.js";
import { collect } from "../ops/listing.js";
import { undoHistory } from "../ops/undo/history.js";
import { TOOL_UNDO_HINTS, undo, undoneLine } from "../ops/undo/undo.js";
import { vehicleCalendar } from "../ops/vehicle/calendar.js";
import { planCalendarEdit } from "../ops/vehicle/calendar-edit.js";
import { planEditMany } from "../ops/vehicle/edit-many.js";
import { applySavedEditPlan, reviewedPlan, saveEditPlan } from "../ops/vehicle/edit-plan.js";
import { getVehicle } from "../ops/vehicle/get.js";
import { listVehicles } from "../ops/vehicle/list.js";
import { accountPlanMarkdown } from "../plans/account-print.js";
import type { Plan } from "../plans/plan.js";
import type { PlanTarget, SavedPlan } from "../plans/saved-plan.js";
import { requireField } from "../plans/where.js";
import { listExtras as listExtrasFromList } from "../resources/list.js";
import { changesSchema, recordSchema, type Zod } from "./schemas.js";
import type { PlanTokens } from "./tokens.js";
import { toolDeps } from "./tool-deps.js";

/**
 * The tools of `rentctl mcp`, each declared once: its input and output
 * schemas (zod, built from the contract's tables: src/mcp/schemas.ts), its
 * annotations, and its run, which calls an operation (src/ops; undo too) or, for
 * plans and their apply, the functions the CLI's commands call. The server registers
 * the declarations (McpServer.registerTool); the tool list is derived from them.
 *
 * - read tools (readOnlyHint): catalogs, vehicles, extras, calendar, the
 *   account document, the undo history;
 * - plan_changes (read-only too): the plan of a change and a plan token;
 * - apply_plan and undo: only with --allow-writes.
 */

export interface ToolResult {
  /** The data (structuredContent), as the tool's outputSchema declares it. */
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

type Shape = Record<string, import("zod/v4").ZodType>;

export interface Tool {
  name: string;
  title: string;
  description: string;
  /** The arguments (each validated by the SDK before run; others are refused). */
  input(z: Zod): Shape;
  /** The structuredContent of a success. */
  output(z: Zod): Shape;
  annotations: ToolAnnotations;
  /** Offered only when writes are allowed. */
  writes?: boolean;
  // biome-ignore lint/suspicious/noExplicitAny: the arguments as the tool's input schema validated them
  run(ctx: ToolContext, args: any): Promise<ToolResult>;
}

const READ: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };

// --- shared schema parts -----------------------------------------------------------------------------------------

const whereSchema = (z: Zod) =>
  z
    .array(z.string())
    .describe(
      'Selection: FIELD OP VALUE with = != < <= > >= ~ (regex); all must hold. Fields by wire or short name (price_per_day, segment, class, model, year, id, available). Examples: "price_per_day<40", "segment=cars", "model=corolla", "available=2026-12-24..2026-12-26".',
    );

const idSchema = (z: Zod) => z.int().min(1);

/** A vehicle or an extra as every front end names it (src/ops/handles.ts): an id, or a registration number / option name. */
const handleSchema = (z: Zod, kind: "vehicle" | "extra") =>
  z
    .union([idSchema(z), z.string().min(1)])
    .describe(
      kind === "vehicle"
        ? 'The vehicle\'s id, or its registration number ("B-SC 1001")'
        : 'The extra\'s id, or its option\'s name ("GPS navigator"; "Child seat (period 2)" when two share the option)',
    );

/** How refusals name the selection here: the tools' arguments, not the CLI's flags. */
const TOOL_TERMS = {
  where: "where",
  sort: "sort",
  fields: "the member names of get_vehicle's vehicle",
} as const;

const countsSchema = (z: Zod) => z.record(z.string(), z.int());

/** Names for the catalog ids of records, as the table views show them (`names: { vehicle_model_id: "Toyota Corolla …" }`). */
async function withNames(deps: Deps, records: JsonObject[]): Promise<JsonObject[]> {
  let extras: Promise<JsonObject[]> | undefined;
  const fn = new FieldNames(deps.catalogs(), () => {
    extras ??= listExtrasFromList(deps);
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

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const withNotes = (text: string, notes: string) => (notes ? `${text}\n${notes}` : text);

// --- the tools --------------------------------------------------------------------------------------------------

export const TOOLS: Tool[] = [
  {
    name: "search_catalog",
    title: "Search a reference catalog",
    description: `Look up ids by name in one of the API's reference catalogs (brands, models, classes, delivery places, extra options, currencies, …). Returns matching entries ({id, name, …}); without "query", the whole catalog (at most "limit"). Models need brand_id, equipments (configurations) need model_id. Example: {"catalog": "brands", "query": "toyota"}, then {"catalog": "models", "params": {"brand_id": <the id it gave>}}.`,
    input: (z) => ({
      catalog: z.enum(CATALOG_NAMES as [string, ...string[]]).describe("Which catalog"),
      query: z.string().optional().describe("Case-insensitive text the entry contains (accents folded)"),
      params: z
        .record(z.string(), z.int())
        .optional()
        .describe("The catalog's own parameters: segment_id, brand_id (models), model_id (equipments)"),
      limit: z.int().min(1).max(500).default(100),
    }),
    output: (z) => ({
      catalog: z.string(),
      count: z.int().describe("Every matching entry (items holds at most limit of them)"),
      items: z.array(z.record(z.string(), z.unknown())),
    }),
    annotations: READ,
    run: async ({ deps }, args) => {
      const r = await searchCatalog(deps, args);
      return {
        data: { ...r },
        summary: `${plural(r.count, `${r.catalog} entry`, `${r.catalog} entries`)}${args.query ? ` matching "${args.query}"` : ""}${r.count > r.items.length ? ` (first ${r.items.length} shown)` : ""}`,
      };
    },
  },
  {
    name: "list_vehicles",
    title: "List vehicles",
    description:
      'List the owner\'s vehicles, optionally only those matching "where" expressions or a "search" text (registration, model name, location, features, benefits), sorted by a field. Each vehicle comes with "names" for its catalog ids (model, class, currency, benefits, …). Paginated: pass the returned "next_cursor" as "cursor" to get the next page. Example: {"where": ["segment=cars", "price_per_day<50"], "limit": 20}.',
    input: (z) => ({
      where: whereSchema(z).optional(),
      search: z.string().optional().describe("Text in the registration, model name, location, features or benefits"),
      sort: z.string().optional().describe('A field, optionally ":desc" (e.g. "price_per_day:desc")'),
      limit: z.int().min(1).max(100).default(20),
      cursor: z.string().regex(/^\d+$/).optional().describe("next_cursor of the previous page"),
    }),
    output: (z) => ({
      vehicles: z.array(recordSchema(z, "vehicle")),
      next_cursor: z.string().optional().describe("Pass as cursor for the next page; absent on the last page"),
    }),
    annotations: READ,
    run: async ({ deps }, args) => {
      const t = toolDeps(deps);
      const offset = args.cursor === undefined ? 0 : Number(args.cursor);
      const limit: number = args.limit;
      // one more than the page: whether a next page exists
      const all = await collect(
        await listVehicles(t.deps, {
          where: args.where,
          search: args.search,
          sort: args.sort,
          limit: limit + 1,
          offset,
          terms: TOOL_TERMS,
        }),
      );
      const page = all.slice(0, limit);
      const more = all.length > limit;
      return {
        data: { vehicles: await withNames(deps, page), ...(more ? { next_cursor: String(offset + limit) } : {}) },
        summary: withNotes(
          `${plural(page.length, "vehicle")}${offset ? ` from #${offset + 1}` : ""}${more ? "; more with next_cursor" : ""}`,
          t.notes(),
        ),
      };
    },
  },
  {
    name: "get_vehicle",
    title: "Get one vehicle",
    description:
      'One vehicle\'s whole record by id or registration number, with "names" for its catalog ids. Example: {"id": 1} or {"id": "B-SC 1001"}.',
    input: (z) => ({ id: handleSchema(z, "vehicle") }),
    output: (z) => ({ vehicle: recordSchema(z, "vehicle") }),
    annotations: READ,
    run: async ({ deps }, args) => {
      const id = await vehicleId(deps, args.id);
      const [v] = await withNames(deps, [await getVehicle(deps, { id })]);
      return { data: { vehicle: v }, summary: `vehicle ${id} (${String(v!.vehicle_reg_number ?? "").trim()})` };
    },
  },
  {
    name: "list_extras",
    title: "List extras",
    description:
      "The owner's paid extras (child seats, GPS, …): option, price, currency, period (the server's number), quantity, on/off, with option and currency names. Which vehicles use one: get_extra. Example: {}.",
    input: () => ({}),
    output: (z) => ({ extras: z.array(recordSchema(z, "extra")) }),
    annotations: READ,
    run: async ({ deps }) => {
      const t = toolDeps(deps);
      const extras = await withNames(deps, await collect(await listExtrasFromExtraList(t.deps, { all: true })));
      return { data: { extras }, summary: withNotes(plural(extras.length, "extra"), t.notes()) };
    },
  },
  {
    name: "get_extra",
    title: "Get one extra",
    description:
      'One extra by id or option name, with the vehicles that use it ("used_by"). Example: {"id": 2} or {"id": "GPS navigator"}.',
    input: (z) => ({ id: handleSchema(z, "extra") }),
    output: (z) => ({
      extra: recordSchema(z, "extra"),
      used_by: z.array(z.object({ id: z.int(), reg: z.string() })).describe("The vehicles whose extras hold it"),
    }),
    annotations: READ,
    run: async ({ deps }, args) => {
      const id = await extraId(deps, args.id);
      const r = await getExtra(deps, { id, usedBy: true });
      const [extra] = await withNames(deps, [r.extra]);
      const usedBy = r.used_by ?? [];
      return {
        data: { extra: extra!, used_by: usedBy },
        summary: `extra ${id}, used by ${plural(usedBy.length, "vehicle")}`,
      };
    },
  },
  {
    name: "vehicle_calendar",
    title: "Availability calendar of a vehicle",
    description:
      'The days a vehicle is blocked (not available) in a window: from a month on ("from": "2026-12", default this month), for 1 to 24 months ("months", default 3). The answer names its window. Example: {"id": 3, "from": "2026-12", "months": 2}.',
    input: (z) => ({
      id: handleSchema(z, "vehicle"),
      from: z.string().optional().describe("First month, YYYY-MM (default: this month)"),
      months: z.int().min(1).max(24).default(3).describe("Months in the window"),
    }),
    output: (z) => ({
      calendar: z.object({
        vehicle_id: z.int(),
        blocked: z.array(z.string()).describe("Blocked days of the window, YYYY-MM-DD, sorted"),
        malformed: z.array(z.string()).optional().describe("Stored entries that are no date (kept as they are)"),
        window: z
          .object({ from: z.string(), to: z.string(), months: z.int() })
          .optional()
          .describe("The window's first and last day"),
      }),
    }),
    annotations: READ,
    run: async ({ deps }, args) => {
      const id = await vehicleId(deps, args.id);
      const calendar = await vehicleCalendar(deps, { id, from: args.from, months: args.months });
      const w = calendar.window;
      return {
        data: { calendar },
        summary: `vehicle ${id}: ${plural(calendar.blocked.length, "blocked day")}${w ? ` from ${w.from} to ${w.to}` : ""}${calendar.malformed ? `; ${plural(calendar.malformed.length, "stored entry", "stored entries")} that are no date` : ""}`,
      };
    },
  },
  {
    name: "export_account",
    title: "Export the account",
    description:
      'The whole account as one document {extras: [...], vehicles: [...]}, as an account file holds it; "names": true gives catalog values as names (portable between accounts). Edit it and pass it (or a fragment) to plan_changes as "document". Example: {"names": true}.',
    input: (z) => ({ names: z.boolean().default(false) }),
    output: (z) => ({
      account: z.object({
        extras: z.array(z.record(z.string(), z.unknown())),
        vehicles: z.array(z.record(z.string(), z.unknown())),
      }),
    }),
    annotations: READ,
    run: async ({ deps }, args) => {
      const t = toolDeps(deps);
      const account = await accountDocument(t.deps, { names: args.names });
      return {
        data: { account },
        summary: withNotes(
          `${plural(account.extras.length, "extra")}, ${plural(account.vehicles.length, "vehicle")}`,
          t.notes(),
        ),
      };
    },
  },
  {
    name: "undo_history",
    title: "Undo history",
    description:
      'The recent writes that can be undone (newest first): op, time, action, id (null for an apply or an import), what it did, user_id (the owner). Only the server\'s target and owner\'s unless "all_owners": true. Pass an op to the undo tool (offered when the server allows writes). Example: {"limit": 10}.',
    input: (z) => ({
      limit: z.int().min(1).max(200).default(20),
      all_owners: z.boolean().default(false).describe("List every target's and owner's ops, not only this server's"),
    }),
    output: (z) => ({
      entries: z.array(
        z.object({
          op: z.string(),
          time: z.string(),
          action: z.string(),
          // null for a batch (an apply, an import): its rows are counted under what
          id: z.int().nullable(),
          what: z.string(),
          env: z.string(),
          user_id: z.int().nullable(),
          undone: z.string().nullable(),
        }),
      ),
    }),
    annotations: READ,
    run: async ({ deps }, args) => {
      const entries = await undoHistory(deps, { limit: args.limit, allOwners: args.all_owners });
      return { data: { entries }, summary: plural(entries.length, "undo entry", "undo entries") };
    },
  },
  {
    name: "plan_changes",
    title: "Plan a change (nothing is sent)",
    description: `Plan a change and return it for review, with a plan token that apply_plan takes (single use, expires). Nothing is sent. Give ONE of:
- "where" (or "ids") with "changes": field changes for the selected vehicles, relative values allowed ("clamp": true rounds fractions). Example: {"where": ["class=SUV", "pickup_location~Munich"], "changes": {"price_per_day": "+10%"}, "clamp": true}
- "where" (or "ids") with "calendar": {"block": ["2026-12-24..2026-12-26"], "unblock": [...]}: availability days.
- "document": an account document or fragment, as export_account returns ({extras, vehicles}; vehicles matched by registration number; fields left out are kept; "exact": true clears them instead). "prune": true also removes what the document does not list.
The result: counts, a markdown summary for the person to review, the plan, and the token. Show the markdown to the person before applying.`,
    input: (z) => ({
      where: whereSchema(z).optional(),
      ids: z
        .array(handleSchema(z, "vehicle"))
        .optional()
        .describe("Vehicles by id or registration number (instead of where)"),
      changes: changesSchema(z).optional(),
      calendar: z
        .strictObject({
          block: z
            .array(z.string())
            .optional()
            .describe("Days or ranges to block: 2026-12-24, 2026-12-24..2026-12-26, 2026-12"),
          unblock: z.array(z.string()).optional().describe("Days or ranges to make available again"),
        })
        .optional(),
      document: z
        .union([z.record(z.string(), z.unknown()), z.array(z.unknown())])
        .optional()
        .describe(
          "An account document {extras: [...], vehicles: [...]} or a list of vehicle rows (as export_account gives them)",
        ),
      prune: z.boolean().default(false).describe("With document: remove vehicles and delete extras it does not list"),
      exact: z
        .boolean()
        .default(false)
        .describe("With document: a vehicle field a row leaves out must be empty (the plan clears it)"),
      clamp: z
        .boolean()
        .default(false)
        .describe(
          "With relative changes: round a result that is not a whole number half up (45 +10% = 49.5 → 50) and set one outside the field's range to its bound; without it such a change is refused",
        ),
    }),
    output: (z) => ({
      changes: z.int().describe("Changes the plan holds (0: the account already matches)"),
      counts: countsSchema(z),
      markdown: z.string().describe("The plan for the person to review"),
      plan: z.record(z.string(), z.unknown()).optional(),
      token: z.string().optional().describe("For apply_plan"),
      expires_at: z.string().optional(),
      max_changes: z.int().optional(),
      plan_file: z.string().optional().describe("The plan saved in the data dir, for the person to apply"),
      apply_with: z.string().optional().describe("The command a person runs to apply the saved plan"),
      refused: z.string().optional().describe("Why apply_plan will refuse this plan"),
    }),
    annotations: READ,
    run: (ctx, args) => planChanges(ctx, args),
  },
  {
    name: "apply_plan",
    title: "Apply a reviewed plan",
    description:
      'Apply exactly the plan of a token from plan_changes, after the person reviewed its markdown. Refused with nothing sent when the token is unknown, used, expired, for another owner, above the server\'s maximum of changes, or stale (a record it read changed since). Runs locked and recorded in the undo history; returns the counts and the undo op. May remove vehicles or delete extras when the plan says so. Example: {"token": "rp_1001_…"}.',
    input: (z) => ({ token: z.string().describe("The plan token of plan_changes") }),
    output: (z) => ({
      applied: z.boolean(),
      counts: countsSchema(z),
      undo_op: z.string().optional().describe("Pass to the undo tool to revert the whole apply"),
    }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    writes: true,
    run: (ctx, args) => applyPlan(ctx, args),
  },
  {
    name: "undo",
    title: "Undo one write",
    description:
      'Undo one op of the undo history (an apply is undone as a whole, exactly: a vehicle changed since is left alone and named). Example: {"op": "12"}.',
    input: (z) => ({ op: z.string().min(1).describe("An op of undo_history (or apply_plan's undo_op)") }),
    output: (z) => ({
      op: z.string(),
      undone: z.boolean(),
      kind: z
        .enum(["restored", "recreated", "removed", "switched", "many", "apply"])
        .describe("What the op was undone by"),
      recreated: z
        .array(z.object({ kind: z.enum(["vehicle", "extra"]), from: z.int(), to: z.int() }))
        .describe("Records created again under new ids (the server assigns new ids): old id -> new id"),
    }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    writes: true,
    run: async (ctx, args) => {
      await writesAllowed(ctx);
      const op: string = args.op;
      // the undo op (src/ops/undo), its notes kept for the summary: the answer is what it did
      const t = toolDeps(ctx.deps);
      const r = await undo(t.deps, { op }, { hints: TOOL_UNDO_HINTS });
      return {
        data: { op, undone: r.undone, kind: r.kind, recreated: r.recreated },
        summary: withNotes(undoneLine(r) ?? `op ${op} undone`, t.notes()),
      };
    },
  },
  // lint_account: the findings of `rentctl lint` on the live account (read-only: lint never writes)
  {
    name: "lint_account",
    title: "Lint the account's listings",
    description:
      'Problems in the owner\'s listings before customers see them: contract errors (what the marketplace refuses), consistency warnings (prices rising for longer rentals, deposit mismatches, duplicate VINs or registrations, ages, future years, past or fully blocked calendars) and quality infos (no images, short or copied descriptions, unused or free extras). Each finding: rule, severity, vehicle_id, registration, model, field, message. Example: {"min_severity": "warning"}.',
    input: (z) => ({
      min_severity: z.enum(["info", "warning", "error"]).default("info").describe("Only findings at least this severe"),
      rules: z.array(z.string()).optional().describe("Only these rule ids (default: all)"),
    }),
    output: (z) => ({
      findings: z.array(
        z.object({
          rule: z.string(),
          severity: z.enum(["info", "warning", "error"]),
          category: z.string(),
          vehicle_id: z.int().optional(),
          registration: z.string().optional(),
          model: z.string().optional(),
          row: z.int().optional(),
          extra_id: z.int().optional(),
          extra: z.string().optional(),
          field: z.string().optional(),
          message: z.string(),
          line: z.int().optional(),
          column: z.int().optional(),
          fix: z.object({ field: z.string(), value: z.unknown(), country: z.unknown().optional() }).optional(),
        }),
      ),
      counts: z.object({ error: z.int(), warning: z.int(), info: z.int() }),
      vehicles: z.int(),
      extras: z.int(),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: async ({ deps }, args: { min_severity: "info" | "warning" | "error"; rules?: string[] }) => {
      for (const id of args.rules ?? [])
        if (!RULE_IDS.includes(id)) {
          const near = nearest(id, RULE_IDS);
          throw new UsageError(
            `rules: unknown rule ${JSON.stringify(id)}${near.length ? ` (did you mean ${near.join(", ")}?)` : ""}`,
          );
        }
      const result = await lintAccount(deps, {});
      const findings = result.findings.filter(
        (f) =>
          severityRank(f.severity) >= severityRank(args.min_severity) && (!args.rules || args.rules.includes(f.rule)),
      );
      const c = result.counts;
      return {
        data: { findings, counts: c, vehicles: result.vehicles, extras: result.extras },
        summary: `${c.error} errors, ${c.warning} warnings, ${c.info} infos in ${result.vehicles} vehicles and ${result.extras} extras${findings.length !== result.findings.length ? ` (${findings.length} shown)` : ""}`,
      };
    },
  },
];

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

async function writesAllowed(ctx: ToolContext): Promise<void> {
  if (ctx.writes === "none")
    throw new UsageError("writes are off: start the server with --allow-writes to apply plans; nothing was sent");
  if (ctx.writes === "sandbox" && (await ctx.target()).env !== "sandbox")
    throw new UsageError("--allow-writes=sandbox: writes go to the sandbox only; nothing was sent");
}

async function planChanges(ctx: ToolContext, args: Record<string, unknown>): Promise<ToolResult> {
  const deps = ctx.deps;
  const where = (args.where ?? []) as string[];
  // ids or registration numbers: the selection resolves them (src/ops/handles.ts)
  const ids = ((args.ids ?? []) as Array<number | string>).map(String);
  const forms = [args.document !== undefined, args.changes !== undefined, args.calendar !== undefined].filter(Boolean);
  if (forms.length !== 1)
    throw new UsageError('give one of "document", "changes" (with where or ids) or "calendar" (with where or ids)');
  const document: unknown = args.document;
  const prune = Boolean(args.prune);
  if (args.document === undefined) {
    if (!where.length && !ids.length)
      throw new UsageError('"changes" and "calendar" need "where" or "ids" to select vehicles');
    if (prune) throw new UsageError('"prune" goes with "document" only');
    if (args.exact) throw new UsageError('"exact" goes with "document" only');
    const t = toolDeps(deps).deps;
    const selection = { where, ids: ids.length ? await vehicleIds(t, ids) : [], terms: TOOL_TERMS };
    let plan: Plan;
    if (args.changes !== undefined) {
      const changes = args.changes;
      if (typeof changes !== "object" || changes === null || Array.isArray(changes))
        throw new UsageError('"changes": an object of field: value');
      const values: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(changes)) values[requireField(k, "changes", undefined, TOOL_TERMS).name] = v;
      // every value of "changes" may be relative (a field flag's, on the CLI)
      plan = (await planEditMany(t, { selection, values, relativeFields: "all", clamp: Boolean(args.clamp) })).plan;
    } else {
      const cal = args.calendar as { block?: string[]; unblock?: string[] };
      plan = await planCalendarEdit(t, { selection, block: cal.block ?? [], unblock: cal.unblock ?? [] });
    }
    if (plan.change.length + plan.unchanged === 0)
      throw new UsageError("no vehicle matches the selection: nothing to plan", {
        details: [
          ...where.map((w) => ({ field: "where", message: w })),
          ...ids.map((i) => ({ field: "ids", message: i })),
        ],
      });
    // the plan of many vehicles itself, by id (two vehicles may share a registration number), saved
    // and applied as `vehicle edit --where` applies it (src/ops/vehicle/edit-plan.ts)
    const intent = {
      where,
      ids: selection.ids,
      ...(args.changes !== undefined ? { changes: args.changes, clamp: Boolean(args.clamp) } : {}),
      ...(args.calendar !== undefined ? { calendar: args.calendar } : {}),
    };
    const { saved, view } = await saveEditPlan(t, plan, { intent, label: "plan_changes.json" });
    return planned(ctx, saved, accountPlanMarkdown(view));
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
  // the one "plan a document and save the plan" (src/ops/account/plan.ts), as `account diff --out` makes it
  const made = await planAccountDocument(
    toolDeps(deps).deps,
    {
      source: { document: withoutNames(document), label: "plan_changes.json", baseDir: process.cwd() },
      prune,
      exact: Boolean(args.exact),
    },
    { save: true },
  );
  return planned(ctx, made.saved!, accountPlanMarkdown(made.plan));
}

/** plan_changes' answer: a plan made and saved, its counts, token and the file a person applies. */
async function planned(ctx: ToolContext, saved: SavedPlan, markdown: string): Promise<ToolResult> {
  const deps = ctx.deps;
  const counts = planCounts(saved.plan);
  const n = total(counts);
  if (n === 0)
    return { data: { changes: 0, counts, markdown }, summary: "nothing to change: the account already matches" };
  const issued = ctx.tokens.issue(saved);
  const over = n > ctx.maxChanges;
  // The person can apply exactly this plan with the CLI (a read-only server, or over --max-changes).
  const planFile = await savePlanFile(deps, saved, issued.token);
  const applyWith = ["rentctl", ...targetFlags(deps), "account", "apply", "--plan", planFile].join(" ");
  return {
    data: {
      changes: n,
      counts,
      markdown,
      plan: reviewedPlan(saved),
      token: issued.token,
      expires_at: issued.expiresAt,
      max_changes: ctx.maxChanges,
      plan_file: planFile,
      apply_with: applyWith,
      ...(over ? { refused: `the plan has ${n} changes, over this server's --max-changes ${ctx.maxChanges}` } : {}),
    },
    summary: `${n} change${n === 1 ? "" : "s"} planned (token ${issued.token}, expires ${issued.expiresAt})${over ? `; over --max-changes ${ctx.maxChanges}: apply_plan will refuse it` : ""}${ctx.writes === "none" ? `; this server is read-only: the person applies it with \`${applyWith}\`` : ""}\n\n${markdown}`,
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
  const dir = join(deps.paths.dataDir, "plans");
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, `${token.slice(0, 28)}.json`);
  await writeFileAtomic(file, `${JSON.stringify(saved, null, 2)}\n`);
  return file;
}

async function applyPlan(ctx: ToolContext, args: Record<string, unknown>): Promise<ToolResult> {
  await writesAllowed(ctx);
  const token = String(args.token);
  const saved = ctx.tokens.take(token, await ctx.target());
  const counts = planCounts(saved.plan);
  const n = total(counts);
  if (n > ctx.maxChanges)
    throw new UsageError(
      `the plan has ${n} changes, over this server's --max-changes ${ctx.maxChanges}; nothing was sent`,
      { hint: "plan the change in smaller parts, or let the person apply the plan_file plan_changes gave" },
    );
  const t = toolDeps(ctx.deps).deps;
  // a plan of many vehicles runs as `vehicle edit --where` runs it; a document's as `account apply --plan`
  const result =
    saved.kind === "edit"
      ? await applySavedEditPlan(t, saved, { concurrency: 4 })
      : await applySavedAccountPlan(t, saved, {
          concurrency: 4,
          started: Date.now(),
        });
  const done = Object.entries(result.counts)
    .map(([k, v]) => `${v} ${k}`)
    .join(", ");
  return {
    data: { applied: true, counts: result.counts, ...(result.undoOp ? { undo_op: result.undoOp } : {}) },
    summary: `applied: ${done || "nothing to do"}${result.undoOp ? `; undo with the undo tool, op ${result.undoOp}` : ""}`,
  };
}

/**
 * The target this server acts on, as flags (`--profile p`, or `--env sandbox --user 1001`), so the
 * command a person pastes applies the plan where it was made, whatever their shell's environment says.
 */
function targetFlags(deps: Deps): string[] {
  const s = deps.settings();
  if (s.profileName && s.sources.profile !== "default") return ["--profile", s.profileName];
  const out: string[] = [];
  if (s.env) out.push("--env", s.env);
  if (s.baseUrl && s.sources.baseUrl !== "profile" && s.sources.baseUrl !== "sandbox")
    out.push("--base-url", s.baseUrl);
  if (s.userId !== undefined) out.push("--user", String(s.userId));
  return out;
}
