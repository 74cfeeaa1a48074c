import { activeOf, EXTRA_FIELDS } from "../../contract/extra-fields.js";
import type { JsonObject } from "../../contract/records.js";
import { validateRecord } from "../../contract/validate.js";
import type { Deps } from "../../deps.js";
import { UsageError } from "../../errors.js";
import type { History, HistoryEntry } from "../../history/history.js";
import { arg, flag } from "../flags.js";
import { noDedupeFlag } from "../vehicle/concurrency.js";
import { defineVerb } from "../verb.js";

export const verb = defineVerb({
  name: "undo",
  description: "List recent edits and removals, or restore one (a removed vehicle is re-created with a new id)",
  args: { op: arg.optional("undo entry to restore (an OP of the list)") },
  flags: {
    limit: flag.int("--limit <n>", "entries to list (default 20 in a table; other formats and -q list all)", {
      min: 1,
    }),
    force: flag.bool(
      "--force",
      "undo of an apply: also undo vehicles changed since the apply (those changes are lost)",
    ),
    dedupe: noDedupeFlag(),
  },
  examples: ["rentctl undo", "rentctl undo 1 --dry-run", "rentctl undo 1"],
  run: (deps, args, opts) => run(deps, args.op, opts),
});

/** What restoring needs (loaded only when the command runs: the noun's tree stays light). */
const load = () =>
  Promise.all([
    import("../../history/history.js"),
    import("../../gateway/records.js"),
    import("../../resources/safe-edit.js"),
    import("./describe.js"),
  ]);

