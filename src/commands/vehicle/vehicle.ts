import { requireUser } from "../../context.js";
import { VEHICLE_COLUMNS } from "../../contract/columns.js";
import { VEHICLE_FIELDS } from "../../contract/vehicle-fields.js";
import type { Deps } from "../../deps.js";
import { UsageError } from "../../errors.js";
import { createVehicle, prepareVehicle, printCreated } from "../../resources/create.js";
import { fetchRecord, printDiff, safeUpdate, VEHICLE } from "../../resources/safe-edit.js";
import { confirmDestructive } from "../confirm.js";
import { parseId } from "../ids.js";
import { gatherInput, type InputSources, resolveNamedRefs } from "../input.js";
import { type PagedListOptions, pagedList } from "../paged-list.js";
import { showRecord } from "../resource.js";

export async function list(deps: Deps, opts: PagedListOptions): Promise<void> {
  const userId = await requireUser(deps);
  await pagedList(
    deps,
    {
      opId: "vehicles.list",
      kind: "vehicle",
      noun: "vehicles",
      params: { user_id: userId, locale_id: await deps.locale() },
      columns: VEHICLE_COLUMNS,
    },
    opts,
  );
}

export function get(deps: Deps, rawId: string): Promise<void> {
  return showRecord(deps, VEHICLE, rawId);
}

export async function create(deps: Deps, opts: InputSources): Promise<void> {
  const values = await gatherInput(deps, VEHICLE_FIELDS, opts);
  if (Object.keys(values).every((k) => k === "user_id" || k === "locale_id")) throw nothingToCreate();
  await resolveNamedRefs(deps, VEHICLE_FIELDS, values);
  const record = await prepareVehicle(deps, values);
  const result = await createVehicle(deps, record);
  if (result) await printCreated(deps, "vehicle", result);
}

/** `vehicle create` with nothing given: the fields a vehicle needs, and three ways to give them at once. */
function nothingToCreate(): UsageError {
  const missing = VEHICLE_FIELDS.filter((f) => f.required === true && f.name !== "user_id");
  return new UsageError(`nothing to create: a vehicle needs ${missing.length} fields, none was given`, {
    details: missing.map((f) => ({ field: f.name, message: `is required (${f.description})` })),
    hint: [
      "answer the questions one by one:   rentctl vehicle wizard",
      "start from the shipped example:    rentctl vehicle create --from-file examples/vehicle.yaml",
      "copy a vehicle you have:           rentctl vehicle get ID -o json > car.json  (edit it, then --from-file car.json)",
    ].join("\n      "),
  });
}

export interface EditOptions extends InputSources {
  replace?: boolean;
}

export async function edit(deps: Deps, rawId: string, opts: EditOptions): Promise<void> {
  const id = parseId(rawId, "vehicle");
  const changes = await gatherInput(deps, VEHICLE_FIELDS, opts);
  delete changes.user_id;
  delete changes.locale_id;
  if (Object.keys(changes).length === 0 && !opts.replace) {
    throw new UsageError("nothing to change: give field flags, --set FIELD=VALUE or --from-file", {
      hint: "example: rentctl vehicle edit 42 --price-per-day 55",
    });
  }
  await resolveNamedRefs(deps, VEHICLE_FIELDS, changes);
  const r = await safeUpdate(deps, VEHICLE, id, changes, { replace: opts.replace });
  if (!r.sent) return;
  if (deps.flags.quiet) return deps.out.ids([id]);
  if (deps.settings().output !== "table") {
    await deps.out.record({ id, changes: r.changes as never, undo: r.journalOp ?? null });
  }
  deps.msg.success(
    `vehicle ${id} updated (${r.changes.length} field${r.changes.length === 1 ? "" : "s"} changed)${r.journalOp ? ` · undo with: rentctl undo ${r.journalOp}` : ""}`,
  );
}

export async function setActivity(deps: Deps, rawIds: string[], active: boolean): Promise<void> {
  const ids = rawIds.map((r) => parseId(r, "vehicle"));
  const { runEach } = await import("../bulk.js");
  await runEach(deps, ids, `${active ? "activate" : "deactivate"}`, async (id) => {
    const r = await safeUpdate(deps, VEHICLE, id, { vehicle_activity: active ? 1 : 0 });
    if (r.sent) deps.msg.success(`vehicle ${id} ${active ? "activated" : "deactivated"}`);
    else if (!deps.flags.dryRun) deps.msg.info(`vehicle ${id} is already ${active ? "active" : "inactive"}`);
    return { id, vehicle_activity: active ? 1 : 0, changed: Boolean(r.sent), undo: r.journalOp ?? null };
  });
}

export async function remove(deps: Deps, rawIds: string[]): Promise<void> {
  const ids = rawIds.map((r) => parseId(r, "vehicle"));
  const userId = await requireUser(deps);
  const target = await deps.target();
  const what = ids.length === 1 ? `vehicle ${ids[0]}` : `${ids.length} vehicles (${ids.join(", ")})`;
  if (deps.flags.dryRun) {
    const { describeRequest } = await import("../../api/dry-run.js");
    for (const id of ids)
      await deps.out.record(describeRequest(target.baseUrl, "vehicles.remove", { user_id: userId, vehicle_id: id }));
    deps.msg.info(
      deps.color.dim(`dry run: would remove ${what} on ${target.env} as owner ${userId}; nothing was sent`),
    );
    return;
  }
  await confirmDestructive(
    deps,
    `Remove ${what} on ${target.env}?`,
    `remove ${ids.length === 1 ? "a vehicle" : "vehicles"}`,
  );
  const { runEach } = await import("../bulk.js");
  const { journalFor, journalTarget } = await import("../../journal/journal.js");
  const journal = journalFor(deps.paths.dataDir, target);
  const client = await deps.client();
  deps.msg.acting(target, `removing ${ids.length === 1 ? `vehicle ${ids[0]}` : `${ids.length} vehicles`}`);
  await runEach(deps, ids, "remove", async (id) => {
    const before = await fetchRecord(deps, VEHICLE, id);
    const entry = journal?.record({ action: "vehicle.remove", id, before, ...journalTarget(target) }, deps.now());
    await client.call("vehicles.remove", { user_id: userId, vehicle_id: id });
    deps.msg.success(`vehicle ${id} removed${entry ? ` · undo with: rentctl undo ${entry.op}` : ""}`);
    return { id, removed: true, undo: entry?.op ?? null };
  });
}

export { printDiff };
