import { operation } from "../contract/operations.js";
import type { JsonObject } from "../contract/records.js";
import type { Deps } from "../deps.js";
import type { CreateResult } from "../resources/create.js";
import type { Resource } from "../resources/resource.js";
import { type Change, show } from "../resources/safe-edit.js";

/**
 * How the CLI shows the result of a write of one record: a create, an edit, their dry runs,
 * and -q (ids only). The library and the MCP server return the ops' results instead.
 */

/**
 * A dry run with -q (cli.md: print only identifiers of affected resources): the ids it would
 * change, one a line, and nothing else on either stream (no request, plan or summary; a create,
 * which has no id yet, prints nothing). Returns whether -q was given (the dry run is then told).
 */
export async function quietDryRun(deps: Deps, ids: readonly number[]): Promise<boolean> {
  if (!deps.flags.quiet) return false;
  if (ids.length) await deps.out.ids([...ids]);
  return true;
}

export async function printDiff(
  deps: Deps,
  res: Resource,
  id: number,
  diff: Change[],
  request: JsonObject,
): Promise<void> {
  if (await quietDryRun(deps, diff.length ? [id] : [])) return;
  const format = deps.settings().output;
  if (format === "table") {
    const c = deps.outColor;
    if (diff.length === 0) deps.io.stdout.write(`${res.noun} ${id}: no change\n`);
    for (const d of diff) {
      deps.io.stdout.write(`${c.bold(d.field)}: ${c.red(show(d.before))} → ${c.green(show(d.after))}\n`);
    }
    const target = await deps.target();
    const who = target.userId !== undefined ? ` as owner ${target.userId}` : "";
    deps.msg.info(
      deps.color.dim(
        `dry run: would ${res.updateOp === "vehicles.edit" ? "edit" : "update"} ${res.noun} ${id} on ${target.env}${who}; ${operation(res.updateOp).method} ${request.url} was not sent`,
      ),
    );
    return;
  }
  await deps.out.record({ dry_run: true, id, changes: diff as unknown as JsonObject[], request } as JsonObject);
}

/** What an edit of one record answered (vehicle edit ID, extra update ID): its changes, sent or planned. */
export interface OneEdit {
  changes: Change[];
  sent: boolean;
  undoOp?: string;
  dryRun?: { request: JsonObject };
}

/**
 * The result of an edit of one record: a dry run's diff; nothing to change (said on stderr); else
 * with -o `{id, changes, undo}` (also with no changes, `changes: []`: a script reads one shape
 * either way), with -q the id. Returns whether a change was made and its success line is wanted.
 */
export async function printOneEdit(deps: Deps, res: Resource, id: number, r: OneEdit): Promise<boolean> {
  if (r.dryRun) {
    await printDiff(deps, res, id, r.changes, r.dryRun.request);
    return false;
  }
  const structured = !deps.flags.quiet && deps.settings().output !== "table";
  if (!r.sent) {
    deps.msg.info(`${res.noun} ${id}: nothing to change`);
    if (structured) await deps.out.record({ id, changes: [], undo: null });
    return false;
  }
  if (deps.flags.quiet) {
    await deps.out.ids([id]);
    return false;
  }
  if (structured) await deps.out.record({ id, changes: r.changes as never, undo: r.undoOp ?? null });
  return true;
}

/** Print a created resource: the id (`-q`, table) or the record (json, yaml, …). */
export async function printCreated(deps: Deps, noun: string, result: CreateResult): Promise<void> {
  const format = deps.settings().output;
  if (deps.flags.raw || (format !== "table" && !deps.flags.quiet)) {
    await deps.out.record({ ...(result.id !== undefined ? { id: result.id } : {}), ...result.record });
  } else if (result.id !== undefined) {
    await deps.out.ids([result.id]);
  }
  if (result.id !== undefined)
    deps.msg.success(
      `${noun} ${result.id} created${result.undoOp ? ` · undo with: rentctl undo ${result.undoOp}` : ""}`,
    );
  else deps.msg.warn(`${noun} created, but the response carried no id`);
}

/** A create's dry run as the CLI shows it: the request on stdout, what was not done on stderr. */
export async function printCreateDryRun(deps: Deps, res: Resource, request: JsonObject): Promise<void> {
  if (await quietDryRun(deps, [])) return;
  const target = await deps.target();
  await deps.out.record(request);
  const who = target.userId !== undefined ? ` as owner ${target.userId}` : "";
  deps.msg.info(
    deps.color.dim(
      `dry run: would create ${res.noun === "extra" ? "an" : "a"} ${res.noun} on ${target.env}${who}; nothing was sent`,
    ),
  );
}
