import { plural } from "../../api/paginate.js";
import type { JsonObject } from "../../contract/records.js";
import type { Deps } from "../../deps.js";
import { undoHistory } from "../../ops/undo/history.js";
import type { UndoResult } from "../../ops/undo/undo.js";
import { undo, undoneLine } from "../../ops/undo/undo.js";
import { EXTRA, VEHICLE } from "../../resources/safe-edit.js";
import { arg, flag } from "../flags.js";
import { wholeListFor } from "../paged-list.js";
import { printCreateDryRun, printDiff } from "../record-output.js";
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
    allOwners: flag.bool(
      "--all-owners",
      "list the ops of every target and owner (default: those of the target and owner selected now)",
    ),
    dedupe: noDedupeFlag(),
  },
  examples: ["rentctl undo", "rentctl undo --all-owners", "rentctl undo 1 --dry-run", "rentctl undo 1"],
  run: (deps, args, opts) => run(deps, args.op, opts),
});

/** `rentctl undo`: the recent entries of the undo history; `rentctl undo OP`: restore one (src/ops/undo/undo.ts). */
export async function run(
  deps: Deps,
  op: string | undefined,
  opts: { limit?: number; force?: boolean; dedupe?: boolean; allOwners?: boolean },
): Promise<void> {
  if (op === undefined) {
    // a program reading (json, csv, -q, …) gets every entry unless --limit; a table the recent 20
    const whole = wholeListFor(deps, { limit: opts.limit }).all;
    const recent = await undoHistory(deps, {
      limit: whole ? Number.POSITIVE_INFINITY : opts.limit,
      allOwners: opts.allOwners,
    });
    if (deps.flags.quiet) return deps.out.ids(recent.map((e) => e.op));
    await deps.out.list(recent as unknown as JsonObject[], [
      { key: "op", header: "OP" },
      { key: "time", header: "TIME" },
      { key: "action", header: "ACTION" },
      { key: "id", header: "ID" },
      { key: "what", header: "WHAT" },
      { key: "env", header: "ENV" },
      ...(opts.allOwners ? [{ key: "user_id", header: "OWNER" }] : []),
      { key: "undone", header: "UNDONE" },
    ]);
    if (recent.length === 0)
      deps.msg.info(
        opts.allOwners
          ? "nothing to undo yet"
          : "nothing to undo yet here (`rentctl undo --all-owners` lists every owner's)",
      );
    return;
  }
  let result: UndoResult;
  try {
    result = await undo(
      deps,
      { op, force: opts.force, dedupe: opts.dedupe, dryRun: Boolean(deps.flags.dryRun) },
      {
        onProgress: (p) => deps.msg.acting(p.target, p.what),
        trace: deps.flags.verbose ? (line) => deps.io.stderr.write(deps.color.dim(`${line}\n`)) : undefined,
      },
    );
  } catch (e) {
    // a change to many vehicles partly restored: what was done is shown before the error
    const partial = (e as { undo?: UndoResult }).undo;
    if (partial) await render(deps, partial);
    throw e;
  }
  await render(deps, result);
}

/** An undo's result in the CLI's words: stdout the ids or the record, stderr what was done. */
async function render(deps: Deps, r: UndoResult): Promise<void> {
  const quiet = Boolean(deps.flags.quiet);
  const table = deps.settings().output === "table";
  switch (r.kind) {
    case "restored": {
      const res = r.noun === "vehicle" ? VEHICLE : EXTRA;
      if (r.dryRun) return printDiff(deps, res, r.id, r.changes, r.dryRun.request);
      if (!r.sent) return;
      if (quiet) await deps.out.ids([r.id]);
      else if (!table) await deps.out.record({ op: r.op, restored: r.id, changes: r.changes as never });
      break;
    }
    case "recreated": {
      if (r.dryRun) return printCreateDryRun(deps, r.noun === "vehicle" ? VEHICLE : EXTRA, r.dryRun.request);
      if (r.reattached.length)
        deps.msg.info(
          `extra ${r.id} re-attached to ${plural(r.reattached.length, "vehicles")} ${r.reattached.join(", ")}, which used extra ${r.from}`,
        );
      if (quiet || table) await deps.out.ids(r.id !== undefined ? [r.id] : []);
      else await deps.out.record({ op: r.op, recreated_from: r.from, id: r.id ?? null });
      break;
    }
    case "removed":
    case "switched": {
      if (r.wouldDo) {
        deps.msg.info(deps.color.dim(`dry run: would ${r.wouldDo} (undo of operation ${r.op}); nothing was sent`));
        return;
      }
      if (quiet) await deps.out.ids([r.id]);
      else if (!table)
        await deps.out.record(
          r.kind === "switched"
            ? { op: r.op, id: r.id, active: r.active ?? null }
            : { op: r.op, id: r.id, removed: true },
        );
      break;
    }
    case "many": {
      if (r.dryRun) {
        for (const item of r.items) {
          if (!item.dryRun) continue;
          if (r.action === "vehicle.edit")
            await printDiff(deps, VEHICLE, item.id, item.dryRun.changes ?? [], item.dryRun.request);
          else await printCreateDryRun(deps, VEHICLE, item.dryRun.request);
        }
        return;
      }
      const items = r.items.map(({ dryRun: _d, ...item }) => item);
      if (quiet) await deps.out.ids(items.filter((i) => !i.error).map((i) => Number(i.recreated_as ?? i.id)));
      else if (!table) await deps.out.list(items as unknown as JsonObject[]);
      break;
    }
    case "apply": {
      if (r.steps) {
        if (table && !quiet)
          for (const s of r.steps)
            deps.io.stdout.write(`${s.kind} ${s.vehicle_id}${s.reg ? ` (${s.reg})` : ""}: ${s.what}\n`);
        else if (!quiet)
          await deps.out.list(r.steps.map((s) => ({ vehicle_id: s.vehicle_id, reg: s.reg, step: s.step })));
        deps.msg.info(deps.color.dim(`dry run: would undo ${r.name} (${r.what}); nothing was sent`));
        return;
      }
      if (!table && !quiet)
        await deps.out.record({
          op: r.op,
          ...r.counts,
          recreated: r.recreated.map((x) => ({ was: x.from, id: x.to })),
        });
      break;
    }
  }
  const line = undoneLine(r);
  if (line) deps.msg.success(line);
}
