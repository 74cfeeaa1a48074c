import { describeRequest } from "../../api/dry-run.js";
import { EXTRA_COLUMNS } from "../../contract/columns.js";
import { EXTRA_FIELDS } from "../../contract/extra-fields.js";
import { isObject, type JsonObject, normalizeRecord, unwrapRecord } from "../../contract/records.js";
import { validateRecord } from "../../contract/validate.js";
import type { Deps } from "../../deps.js";
import { UsageError } from "../../errors.js";
import { createExtra, printCreated } from "../../resources/create.js";
import { EXTRA, fetchRecord, problemsError, safeUpdate } from "../../resources/safe-edit.js";
import { confirmDestructive } from "../confirm.js";
import { parseId } from "../ids.js";
import { gatherInput, type InputSources, resolveNamedRefs } from "../input.js";
import { type PagedListOptions, pagedList } from "../paged-list.js";
import { showRecord } from "../resource.js";

export async function options(deps: Deps): Promise<void> {
  const { run } = await import("../catalog/show.js");
  await run(deps, { op: "catalog.extra_options" });
}

export async function list(deps: Deps, opts: PagedListOptions): Promise<void> {
  await pagedList(
    deps,
    {
      opId: "extras.list",
      kind: "extra",
      noun: "extras",
      params: { locale_id: await deps.locale() },
      columns: EXTRA_COLUMNS,
    },
    opts,
  );
}

export function get(deps: Deps, rawId: string): Promise<void> {
  return showRecord(deps, EXTRA, rawId);
}

export async function create(deps: Deps, src: InputSources): Promise<void> {
  const values = await gatherInput(deps, EXTRA_FIELDS, src);
  await resolveNamedRefs(deps, EXTRA_FIELDS, values);
  const { record, problems } = validateRecord(
    { ...values, locale_id: values.locale_id ?? (await deps.locale()) },
    EXTRA_FIELDS,
    {
      requireRequired: true,
      allowUnknown: true,
    },
  );
  if (problems.length) throw problemsError(problems, "extra");
  const result = await createExtra(deps, record);
  if (result) await printCreated(deps, "extra", result);
}

export async function update(deps: Deps, rawId: string, src: InputSources & { replace?: boolean }): Promise<void> {
  const id = parseId(rawId, "extra");
  const changes = await gatherInput(deps, EXTRA_FIELDS, src);
  delete changes.locale_id;
  if (Object.keys(changes).length === 0) {
    throw new UsageError("nothing to change: give --option, --price, --currency, --period, --quantity or --set", {
      hint: "example: rentctl extra update 7 --price 12",
    });
  }
  await resolveNamedRefs(deps, EXTRA_FIELDS, changes);
  // A full replacement: every member must still be there after the change.
  const r = await safeUpdate(deps, EXTRA, id, changes, { replace: src.replace, requireAll: true });
  if (!r.sent) return;
  if (deps.flags.quiet) return deps.out.ids([id]);
  if (deps.settings().output !== "table")
    await deps.out.record({ id, changes: r.changes as never, undo: r.journalOp ?? null });
  deps.msg.success(`extra ${id} updated${r.journalOp ? ` · undo with: rentctl undo ${r.journalOp}` : ""}`);
}

/** The state after a switch, when the response carries it (`is_active`, `active`, `status` or `state`). */
export function switchedState(body: unknown): string | undefined {
  const rec = unwrapRecord(body, "extra");
  for (const k of ["is_active", "active", "enabled", "status", "state"]) {
    const v = isObject(rec) ? rec[k] : undefined;
    if (v === undefined || v === null) continue;
    if (v === 1 || v === true || v === "1") return "on";
    if (v === 0 || v === false || v === "0") return "off";
    return String(v);
  }
  return undefined;
}

/** What a dry run of a one-extra mutation says on stderr: the environment and owner it would act on. */
async function dryRunNote(deps: Deps, verb: string, id: number): Promise<void> {
  const target = await deps.target();
  const who = target.userId !== undefined ? ` as owner ${target.userId}` : "";
  deps.msg.info(deps.color.dim(`dry run: would ${verb} extra ${id} on ${target.env}${who}; nothing was sent`));
}

export async function switchExtra(deps: Deps, rawId: string): Promise<void> {
  const id = parseId(rawId, "extra");
  const target = await deps.target();
  if (deps.flags.dryRun) {
    await deps.out.record(describeRequest(target.baseUrl, "extras.switch", { extra_id: id }));
    return dryRunNote(deps, "switch", id);
  }
  deps.msg.acting(target, `switching extra ${id}`);
  const client = await deps.client();
  const res = await client.call("extras.switch", { extra_id: id });
  const state = switchedState(res.decoded.body);
  if (deps.flags.quiet) return deps.out.ids([id]);
  if (deps.settings().output !== "table") {
    const rec = normalizeRecord(unwrapRecord(res.decoded.body, "extra"), "extra");
    await deps.out.record({
      id,
      state: state ?? null,
      ...(Object.keys(rec).length ? { record: rec } : {}),
    } as JsonObject);
  } else deps.io.stdout.write(`${state ?? "switched"}\n`);
  deps.msg.success(`extra ${id} switched${state ? ` ${state}` : ""}`);
}

export async function remove(deps: Deps, rawId: string): Promise<void> {
  const id = parseId(rawId, "extra");
  const target = await deps.target();
  if (deps.flags.dryRun) {
    await deps.out.record(describeRequest(target.baseUrl, "extras.delete", { extra_id: id }));
    return dryRunNote(deps, "delete", id);
  }
  await confirmDestructive(deps, `Delete extra ${id} on ${target.env}?`, "delete an extra");
  const before = await fetchRecord(deps, EXTRA, id);
  const { journalFor, journalTarget } = await import("../../journal/journal.js");
  const entry = journalFor(deps.paths.dataDir, target)?.record(
    { action: "extra.delete", id, before, ...journalTarget(target) },
    deps.now(),
  );
  deps.msg.acting(target, `deleting extra ${id}`);
  const client = await deps.client();
  await client.call("extras.delete", { extra_id: id });
  const { printResults } = await import("../bulk.js");
  await printResults(deps, [{ id, deleted: true, undo: entry?.op ?? null }]);
  deps.msg.success(`extra ${id} deleted${entry ? ` · undo with: rentctl undo ${entry.op}` : ""}`);
}
