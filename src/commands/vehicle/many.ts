import { createHash } from "node:crypto";
import { readFile, rm } from "node:fs/promises";
import type { BulkRow } from "../../bulk/runner.js";
import type { JsonObject } from "../../contract/records.js";
import type { WireRecord } from "../../contract/validate.js";
import { VEHICLE_FIELDS } from "../../contract/vehicle-fields.js";
import type { Deps } from "../../deps.js";
import { requireUser } from "../../deps.js";
import { ConflictError, UsageError } from "../../errors.js";
import type { Plan } from "../../fleet/plan.js";
import type { UndoScope } from "../../gateway/undo.js";
import { writeFileAtomic } from "../../temp-files.js";
import { confirmDestructive } from "../confirm.js";
import { gatherInput, type InputSources, resolveNamedRefs } from "../input.js";
import { isSelection, type SelectOptions, selectedVehicles } from "./select.js";

/**
 * Edit, (de)activate and remove over several ids or a `--where` selection,
 * and edits with relative values (`+10%`) even on one id: each plans over the
 * selected vehicles, prints the plan, confirms, and runs on the bulk engine
 * (runBulkChange below).
 */

export interface ManyOptions extends SelectOptions {
  concurrency?: number;
  report?: string;
  restart?: boolean;
  /** --clamp: a relative result outside its field's range is set to the bound (said per vehicle), not refused. */
  clamp?: boolean;
}

const bulkOpts = (verb: string, opts: ManyOptions, intent: unknown): BulkChangeOptions => ({
  verb,
  intent: { verb, ids: opts.ids ?? [], where: opts.where ?? [], all: Boolean(opts.all), ...((intent as object) ?? {}) },
  concurrency: opts.concurrency,
  report: opts.report,
  restart: opts.restart,
  confirm: isSelection(opts),
});

export type EditOptions = ManyOptions & InputSources & { add?: string[]; remove?: string[]; allowDuplicate?: boolean };

/** `vehicle edit ID... | --where EXPR` with absolute and relative values, and list members added / removed. */
export async function edit(deps: Deps, opts: EditOptions): Promise<void> {
  const { plan, intent } = await planSelectionEdit(deps, opts);
  await runBulkChange(deps, plan, bulkOpts("edit", opts, intent));
}

/**
 * The plan of an edit of many vehicles (what `vehicle edit --where` runs, and what `rentctl mcp`'s
 * plan_changes reviews): the selection read, each value checked, relative values applied.
 */
