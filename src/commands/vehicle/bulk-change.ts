import { createHash } from "node:crypto";
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import type { Writable } from "node:stream";
import type { EncodableRecord } from "../../api/encode.js";
import { NotFoundError } from "../../api/errors.js";
import type { BulkRow, ReportSink, RowResult } from "../../bulk/index.js";
import type { JsonObject } from "../../contract/records.js";
import type { WireRecord } from "../../contract/validate.js";
import type { Deps } from "../../deps.js";
import { requireUser } from "../../deps.js";
import { ConflictError } from "../../errors.js";
import { formatFor } from "../../fleet/format.js";
import { PLAN_FIELDS, type Plan, sameValue } from "../../fleet/plan.js";
import { fetchRecord, VEHICLE } from "../../resources/safe-edit.js";
import { confirmDestructive } from "../confirm.js";

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
  concurrency?: string;
  report?: string;
  restart?: boolean;
  /** Ask (TTY) or require --yes: always for a selection or several vehicles; a single named vehicle need not. */
  confirm?: boolean;
}

interface SavedPlan {
  change: Array<{ vehicle_id: number; reg: string; before: WireRecord; after: WireRecord }>;
  remove: Array<{ vehicle_id: number; reg: string; record: JsonObject }>;
}

const same = (a: WireRecord, b: WireRecord) => {
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const spec = PLAN_FIELDS.find((f) => f.name === k);
    if (!sameValue(spec, a[k] ?? null, b[k] ?? null)) return false;
  }
  return true;
};

