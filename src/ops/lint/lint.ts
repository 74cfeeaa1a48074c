import { access } from "node:fs/promises";
import { fsReason, InputError } from "../../base/errors.js";
import { itemId, itemNames } from "../../catalog/items.js";
import { modelLabel } from "../../catalog/model-index.js";
import { type JsonObject, recordId } from "../../contract/records.js";
import type { Problem } from "../../contract/validate.js";
import { catalogPort } from "../../files/adapters.js";
import { mapRow } from "../../files/fields.js";
import type { FleetFormat } from "../../files/format.js";
import { readRows } from "../../files/read.js";
import { createNameResolver, resolveRowNames } from "../../files/resolver.js";
import { catalogValue, extraKey, extraState, OPTION_CATALOG, readExtraRows } from "../../plans/account-extras.js";
import { readAccountDocument } from "../../plans/account-file.js";
import { extraLabeller } from "../../plans/account-plan.js";
import { isoDay } from "../../plans/calendar.js";
import { listExtras, listVehicles } from "../../resources/list.js";
import type { OpContext, OpOptions } from "../context.js";
import { type LintConfig, loadConfig } from "./config.js";
import { positionsOf } from "./positions.js";
import {
  type Category,
  defaultSettings,
  type LintData,
  type LintExtra,
  type LintVehicle,
  type RawFinding,
  RULE_BY_ID,
  type RuleRun,
  type Severity,
  severityRank,
  startRules,
  type VehicleRef,
} from "./rules.js";

/**
 * `lint`: the account's listings checked against the rules of ./rules.ts.
 * The input is the live account (the vehicle and extra listings) or an
 * account / fleet file (its readers; catalogs are read to resolve names,
 * nothing is written). Returns the findings; the front ends render them.
 */

export interface LintInput {
  /** An account or fleet file; absent: the live account. */
  file?: { path: string; format: FleetFormat; label?: string };
  /** The rules' settings (default: every rule at its default severity). */
  config?: LintConfig;
}

export interface Finding {
  rule: string;
  severity: Severity;
  category: Category;
  /** The vehicle's id (live account, or a file's vehicle_id) */
  vehicle_id?: number;
  registration?: string;
  /** `Toyota Corolla (1.8 Hybrid)`, when the catalogs name it. */
  model?: string;
  /** 1-based row of the vehicle (or extra) in the file. */
  row?: number;
  extra_id?: number;
  /** `Child seat (period 1)`. */
  extra?: string;
  field?: string;
  /** One line: the vehicle (registration and model) or extra, the field, what is wrong. */
  message: string;
  /** In a yaml or json file: where the field (else the vehicle) is written, 1-based. */
  line?: number;
  column?: number;
  /** The one safe change that repairs it (`lint --fix`). */
  fix?: { field: string; value: unknown; country?: unknown };
}

export interface LintResult {
  /** What was checked: `account` or the file's label. */
  source: string;
  /** The file checked (positions refer to it). */
  file?: { path: string; format: FleetFormat };
  vehicles: number;
  extras: number;
  findings: Finding[];
  counts: Record<Severity, number>;
}

/** The op's progress: what it is reading. */
export type LintProgress = { phase: "listing" | "reading" | "checking"; vehicles: number };

export async function lintAccount(
  ctx: OpContext,
  input: LintInput,
  opts: OpOptions<LintProgress> = {},
): Promise<LintResult> {
  const config = input.config ?? (await loadConfig({}));
  const base = { years: await years(ctx), today: isoDay(new Date(ctx.now())) };
  const checked = input.file
    ? await readFile(ctx, input.file, base, config)
    : await readLive(ctx, startRules({ ...base, imagesKnown: true }, config.rules), opts);
  opts.signal?.throwIfAborted();
  opts.onProgress?.({ phase: "checking", vehicles: checked.vehicles.length });
  const raw = checked.findings;
  const models = await modelNames(ctx, checked.vehicles, raw);
  const locate = input.file && raw.length ? await locator(input.file) : undefined;
  const findings = raw.map((f) => named(f, checked, config, models, locate));
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const f of findings) counts[f.severity]++;
  return {
    source: input.file ? (input.file.label ?? input.file.path) : "account",
    file: input.file && { path: input.file.path, format: input.file.format },
    vehicles: checked.vehicles.length,
    extras: checked.extras?.length ?? 0,
    findings,
    counts,
  };
}

/** Does any finding reach `level`? (the exit code of `--fail-on`) */
export function reaches(result: LintResult, level: Severity): boolean {
  return result.findings.some((f) => severityRank(f.severity) >= severityRank(level));
}

/** What the rules found, and the vehicles and extras their findings point at. */
interface Checked {
  findings: RawFinding[];
  vehicles: readonly VehicleRef[];
  extras?: readonly LintExtra[];
}