/** `rentctl undo`: the recent entries of the undo history; `rentctl undo OP`: restore one. */
export async function run(
  deps: Deps,
  op: string | undefined,
  opts: { limit?: number; force?: boolean; dedupe?: boolean },
): Promise<void> {
  const [
    { History, isBatchEntry, remapEntry, sameTarget },
    { createRecord, guardedReplace },
    { EXTRA, inputOf, serverMembers, VEHICLE },
    { counted, UNDOING },
  ] = await load();
  const journal = new History(deps.paths.dataDir);
  const entries = journal.entries();
  if (op === undefined) {
    const [{ undoHistory }, { wholeListFor }] = await Promise.all([
      import("../../ops/undo/history.js"),
      import("../paged-list.js"),
    ]);
    // a program reading (json, csv, -q, …) gets every entry unless --limit; a table the recent 20
    const whole = wholeListFor(deps, { limit: opts.limit }).all;
    const recent = await undoHistory(deps, { limit: whole ? Number.POSITIVE_INFINITY : opts.limit });
    if (deps.flags.quiet) return deps.out.ids(recent.map((e) => e.op));
    await deps.out.list(recent as unknown as JsonObject[], [
      { key: "op", header: "OP" },
      { key: "time", header: "TIME" },
      { key: "action", header: "ACTION" },
      { key: "id", header: "ID" },
      { key: "what", header: "WHAT" },
      { key: "env", header: "ENV" },
      { key: "undone", header: "UNDONE" },
    ]);
    if (recent.length === 0) deps.msg.info("nothing to undo yet");
    return;
  }
  // The ids earlier undos re-created under new ones: this undo acts on the records as they are now.
  const ids = journal.recreatedIds();
  const listed = entries.find((e) => e.op === op);
  const entry = listed && remapEntry(listed, ids);
  if (!entry) throw new UsageError(`no undo entry ${JSON.stringify(op)}`, { hint: "list them with `rentctl undo`" });
  if (entry.undone) throw new UsageError(`operation ${op} was already undone at ${entry.undone}`);
  if (entry.batch !== undefined)
    throw new UsageError(`operation ${op} is part of apply ${entry.batch}`, {
      hint: `undo it all with \`rentctl undo ${entry.batch}\``,
    });
  const target = await deps.target();
  if (!sameTarget(entry, target)) {
    const where = entry.dataFile ? `the sandbox data file ${entry.dataFile}` : `${entry.env} (${entry.baseUrl})`;
    const now = target.embeddedSandbox
      ? target.sandboxDataFile
        ? `the sandbox data file ${target.sandboxDataFile}`
        : "a throw-away in-memory sandbox"
      : target.baseUrl;
    throw new UsageError(
      `operation ${op} was made on ${where}${entry.userId !== undefined ? ` as owner ${entry.userId}` : ""}, not on the target selected now (${now}${target.userId !== undefined ? `, owner ${target.userId}` : ""}); nothing was sent`,
      { hint: "select the same environment, address and owner (profile, --env, --base-url, --user) to undo it" },
    );
  }
  if (isBatchEntry(entry)) {
    const { undoApply } = await import("./undo-apply.js");
    const recreated = await undoApply(
      deps,
      entry,
      entries.filter((e) => e.batch === op).map((e) => remapEntry(e, ids)),
      opts,
    );
    if (!deps.flags.dryRun)
      journal.markUndone(
        op,
        deps.now(),
        recreated.map((r) => ({ kind: r.kind ?? "vehicle", from: r.from, to: r.id })),
      );
    return;
  }
  if (entry.items?.length) return undoMany(deps, journal, entry, counted);
  const res = entry.action.startsWith("vehicle") ? VEHICLE : EXTRA;
  if (entry.action === "vehicle.create" || entry.action === "extra.create" || entry.action === "extra.switch")
    return undoCreateOrSwitch(deps, journal, entry);
  const before = res.mirrorServer ? serverMembers(entry.before) : inputOf(res, entry.before);
  if (entry.action === "vehicle.edit" || entry.action === "extra.update") {
    const r = await guardedReplace(deps, res, entry.id, before, { replace: true });
    if (!r.sent) return;
    journal.markUndone(op, deps.now());
    if (deps.flags.quiet) await deps.out.ids([entry.id]);
    else if (deps.settings().output !== "table")
      await deps.out.record({ op, restored: entry.id, changes: r.changes as never });
    deps.msg.success(
      `${res.noun} ${entry.id} restored to its state before operation ${op} (${counted(r.changes.length, "fields")})`,
    );
    return;
  }
  // A removed vehicle or deleted extra is created again, with a new id.
  let newId: number | undefined;
  if (entry.action === "vehicle.remove") {
    const still = await stillPresent(deps, entry.id, before);
    if (still !== undefined) {
      throw new UsageError(
        `vehicle ${entry.id} is still in the account (as vehicle ${still}): undoing its removal would create a duplicate; nothing was sent`,
        { hint: "the removal may never have taken effect; check with `rentctl vehicle get " + still + "`" },
      );
    }
    const { prepareVehicle } = await import("../../resources/create.js");
    const record = await prepareVehicle(deps, before);
    const created = await createRecord(deps, VEHICLE, record, { undo: UNDOING });
    if (!created) return;
    newId = created.id;
  } else {
    const { record } = validateRecord({ ...before, locale_id: await deps.locale() }, EXTRA_FIELDS, {
      requireRequired: true,
      allowUnknown: true,
    });
    const created = await createRecord(deps, EXTRA, record, { undo: UNDOING });
    if (!created) return;
    newId = created.id;
    if (newId !== undefined) {
      // It comes back as it was: off, if it was off (a new extra is on).
      if (activeOf(entry.before) === false) {
        const { setExtraActive } = await import("../../gateway/extras.js");
        await setExtraActive(deps, newId, false, { undo: UNDOING });
      }
      await reattach(deps, entry, newId);
    }
  }
  journal.markUndone(op, deps.now(), newId !== undefined ? [{ kind: res.kind, from: entry.id, to: newId }] : []);
  if (deps.flags.quiet || deps.settings().output === "table") await deps.out.ids(newId !== undefined ? [newId] : []);
  else await deps.out.record({ op, recreated_from: entry.id, id: newId ?? null });
  deps.msg.success(
    `${res.noun} ${entry.id} re-created as ${res.noun} ${newId ?? "(id not reported)"}${newId !== undefined && newId !== entry.id ? ` (the server assigns new ids: ${entry.id} → ${newId})` : ""}`,
  );
}

