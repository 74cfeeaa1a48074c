import { EXTRA_FIELDS } from "../../contract/extra-fields.js";
import type { JsonObject } from "../../contract/records.js";
import { validateRecord } from "../../contract/validate.js";
import type { Deps } from "../../deps.js";
import { UsageError } from "../../errors.js";
import { Journal, type JournalEntry } from "../../journal/journal.js";
import { EXTRA, inputOf, safeUpdate, VEHICLE } from "../resource.js";

function row(e: JournalEntry): JsonObject {
  return {
    op: e.op,
    time: e.time,
    action: e.action,
    id: e.id,
    env: e.env,
    user_id: e.userId ?? null,
    undone: e.undone ?? null,
  };
}

/** `rentctl undo`: the recent journal entries; `rentctl undo OP`: restore one. */
export async function run(deps: Deps, op: string | undefined, opts: { limit?: string }): Promise<void> {
  const journal = new Journal(deps.paths.dataDir);
  const entries = journal.entries();
  if (op === undefined) {
    const n = Number(opts.limit ?? 20);
    const recent = entries
      .filter((e) => e.batch === undefined)
      .slice(-n)
      .reverse();
    if (deps.flags.quiet) return deps.out.ids(recent.map((e) => e.op));
    await deps.out.list(recent.map(row), [
      { key: "op", header: "OP" },
      { key: "time", header: "TIME" },
      { key: "action", header: "ACTION" },
      { key: "id", header: "ID" },
      { key: "env", header: "ENV" },
      { key: "undone", header: "UNDONE" },
    ]);
    if (recent.length === 0) deps.msg.info("nothing to undo yet");
    return;
  }
  const entry = entries.find((e) => e.op === op);
  if (!entry) throw new UsageError(`no journal entry ${JSON.stringify(op)}`, { hint: "list them with `rentctl undo`" });
  if (entry.undone) throw new UsageError(`operation ${op} was already undone at ${entry.undone}`);
  if (entry.batch !== undefined)
    throw new UsageError(`operation ${op} is part of apply ${entry.batch}`, {
      hint: `undo it all with \`rentctl undo ${entry.batch}\``,
    });
  const target = await deps.target();
  if (target.baseUrl !== entry.baseUrl && !(target.embeddedSandbox && entry.env === "sandbox")) {
    throw new UsageError(
      `operation ${op} was made on ${entry.env} (${entry.baseUrl}), not on the environment selected now (${target.baseUrl})`,
      {
        hint: "select the same environment (profile, --env, --base-url) to undo it",
      },
    );
  }
  if (entry.action === "vehicle.apply") {
    const { undoApply } = await import("./undo-apply.js");
    await undoApply(
      deps,
      entry,
      entries.filter((e) => e.batch === op),
    );
    journal.markUndone(op, deps.now());
    return;
  }
  const res = entry.action.startsWith("vehicle") ? VEHICLE : EXTRA;
  const before = inputOf(res, entry.before);
  if (entry.action === "vehicle.edit" || entry.action === "extra.update") {
    const r = await safeUpdate(deps, res, entry.id, before, { replace: true });
    if (!r.sent) return;
    journal.markUndone(op, deps.now());
    if (deps.flags.quiet) await deps.out.ids([entry.id]);
    else if (deps.settings().output !== "table")
      await deps.out.record({ op, restored: entry.id, changes: r.changes as never });
    deps.msg.success(
      `${res.noun} ${entry.id} restored to its state before operation ${op} (${r.changes.length} fields)`,
    );
    return;
  }
  // A removed vehicle or deleted extra is created again, with a new id.
  let newId: number | undefined;
  if (entry.action === "vehicle.remove") {
    const { createVehicle, prepareVehicle } = await import("../vehicle/write.js");
    const record = await prepareVehicle(deps, before);
    const created = await createVehicle(deps, record);
    if (!created) return;
    newId = created.id;
  } else {
    const { createExtra } = await import("../extra/write.js");
    const { record } = validateRecord({ ...before, locale_id: await deps.locale() }, EXTRA_FIELDS, {
      requireRequired: true,
      allowUnknown: true,
    });
    const created = await createExtra(deps, record);
    if (!created) return;
    newId = created.id;
  }
  journal.markUndone(op, deps.now());
  if (deps.flags.quiet || deps.settings().output === "table") await deps.out.ids(newId !== undefined ? [newId] : []);
  else await deps.out.record({ op, recreated_from: entry.id, id: newId ?? null });
  deps.msg.success(`${res.noun} ${entry.id} re-created as ${res.noun} ${newId ?? "(id not reported)"}`);
}