export async function planSelectionEdit(deps: Deps, opts: EditOptions): Promise<{ plan: Plan; intent: object }> {
  const values = await gatherInput(deps, VEHICLE_FIELDS, opts, { noun: "edit" });
  delete values.user_id;
  delete values.locale_id;
  const { parseMemberEdits, applyMemberEdits } = await import("../../fleet/members.js");
  const members = parseMemberEdits(opts.add, opts.remove);
  for (const name of [...members.add.keys(), ...members.remove.keys()])
    if (name in values) throw new UsageError(`${name}: given whole and by --add/--remove; say one (nothing was sent)`);
  const memberIds = await resolveMembers(deps, members);
  if (Object.keys(values).length === 0 && memberIds.add.size + memberIds.remove.size === 0) {
    throw new UsageError("nothing to change: give field flags, --set FIELD=VALUE or --from-file", {
      hint: "example: rentctl vehicle edit --where segment=cars --price-per-day +10%",
    });
  }
  const { splitRelative, applyRelativeChecked, describeMiss } = await import("../../fleet/relative.js");
  // Only the field flags take relative values; --set and --from-file are absolute.
  const byFlag = new Set(Object.entries(opts.flags ?? {}).flatMap(([k, v]) => (v === undefined ? [] : [k])));
  const { absolute, relative } = splitRelative(values, VEHICLE_FIELDS, byFlag);
  await resolveNamedRefs(deps, VEHICLE_FIELDS, absolute);
  const { validateRecord } = await import("../../contract/validate.js");
  const { record, problems } = validateRecord(absolute, VEHICLE_FIELDS, { requireRequired: false, allowUnknown: true });
  if (problems.length) {
    const { problemsError } = await import("../../resources/safe-edit.js");
    throw problemsError(problems, "edit");
  }
  // Cleared fields stay cleared (validateRecord drops empty values).
  for (const [k, v] of Object.entries(absolute)) if (v === "" || (Array.isArray(v) && v.length === 0)) record[k] = v;
  const records = await selectedVehicles(deps, opts);
  if (!opts.allowDuplicate && record.vehicle_reg_number !== undefined) {
    const { refuseTakenRegistration } = await import("../../ops/vehicle/registration.js");
    await refuseTakenRegistration(
      deps,
      record,
      records.map((r) => Number(r.id ?? r.vehicle_id)),
    );
  }
  const { planEdit } = await import("../../fleet/plan.js");
  // A relative result outside its field's range is never clamped silently: refused (nothing sent), or --clamp.
  const refused: Array<{ field: string; message: string }> = [];
  const plan = planEdit(records, (input, rec) => {
    const { values: changed, misses } = applyRelativeChecked(relative, input, { clamp: opts.clamp });
    const who = `vehicle ${rec.id ?? rec.vehicle_id}${rec.vehicle_reg_number ? ` (${String(rec.vehicle_reg_number).trim()})` : ""}`;
    // a relative change of a field without a value has nothing to change: said, not silently skipped
    for (const [field, edit] of relative)
      if (changed[field] === undefined)
        deps.msg.warn(
          `${who}: ${field} has no value, so ${edit.text} changes nothing (give an absolute value to set it)`,
        );
    for (const m of misses)
      if (opts.clamp)
        deps.msg.warn(
          `${who}: ${describeMiss(m)}: ${m.exact !== undefined ? "rounded" : "clamped"} to ${m.clamped} (--clamp)`,
        );
      else refused.push({ field: who, message: describeMiss(m) });
    return { ...record, ...changed, ...applyMemberEdits(memberIds, input) };
  });
  if (refused.length)
    throw new UsageError(
      `${refused.length} relative change${refused.length === 1 ? "" : "s"} would give no valid value (outside the field's range, or not a whole number); nothing was sent`,
      {
        details: refused.slice(0, 20),
        hint: "change the value, narrow the selection, or pass --clamp to round fractions half up and set values outside the range to its bound",
      },
    );
  const intent = { values, clamp: opts.clamp, add: opts.add ?? [], remove: opts.remove ?? [] };
  return { plan, intent };
}

/** The members of --add / --remove as ids: names resolved through the catalogs, as every catalog value is. */
async function resolveMembers(
  deps: Deps,
  members: { add: Map<string, unknown[]>; remove: Map<string, unknown[]> },
): Promise<{ add: Map<string, number[]>; remove: Map<string, number[]> }> {
  const resolve = async (m: Map<string, unknown[]>) => {
    const record: Record<string, unknown> = Object.fromEntries(m);
    await resolveNamedRefs(deps, VEHICLE_FIELDS, record);
    const out = new Map<string, number[]>();
    for (const [name, given] of m) {
      const ids = (record[name] as unknown[]).map(Number);
      const bad = ids.findIndex((n) => !Number.isInteger(n) || n < 1);
      if (bad >= 0)
        throw new UsageError(`${name} ${JSON.stringify(given[bad])}: not an id or a known name (nothing was sent)`);
      out.set(name, ids);
    }
    return out;
  };
  return { add: await resolve(members.add), remove: await resolve(members.remove) };
}

/** `vehicle activate|deactivate ID... | --where EXPR`. */
export async function setActivity(deps: Deps, active: boolean, opts: ManyOptions): Promise<void> {
  const records = await selectedVehicles(deps, opts);
  const { planEdit } = await import("../../fleet/plan.js");
  const plan = planEdit(records, () => ({ vehicle_activity: active ? 1 : 0 }));
  await runBulkChange(deps, plan, bulkOpts(active ? "activate" : "deactivate", opts, {}));
}

/** `vehicle remove --where EXPR`. */
export async function remove(deps: Deps, opts: ManyOptions): Promise<void> {
  const records = await selectedVehicles(deps, opts);
  const plan: Plan = {
    create: [],
    change: [],
    remove: records.map((r) => ({
      vehicle_id: Number(r.id),
      reg: String(r.vehicle_reg_number ?? "").trim(),
      record: r,
    })),
    unchanged: 0,
    unchangedList: [],
  };
  await runBulkChange(deps, plan, { ...bulkOpts("remove", opts, {}), confirm: true });
}

