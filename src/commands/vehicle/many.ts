import { describeRequest } from "../../api/dry-run.js";
import type { EncodableRecord } from "../../api/encode.js";
import { requireUser } from "../../config/target.js";
import type { JsonObject } from "../../contract/records.js";
import { VEHICLE_FIELDS } from "../../contract/vehicle-fields.js";
import type { Deps } from "../../deps.js";
import { applyVehiclePlan, planEditMany } from "../../ops/vehicle/edit-many.js";
import type { Plan, PlanChange } from "../../plans/plan.js";
import { planEdit } from "../../plans/plan.js";
import { planJson, planLines, planSummary } from "../../plans/plan-print.js";
import type { Change } from "../../resources/safe-edit.js";
import { VEHICLE } from "../../resources/safe-edit.js";
import { confirmDestructive } from "../confirm.js";
import { writeEmptyResults } from "../empty-results.js";
import { gatherInput, type InputSources } from "../input.js";
import { printDiff, quietDryRun } from "../record-output.js";
import { isSelection, opSelection, type SelectOptions, selectedVehicles } from "./select.js";

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

export type EditOptions = ManyOptions &
  InputSources & {
    add?: string[];
    remove?: string[];
    allowDuplicate?: boolean;
    /** One vehicle named (no --where): its result is printed as any one-vehicle edit's, `{id, changes, undo}`. */
    single?: boolean;
  };

/** `vehicle edit ID... | --where EXPR` with absolute and relative values, and list members added / removed. */
export async function edit(deps: Deps, opts: EditOptions): Promise<void> {
  // the values as given (file, --set, field flags); only the field flags take relative values
  const values = await gatherInput(deps, VEHICLE_FIELDS, opts, { noun: "edit" });
  const { plan, intent } = await planEditMany(
    deps,
    {
      selection: await opSelection(deps, opts),
      values,
      relativeFields: Object.entries(opts.flags ?? {}).flatMap(([k, v]) => (v === undefined ? [] : [k])),
      add: opts.add,
      remove: opts.remove,
      clamp: opts.clamp,
      allowDuplicate: opts.allowDuplicate,
    },
    deps.flags.dryRun ? { showResolved: (line) => deps.msg.info(deps.color.dim(line)) } : {},
  );
  await runBulkChange(deps, plan, { ...bulkOpts("edit", opts, intent), single: opts.single });
}

/** `vehicle activate|deactivate ID... | --where EXPR`. */
export async function setActivity(deps: Deps, active: boolean, opts: ManyOptions): Promise<void> {
  const records = await selectedVehicles(deps, opts);
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
  /**
   * One vehicle named: with a structured -o its result is the one-vehicle edit's record
   * (`{id, changes: [{field, before, after}], undo}`, as `vehicle edit ID` with absolute values), not a row list.
   */
  single?: boolean;
}

export async function runBulkChange(deps: Deps, plan: Plan, opts: BulkChangeOptions): Promise<void> {
  const count = plan.change.length + plan.remove.length;
  const dry = Boolean(deps.flags.dryRun);
  const target = await deps.target();
  const owner = await requireUser(deps);
  // The plan: the result of a dry run (stdout), a preview otherwise (stderr).
  if (dry) {
    const ids = [...plan.change.map((c) => c.vehicle_id), ...plan.remove.map((r) => r.vehicle_id)];
    if (await quietDryRun(deps, ids)) return;
  }
  const single = opts.single && plan.change.length === 1 && plan.remove.length === 0 ? plan.change[0] : undefined;
  if (dry && single && deps.settings().output !== "table") {
    // one vehicle named, a structured -o: its dry run is any one-vehicle edit's record (the field changes and the
    // request); a table keeps the plan's lines, which show a list's members added and removed (+2 -1)
    const params = { vehicle_id: single.vehicle_id, user_id: owner, locale_id: await deps.locale(), ...single.after };
    return printDiff(
      deps,
      VEHICLE,
      single.vehicle_id,
      changesOf(single),
      describeRequest(target, "vehicles.edit", params as EncodableRecord),
    );
  }
  const planOut = dry ? deps.io.stdout : deps.io.stderr;
  const c = dry ? deps.outColor : deps.color;
  if (deps.settings().output === "json" && dry) {
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
    deps.msg.info(
      `${opts.verb === "calendar" ? "no calendar to change" : `nothing to ${opts.verb}`}: ${planSummary(plan)}`,
    );
    // one named vehicle's edit prints its record, not rows: only its --report is written then
    await writeEmptyResults(deps, { report: opts.report, stdout: !opts.single });
    return;
  }
  const r = await applyVehiclePlan(
    deps,
    plan,
    {
      verb: opts.verb,
      intent: opts.intent,
      concurrency: opts.concurrency,
      report: opts.report,
      restart: opts.restart,
      ...(single ? { stdoutReport: false } : {}),
    },
    {
      confirm: async (n) => {
        if (opts.confirm !== false || n > 1)
          await confirmDestructive(
            deps,
            `${opts.verb === "remove" ? "Remove" : "Change"} ${n} vehicle${n === 1 ? "" : "s"} on ${target.env}?`,
            `${opts.verb === "calendar" ? "change the calendar of" : opts.verb} ${n} vehicle${n === 1 ? "" : "s"}`,
          );
      },
    },
  );
  if (single && !deps.flags.quiet && deps.settings().output !== "table")
    await deps.out.record({
      id: single.vehicle_id,
      changes: changesOf(single) as unknown as JsonObject[],
      undo: r.undoOp ?? null,
    });
}

/** A planned vehicle change as the one-vehicle edit shows it: `[{field, before, after}]`. */
function changesOf(ch: PlanChange): Change[] {
  return Object.entries(ch.fields).map(([field, c]) => ({ field, before: c.from, after: c.to }));
}