/** Undo of a create (the record is removed) or of an extra's switch (its state before is set back). */
async function undoCreateOrSwitch(deps: Deps, journal: History, entry: HistoryEntry): Promise<void> {
  const [{ removeRecord }, { setExtraActive }, { NotFoundError }, { EXTRA, VEHICLE }, { UNDOING }] = await Promise.all([
    import("../../gateway/records.js"),
    import("../../gateway/extras.js"),
    import("../../api/errors.js"),
    import("../../resources/safe-edit.js"),
    import("../../gateway/undo.js"),
  ]);
  const res = entry.action.startsWith("vehicle") ? VEHICLE : EXTRA;
  const { op, id } = entry;
  if (deps.flags.dryRun) {
    const what = entry.action === "extra.switch" ? `switch ${res.noun} ${id} back` : `remove ${res.noun} ${id}`;
    deps.msg.info(deps.color.dim(`dry run: would ${what} (undo of operation ${op}); nothing was sent`));
    return;
  }
  let said: string;
  let result: JsonObject;
  if (entry.action === "extra.switch") {
    const was = activeOf(entry.before);
    if (was === undefined)
      throw new UsageError(`operation ${op}: the extra's record showed no on/off state; nothing was sent`, {
        hint: `\`rentctl extra switch ${id}\` toggles it back`,
      });
    const r = await setExtraActive(deps, id, was, { undo: UNDOING });
    if (r.status === "gone") throw new NotFoundError(`extra ${id} not found: deleted since operation ${op}`);
    said = `extra ${id} ${r.status === "switched" ? "switched back" : "already"} ${was ? "on" : "off"}`;
    result = { op, id, active: was };
  } else {
    try {
      await removeRecord(deps, res, id, { undo: UNDOING });
      said = `${res.noun} ${id} ${res.kind === "extra" ? "deleted" : "removed"}`;
    } catch (e) {
      if (!(e instanceof NotFoundError)) throw e;
      said = `${res.noun} ${id} was already gone`;
    }
    result = { op, id, removed: true };
  }
  journal.markUndone(op, deps.now());
  if (deps.flags.quiet) await deps.out.ids([id]);
  else if (deps.settings().output !== "table") await deps.out.record(result);
  deps.msg.success(`${said} (undo of operation ${op})`);
}

/**
 * A deleted extra re-created as `newId`: put it back on the vehicles that used
 * it (the delete kept their ids as `used_by`), each through the guarded safe
 * edit; a vehicle gone or changed meanwhile is reported and left as it is.
 */
async function reattach(deps: Deps, entry: HistoryEntry, newId: number): Promise<void> {
  const users = Array.isArray(entry.before.used_by) ? entry.before.used_by.map(Number) : [];
  if (!users.length) return;
  const [{ guardedReplace }, { VEHICLE }, { UNDOING }, { plural }] = await Promise.all([
    import("../../gateway/records.js"),
    import("../../resources/safe-edit.js"),
    import("../../gateway/undo.js"),
    import("../../api/paginate.js"),
  ]);
  const done: number[] = [];
  for (const vid of users) {
    try {
      await guardedReplace(
        deps,
        VEHICLE,
        vid,
        (base) => {
          const ids = Array.isArray(base.vehicle_extras) ? base.vehicle_extras.map(Number) : [];
          return { vehicle_extras: ids.includes(newId) ? ids : [...ids, newId] };
        },
        { undo: UNDOING },
      );
      done.push(vid);
    } catch (e) {
      deps.msg.warn(`vehicle ${vid}: extra ${newId} not re-attached: ${(e as Error).message}`);
    }
  }
  if (done.length)
    deps.msg.info(
      `extra ${newId} re-attached to ${plural(done.length, "vehicles")} ${done.join(", ")}, which used extra ${entry.id}`,
    );
}