/**
 * Changes to many vehicles (edit / activate / deactivate / remove / calendar
 * over ids or a `--where` selection), on the bulk engine:
 *
 * 1. The plan is printed first (the same printer as `vehicle diff`: one line
 *    per vehicle, field old → new): on stdout for `--dry-run` (then nothing
 *    is sent), else on stderr.
 * 2. A terminal asks, naming the number of vehicles; without one `--yes` is
 *    needed (exit 2, nothing sent).
 * 3. One undo-journal entry holds every vehicle's previous record, so one
 *    `rentctl undo OP` restores them all.
 * 4. Each vehicle is re-read before its write; a record that moved since the
 *    plan is not overwritten (reported as a conflict, exit 7).
 * 5. Crash safety: the job is keyed by the command's intent (selection and
 *    change as written); the plan of the first run is saved beside the bulk
 *    journal, and a rerun after any interruption continues THAT plan: done
 *    vehicles are skipped, in-flight ones reconciled by re-reading (already
 *    equal to the planned record: done; still the old record: sent; else a
 *    conflict). So a relative change (+10%) is applied exactly once in
 *    effect, however often the command is killed and rerun.
 */

export interface BulkChangeOptions {
  /** What the job does, for the journal key and messages: `edit`, `remove`, `calendar`, ... */
  verb: string;
  /** The command's intent as written (selection + change), hashed into the journal key. */
  intent: unknown;
  concurrency?: number;
  report?: string;
  restart?: boolean;
  /** Ask (TTY) or require --yes: always for a selection or several vehicles; a single named vehicle need not. */
  confirm?: boolean;
}

interface SavedPlan {
  change: Array<{ vehicle_id: number; reg: string; before: WireRecord; after: WireRecord }>;
  remove: Array<{ vehicle_id: number; reg: string; record: JsonObject }>;
  /** The undo entry recorded with the plan (every vehicle's previous record). */
  undo?: string;
}

