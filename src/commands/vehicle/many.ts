import { VEHICLE_FIELDS } from "../../contract/vehicle-fields.js";
import type { Deps } from "../../deps.js";
import { UsageError } from "../../errors.js";
import type { Plan } from "../../fleet/plan.js";
import { gatherInput, type InputSources, resolveNamedRefs } from "../input.js";
import { type BulkChangeOptions, runBulkChange } from "./bulk-change.js";
import { isSelection, type SelectOptions, selectedVehicles } from "./select.js";

/**
 * Edit, (de)activate and remove over several ids or a `--where` selection,
 * and edits with relative values (`+10%`) even on one id: each plans over the
 * selected vehicles, prints the plan, confirms, and runs on the bulk engine
 * (bulk-change.ts).
 */

export interface ManyOptions extends SelectOptions {
  concurrency?: string;
  report?: string;
  restart?: boolean;
}

const bulkOpts = (verb: string, opts: ManyOptions, intent: unknown): BulkChangeOptions => ({
  verb,
  intent: { verb, ids: opts.ids ?? [], where: opts.where ?? [], all: Boolean(opts.all), ...((intent as object) ?? {}) },
  concurrency: opts.concurrency,
  report: opts.report,
  restart: opts.restart,
  confirm: isSelection(opts),
});

/** `vehicle edit ID... | --where EXPR` with absolute and relative values. */
export async function edit(deps: Deps, opts: ManyOptions & InputSources): Promise<void> {
  const values = await gatherInput(deps, VEHICLE_FIELDS, opts);
  delete values.user_id;
  delete values.locale_id;
  if (Object.keys(values).length === 0) {
    throw new UsageError("nothing to change: give field flags, --set FIELD=VALUE or --from-file", {
      hint: "example: rentctl vehicle edit --where segment=cars --price-per-day +10%",
    });
  }
  const { splitRelative, applyRelative } = await import("../../fleet/relative.js");
  const { absolute, relative } = splitRelative(values);
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
  const { planEdit } = await import("../../fleet/plan.js");
  const plan = planEdit(records, (input) => ({ ...record, ...applyRelative(relative, input) }));
  await runBulkChange(deps, plan, bulkOpts("edit", opts, { values }));
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