async function readLive(ctx: OpContext, run: RuleRun, opts: OpOptions<LintProgress>): Promise<Checked> {
  const extraRecords = listExtras(ctx, { warn: (m) => ctx.msg.warn(m) });
  extraRecords.catch(() => {});
  // each page is checked as it arrives, and let go: memory holds the keys of the rules over several vehicles
  for await (const page of listVehicles(ctx, { warn: (m) => ctx.msg.warn(m) })) {
    opts.signal?.throwIfAborted();
    for (const record of page) run.add(liveVehicle(record, run.vehicles.length + 1));
    opts.onProgress?.({ phase: "listing", vehicles: run.vehicles.length });
  }
  const extras: LintExtra[] = [];
  const states = (await extraRecords).map(extraState);
  const named: NonNullable<(typeof states)[number]>[] = [];
  states.forEach((s, i) => {
    if (!s) return;
    named.push(s);
    extras.push({ row: i + 1, id: s.id, keys: [`id:${s.id}`], label: "", price: s.price });
  });
  const findings = run.finish(extras);
  // the labels (the option catalog) only when a finding names an extra: most runs have none
  if (findings.some((f) => f.extra !== undefined)) {
    const label = await extraLabels(ctx, named);
    named.forEach((s, i) => {
      extras[i]!.label = label(s.option_id, s.period);
    });
  }
  return { findings, vehicles: run.vehicles, extras };
}

function liveVehicle(record: JsonObject, row: number): LintVehicle {
  const ids = record.vehicle_extras;
  return {
    row,
    id: recordId(record, "vehicle"),
    values: record,
    extraKeys: Array.isArray(ids) ? ids.map((x) => `id:${x}`) : [],
  };
}

async function extraLabels(
  ctx: OpContext,
  states: Parameters<typeof extraLabeller>[1],
): Promise<(option: number, period: number) => string> {
  return extraLabeller(await catalogPort(ctx), states, new Map());
}

async function readFile(
  ctx: OpContext,
  file: NonNullable<LintInput["file"]>,
  base: Pick<LintData, "years" | "today">,
  config: LintConfig,
): Promise<Checked> {
  const label = file.label ?? file.path;
  // a file that cannot be read is one clear error (exit 2) through every front end, never Node's own
  await access(file.path).catch((e: unknown) => {
    throw new InputError(`cannot read ${label}: ${fsReason(e)}`);
  });
  const port = await catalogPort(ctx);
  const cache = new Map<string, Promise<JsonObject[]>>();
  const docProblems: Problem[] = [];
  const doc = await readAccountDocument(file.path, file.format, docProblems, label);
  const resolver = createNameResolver(port);
  const vehicles: LintVehicle[] = [];
  let imagesKnown = false;
  const rows = doc.streamed ? readRows(file.path, file.format, label) : doc.vehicles;
  const refs: Array<{ vehicle: LintVehicle; refs: NonNullable<ReturnType<typeof doc.refs.get>> }> = [];
  for await (const raw of rows) {
    const mapped = mapRow(raw.data);
    const readProblems = [...mapped.problems, ...(await resolveRowNames(resolver, mapped.values))];
    const given = raw.data.vehicle_id ?? raw.data.id;
    const ids = mapped.values.vehicle_extras;
    const v: LintVehicle = {
      row: raw.row,
      id: recordId(given, "vehicle"),
      values: mapped.values,
      readProblems,
      extraKeys: Array.isArray(ids) ? ids.map((x) => `id:${x}`) : [],
      imageFiles: mapped.images.length,
    };
    if (v.imageFiles || "vehicle_images" in mapped.values) imagesKnown = true;
    const r = doc.refs.get(raw.row);
    if (r?.length) refs.push({ vehicle: v, refs: r });
    vehicles.push(v);
  }
  // the references' problems (`row 3 (B-SC 1001) extras`) go to their row
  for (const p of docProblems) {
    const m = /^row (\d+)\b/.exec(p.field);
    const v = m ? vehicles.find((x) => x.row === Number(m[1])) : undefined;
    if (v) (v.readProblems as Problem[]).push({ field: "extras", message: p.message });
  }
  let extras: LintExtra[] | undefined;
  if (doc.extras) {
    const read = await readExtraRows(port, doc.extras, cache);
    const label = await extraLabels(ctx, []);
    extras = read.rows.map((e) => ({
      row: e.row,
      id: e.extra_id,
      keys: [extraKey(e.option_id, e.period), ...(e.extra_id ? [`id:${e.extra_id}`] : [])],
      label: label(e.option_id, e.period),
      price: e.price,
    }));
    for (const p of read.problems) {
      const m = /^extras row (\d+)(?: \([^)]*\))? (.*)$/.exec(p.field);
      const row = m ? Number(m[1]) : 0;
      let e = extras.find((x) => x.row === row);
      if (!e) {
        e = { row, keys: [], label: `extras row ${row}`, readProblems: [] };
        extras.push(e);
      }
      e.readProblems = [...(e.readProblems ?? []), { field: m?.[2] ?? p.field, message: p.message }];
    }
    extras.sort((a, b) => a.row - b.row);
    const byOption = new Map<number, string[]>();
    for (const e of read.rows) {
      const list = byOption.get(e.option_id) ?? [];
      list.push(extraKey(e.option_id, e.period));
      byOption.set(e.option_id, list);
    }
    for (const { vehicle, refs: list } of refs) {
      const keys = [...vehicle.extraKeys];
      for (const ref of list) {
        try {
          const option = await catalogValue(port, OPTION_CATALOG, "option", ref.option, cache);
          if (ref.period !== undefined) keys.push(extraKey(option, ref.period));
          else keys.push(...(byOption.get(option) ?? []));
        } catch {
          // an unknown option: the account plan reports it; here it references nothing
        }
      }
      vehicle.extraKeys = keys;
    }
  }
  const run = startRules({ ...base, imagesKnown }, config.rules);
  for (const v of vehicles) run.add(v);
  return { findings: run.finish(extras), vehicles: run.vehicles, extras };
}