/**
 * An entry for a change to many vehicles: each is restored (edits: the
 * previous record sent again through safe edit; removals: created again, with
 * a new id). A vehicle that cannot be restored is reported and the rest go on.
 */
async function undoMany(
  deps: Deps,
  journal: History,
  entry: HistoryEntry,
  counted: (n: number, noun: string) => string,
): Promise<void> {
  const [, { createRecord, guardedReplace }, { inputOf, VEHICLE }, { UNDOING }] = await load();
  const { AuthError } = await import("../../api/errors.js");
  const results: JsonObject[] = [];
  let failed = 0;
  // Before re-creating removed vehicles, look at the account once: one that is still there (same
  // registration number) is not created twice (a rerun of a partly failed undo, or a remove that never landed).
  const { IdentityIndex, identityOf } = await import("../../contract/identity.js");
  const present = new IdentityIndex<number>();
  if (entry.action === "vehicle.remove") {
    const { listVehicles } = await import("../../fleet/adapters.js");
    for await (const page of listVehicles(deps))
      for (const v of page) {
        const identity = identityOf(v);
        if (identity) present.add(identity, Number(v.id));
      }
  }
  for (const item of entry.items ?? []) {
    const before = inputOf(VEHICLE, item.before);
    try {
      if (entry.action === "vehicle.remove") {
        const identity = identityOf(before);
        if (identity && present.find(identity).length) {
          results.push({ id: item.id, still_present: true });
          continue;
        }
      }
      if (entry.action === "vehicle.edit") {
        const r = await guardedReplace(deps, VEHICLE, item.id, before, { replace: true });
        results.push({ id: item.id, restored: true, changes: r.changes.length });
      } else {
        const { prepareVehicle } = await import("../../resources/create.js");
        const created = await createRecord(deps, VEHICLE, await prepareVehicle(deps, before), { undo: UNDOING });
        results.push({ id: item.id, recreated_as: created?.id ?? null });
      }
    } catch (e) {
      // Not authenticated (another owner's key, a revoked one): every other vehicle would be refused alike.
      if (e instanceof AuthError) throw e;
      failed++;
      deps.msg.warn(`vehicle ${item.id}: ${(e as Error).message}`);
      results.push({ id: item.id, error: (e as Error).message });
    }
  }
  if (deps.flags.dryRun) return;
  const recreated = results.flatMap((r) =>
    typeof r.recreated_as === "number" ? [{ kind: "vehicle" as const, from: Number(r.id), to: r.recreated_as }] : [],
  );
  if (failed === 0) journal.markUndone(entry.op, deps.now(), recreated);
  if (deps.flags.quiet) await deps.out.ids(results.filter((r) => !r.error).map((r) => Number(r.recreated_as ?? r.id)));
  else if (deps.settings().output !== "table") await deps.out.list(results);
  const n = (entry.items ?? []).length;
  if (failed) {
    const { PartialFailureError } = await import("../../errors.js");
    throw new PartialFailureError(`undo ${entry.op}: ${failed} of ${counted(n, "vehicles")} could not be restored`, {
      hint: `run \`rentctl undo ${entry.op}\` again once the cause is fixed`,
    });
  }
  deps.msg.success(
    `${counted(n, "vehicles")} restored to ${n === 1 ? "its" : "their"} state before operation ${entry.op}`,
  );
}

/** The id under which a removed vehicle is still in the account (same id, or same registration number), if it is. */
async function stillPresent(deps: Deps, id: number, before: Record<string, unknown>): Promise<number | undefined> {
  const { NotFoundError } = await import("../../api/errors.js");
  const [, , { fetchRecord, VEHICLE }] = await load();
  try {
    await fetchRecord(deps, VEHICLE, id);
    return id;
  } catch (e) {
    if (!(e instanceof NotFoundError)) throw e;
  }
  const { findByIdentity } = await import("../../resources/list.js");
  return (await findByIdentity(deps, before))[0];
}