async function currentInputOf(deps: Deps, id: number): Promise<WireRecord | undefined> {
  const { currentInput } = await import("../../fleet/plan.js");
  try {
    return currentInput(await fetchRecord(deps, VEHICLE, id));
  } catch (e) {
    if (e instanceof NotFoundError) return undefined;
    throw e;
  }
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
  const {
    RowLog,
    runBulk,
    interruptOnCtrlC,
    createProgress,
    summaryLine,
    bulkExitError,
    reportToFile,
    reportToStream,
  } = await import("../../bulk/index.js");
  const contentHash = createHash("sha256").update(JSON.stringify(opts.intent)).digest("hex");
  const journal = await RowLog.open(
    deps.paths.dataDir,
    { job: `vehicle.${opts.verb}`, env: target.env, baseUrl: target.baseUrl, owner, contentHash },
    { restart: opts.restart },
  );
  // The plan of the run that started this job: a rerun continues it rather than planning anew.
  const planFile = `${journal.file}.plan.json`;
  let saved: SavedPlan | undefined;
  if (journal.resumed) {
    saved = await readFile(planFile, "utf8")
      .then((t) => JSON.parse(t) as SavedPlan)
      .catch(() => undefined);
  }
  if (saved) {
    deps.msg.info(
      `resuming an interrupted ${opts.verb} of ${saved.change.length + saved.remove.length} vehicles (--restart to plan afresh)`,
    );
  } else {
    if (opts.confirm !== false || count > 1)
      await confirmDestructive(
        deps,
        `${opts.verb === "remove" ? "Remove" : "Change"} ${count} vehicle${count === 1 ? "" : "s"} on ${target.env}?`,
        `${opts.verb} ${count} vehicle${count === 1 ? "" : "s"}`,
      );
    saved = {
      change: plan.change.map((ch) => ({ vehicle_id: ch.vehicle_id, reg: ch.reg, before: ch.before, after: ch.after })),
      remove: plan.remove.map((r) => ({ vehicle_id: r.vehicle_id, reg: r.reg, record: r.record })),
    };
    const tmp = `${planFile}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify(saved), { mode: 0o600 });
    await rename(tmp, planFile);
    // One undo entry for the whole change: `rentctl undo OP` restores every vehicle.
    const { historyFor, historyTarget } = await import("../../history/history.js");
    const before = new Map<number, JsonObject>();
    for (const ch of plan.change) before.set(ch.vehicle_id, ch.record);
    for (const r of plan.remove) before.set(r.vehicle_id, r.record);
    const entry = historyFor(deps.paths.dataDir, target)?.record(
      {
        action: plan.remove.length ? "vehicle.remove" : "vehicle.edit",
        id: [...before.keys()][0]!,
        ...historyTarget(target),
        before: before.values().next().value!,
        items: [...before].map(([id, b]) => ({ id, before: b })),
      },
      deps.now(),
    );
    if (entry)
      deps.msg.info(deps.color.dim(`undo ${count === 1 ? "it" : `all ${count}`} with: rentctl undo ${entry.op}`));
  }
  const plannedChange = saved.change;
  const plannedRemove = saved.remove;
  deps.msg.acting(
    target,
    `${opts.verb === "remove" ? "removing" : "changing"} ${plannedChange.length + plannedRemove.length} vehicles`,
  );

  type Item = { kind: "change"; c: SavedPlan["change"][number] } | { kind: "remove"; r: SavedPlan["remove"][number] };
  async function* rows(): AsyncGenerator<BulkRow<Item>> {
    for (const ch of plannedChange)
      yield { row: ch.vehicle_id, key: ch.reg || String(ch.vehicle_id), item: { kind: "change", c: ch } };
    for (const r of plannedRemove)
      yield { row: r.vehicle_id, key: r.reg || String(r.vehicle_id), item: { kind: "remove", r } };
  }
  const client = await deps.client();
  const fixed: EncodableRecord = { user_id: owner, locale_id: await deps.locale() };
  const conflict = (id: number) =>
    new ConflictError(`vehicle ${id} changed since the plan was made; it was not overwritten`, {
      hint: "run the command again (or `vehicle diff`) to plan from the new values",
    });

  const sinks: ReportSink[] = [];
  const quiet = Boolean(deps.flags.quiet);
  const output = deps.settings().output;
  if (!quiet && output !== "table")
    sinks.push(await reportToStream(deps.io.stdout as Writable, formatFor("-", output === "yaml" ? "yaml" : output)));
  if (opts.report) sinks.push(await reportToFile(opts.report));
  const total = plannedChange.length + plannedRemove.length;
  const progress = await createProgress(deps.io.stderr, deps.io.stderrTTY && !quiet, total, opts.verb);
  const control = interruptOnCtrlC(deps.io.stderr);
  const { parseConcurrency } = await import("./import.js");
  const concurrency = parseConcurrency(opts.concurrency);
  (await deps.client()).limitConnections(concurrency);
  let summary: Awaited<ReturnType<typeof runBulk>>;
  try {
    summary = await runBulk<Item>({
      rows: rows(),
      total,
      concurrency,
      journal,
      control,
      reconcile: async (row) => {
        const cur = await currentInputOf(deps, row.row);
        if (row.item.kind === "remove") return cur === undefined ? { status: "removed", id: row.row } : undefined;
        if (cur && same(cur, row.item.c.after)) return { status: "changed", id: row.row };
        return undefined; // still the old record (sent again by the task), or moved (the task reports the conflict)
      },
      task: async (row, ctx) => {
        const cur = await currentInputOf(deps, row.row);
        if (row.item.kind === "remove") {
          if (cur === undefined) return { status: "removed", id: row.row };
          await ctx.beforeWrite();
          await client.call("vehicles.remove", { user_id: owner, vehicle_id: row.row }, { signal: ctx.signal });
          return { status: "removed", id: row.row };
        }
        const { before, after } = row.item.c;
        if (cur === undefined) throw conflict(row.row);
        if (same(cur, after)) return { status: "changed", id: row.row };
        if (!same(cur, before)) throw conflict(row.row);
        await ctx.beforeWrite();
        await client.call(
          "vehicles.edit",
          { vehicle_id: row.row, ...fixed, ...(after as EncodableRecord) },
          { signal: ctx.signal },
        );
        return { status: "changed", id: row.row };
      },
      onResult: async (r: RowResult) => {
        progress.tick();
        for (const s of sinks) await s.add(r);
        if (quiet && r.id !== undefined && (r.status === "changed" || r.status === "removed"))
          deps.io.stdout.write(`${r.id}\n`);
      },
    });
  } finally {
    control.uninstall();
    progress.stop();
  }
  for (const s of sinks) await s.close();
  deps.io.stderr.write(`${summaryLine(summary, ["changed", "removed", "failed"])}\n`);
  const err = bulkExitError(summary);
  if (!summary.interrupted && !summary.stoppedBy && summary.failed.length === 0) {
    await journal.finish();
    await rm(planFile, { force: true });
  } else await journal.close();
  if (err) throw err;
}