/** Year-of-issue catalog: id -> year (empty when the catalog cannot be read: future-year then finds nothing). */
async function years(ctx: OpContext): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  try {
    for (const item of await ctx.catalogs().items("catalog.years_of_issue")) {
      const id = itemId(item);
      const year = Number(item.year ?? itemNames(item).find((n) => /^\d{4}$/.test(n)));
      if (id !== undefined && Number.isSafeInteger(year)) out.set(id, year);
    }
  } catch (e) {
    ctx.msg.warn(`years of issue not read (${(e as Error).message}): future-year checks nothing`);
  }
  return out;
}

/** Model names of the vehicles that have findings (one catalog walk per segment, cached on disk). */
async function modelNames(ctx: OpContext, vehicles: readonly VehicleRef[], raw: RawFinding[]) {
  const out = new Map<number, string>();
  const wanted = new Set<number>();
  for (const f of raw) if (f.vehicle !== undefined) wanted.add(f.vehicle);
  const bySegment = new Map<number, number[]>();
  for (const i of wanted) {
    const seg = Number(vehicles[i]!.segmentId ?? 1);
    const list = bySegment.get(seg) ?? [];
    list.push(i);
    bySegment.set(seg, list);
  }
  for (const [segment, list] of bySegment) {
    try {
      const entries = await ctx
        .catalogs()
        .models()
        .entries(Number.isSafeInteger(segment) ? segment : 1);
      // one label per configuration (many vehicles share one)
      const labels = new Map<number, string | undefined>();
      for (const i of list) {
        const id = Number(vehicles[i]!.modelId);
        if (!labels.has(id)) {
          const entry = entries.get(id);
          labels.set(id, entry && modelLabel(entry));
        }
        const label = labels.get(id);
        if (label) out.set(i, label);
      }
    } catch {
      // names only: the message names the registration
    }
  }
  return out;
}

type Locate = (
  section: "vehicles" | "extras",
  row: number,
  field?: string,
) => { line: number; column: number } | undefined;

async function locator(file: NonNullable<LintInput["file"]>): Promise<Locate | undefined> {
  return positionsOf(file.path, file.format);
}

function named(
  f: RawFinding,
  data: Checked,
  config: LintConfig,
  models: ReadonlyMap<number, string>,
  locate: Locate | undefined,
): Finding {
  const info = RULE_BY_ID.get(f.rule)!;
  const setting = config.rules.get(f.rule) ?? defaultSettings().get(f.rule)!;
  const out: Finding = { rule: f.rule, severity: setting.severity, category: info.category, message: "" };
  let subject: string;
  if (f.vehicle !== undefined) {
    const v = data.vehicles[f.vehicle]!;
    if (v.id !== undefined) out.vehicle_id = v.id;
    if (v.registration !== undefined) out.registration = v.registration;
    const model = models.get(f.vehicle);
    if (model) out.model = model;
    out.row = v.row;
    const name = out.registration?.trim() || (v.id !== undefined ? `vehicle ${v.id}` : `row ${v.row}`);
    subject = model ? `${name} (${model})` : name;
    const at = locate?.("vehicles", v.row, f.field);
    if (at) Object.assign(out, at);
    if (f.fix) {
      const country = v.country;
      out.fix = { ...f.fix, ...(country !== undefined && country !== null ? { country } : {}) };
    }
  } else {
    const e = data.extras![f.extra!]!;
    if (e.id !== undefined) out.extra_id = e.id;
    out.extra = e.label;
    out.row = e.row;
    subject = `extra ${e.label}`;
    const at = locate?.("extras", e.row, f.field);
    if (at) Object.assign(out, at);
  }
  if (f.field) out.field = f.field;
  out.message = `${subject}${f.field ? ` ${f.field}` : ""}: ${f.text}`;
  return out;
}