export async function runBulkChange(deps: Deps, plan: Plan, opts: BulkChangeOptions): Promise<void> {
  const { planLines, planSummary } = await import("../../fleet/plan-print.js");
  const count = plan.change.length + plan.remove.length;
  const dry = Boolean(deps.flags.dryRun);
  const target = await deps.target();
  const owner = await requireUser(deps);
  // The plan: the result of a dry run (stdout), a preview otherwise (stderr).
  const planOut = dry ? deps.io.stdout : deps.io.stderr;
  const c = dry ? deps.outColor : deps.color;
  if (deps.settings().output === "json" && dry) {
    const { planJson } = await import("../../fleet/plan-print.js");
    await deps.out.record(planJson(plan));
  } else if (!deps.flags.quiet || dry) {
    for (const line of planLines(plan, { color: c, verbose: Boolean(deps.flags.verbose) })) planOut.write(`${line}\n`);
  }
  if (dry) {
    deps.msg.info(
      c.dim(
        `dry run: would ${opts.verb === "calendar" ? "change the calendar of" : opts.verb} ${count} vehicle${count === 1 ? "" : "s"} on ${target.env} as owner ${owner}; nothing was sent`,
      ),
    );
    return;
  }
  if (count === 0) {
    deps.msg.info(`nothing to ${opts.verb}: ${planSummary(plan)}`);
    return;
  }
  const [{ openBulkJob }, gateway, { DEFAULT_CONCURRENCY }] = await Promise.all([
    import("../../bulk/job.js"),
    import("../../gateway/index.js"),
    import("./concurrency.js"),
  ]);
  const concurrency = opts.concurrency ?? DEFAULT_CONCURRENCY;
  const job = await openBulkJob(deps, {
    job: `vehicle.${opts.verb}`,
    contentHash: createHash("sha256").update(JSON.stringify(opts.intent)).digest("hex"),
    restart: opts.restart,
    what: `${opts.verb} of many vehicles: it continues its own plan`,
    afresh: "plan afresh",
    report: opts.report,
  });
  try {
    // The plan of the run that started this job: a rerun continues it rather than planning anew.
    const planFile = `${job.log.file}.plan.json`;
    let saved: SavedPlan | undefined = job.resumed
      ? await readFile(planFile, "utf8")
          .then((t) => JSON.parse(t) as SavedPlan)
          .catch(() => undefined)
      : undefined;
    if (!saved) {
      if (opts.confirm !== false || count > 1)
        await confirmDestructive(
          deps,
          `${opts.verb === "remove" ? "Remove" : "Change"} ${count} vehicle${count === 1 ? "" : "s"} on ${target.env}?`,
          `${opts.verb === "calendar" ? "change the calendar of" : opts.verb} ${count} vehicle${count === 1 ? "" : "s"}`,
        );
      // One undo entry for the whole change, recorded before any vehicle is sent: `rentctl undo OP` restores every vehicle.
      const items = [
        ...plan.change.map((ch) => ({ id: ch.vehicle_id, before: ch.record })),
        ...plan.remove.map((r) => ({ id: r.vehicle_id, before: r.record })),
      ];
      const undoOp = await gateway.recordPlan(deps, plan.remove.length ? "vehicle.remove" : "vehicle.edit", items);
      saved = {
        change: plan.change.map((ch) => ({
          vehicle_id: ch.vehicle_id,
          reg: ch.reg,
          before: ch.before,
          after: ch.after,
        })),
        remove: plan.remove.map((r) => ({ vehicle_id: r.vehicle_id, reg: r.reg, record: r.record })),
        ...(undoOp ? { undo: undoOp } : {}),
      };
      await writeFileAtomic(planFile, JSON.stringify(saved));
    }
    const undo: UndoScope = saved.undo ? { kind: "planned", op: saved.undo } : gateway.OWN_ENTRY;
    const plannedChange = saved.change;
    const plannedRemove = saved.remove;
    type Item = { kind: "change"; c: SavedPlan["change"][number] } | { kind: "remove"; r: SavedPlan["remove"][number] };
    async function* rows(): AsyncGenerator<BulkRow<Item>> {
      for (const ch of plannedChange)
        yield { row: ch.vehicle_id, key: ch.reg || String(ch.vehicle_id), item: { kind: "change", c: ch } };
      for (const r of plannedRemove)
        yield { row: r.vehicle_id, key: r.reg || String(r.vehicle_id), item: { kind: "remove", r } };
    }
    const conflict = (id: number) =>
      new ConflictError(`vehicle ${id} changed since the plan was made; it was not overwritten`, {
        hint: "run the command again (or `vehicle diff`) to plan from the new values",
      });
    const total = plannedChange.length + plannedRemove.length;
    await job.run<Item>({
      rows: rows(),
      total,
      concurrency,
      label: opts.verb,
      acting: `${opts.verb === "remove" ? "removing" : "changing"} ${total} vehicle${total === 1 ? "" : "s"}`,
      order: ["changed", "removed", "failed"],
      // The undo hint after the work it undoes (and only when some was done).
      after: (summary) => {
        const done = (summary.counts.get("changed") ?? 0) + (summary.counts.get("removed") ?? 0);
        if (saved?.undo && done)
          deps.msg.info(deps.color.dim(`undo ${done === 1 ? "it" : `all ${done}`} with: rentctl undo ${saved.undo}`));
      },
      quietIds: ["changed", "removed"],
      report: opts.report,
      // In flight when the last run stopped: done if the vehicle holds the planned record (or is gone, for a removal).
      reconcile: async (row) => {
        const now = await gateway.currentVehicle(deps, row.row);
        if (row.item.kind === "remove") return now === undefined ? { status: "removed", id: row.row } : undefined;
        if (now && gateway.movedFields(now.input, row.item.c.after).length === 0)
          return { status: "changed", id: row.row };
        return undefined; // still the old record (sent again), or moved (the send reports the conflict)
      },
      send: async (row, ctx) => {
        const w = { undo, beforeWrite: ctx.beforeWrite, signal: ctx.signal };
        if (row.item.kind === "remove") {
          await gateway.removePlanned(deps, row.row, {}, w);
          return { status: "removed", id: row.row };
        }
        const { before, after } = row.item.c;
        const r = await gateway.replacePlanned(deps, row.row, { before, after, check: "as-planned" }, w);
        if (r.status === "conflict") throw conflict(row.row);
        return { status: "changed", id: row.row };
      },
    });
    await rm(planFile, { force: true });
  } finally {
    await job.close();
  }
}
