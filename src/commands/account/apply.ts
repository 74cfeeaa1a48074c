import { UsageError } from "../../base/errors.js";
import type { AccountApplyRun } from "../../bulk/account-apply.js";
import * as jobs from "../../bulk/account-apply.js";
import { openBulkJob } from "../../bulk/job.js";
import { ACCOUNT_REPORT_COLUMNS } from "../../bulk/report.js";
import { hashFile } from "../../bulk/row-log.js";
import type { Deps } from "../../deps.js";
import { formatFor } from "../../files/format.js";
import { openSource } from "../../files/source.js";
import { applyAccountPlan } from "../../ops/account/apply.js";
import { checkSavedAccountPlan } from "../../ops/account/plan.js";
import * as ops from "../../ops/vehicle/edit-plan.js";
import type { AccountPlan } from "../../plans/account-plan.js";
import * as print from "../../plans/account-print.js";
import type { SavedPlan } from "../../plans/saved-plan.js";
import * as sp from "../../plans/saved-plan.js";
import { confirmDestructive } from "../confirm.js";
import { reportIfNothingRan } from "../empty-results.js";
import { flag } from "../flags.js";
import type { FileApplyOptions } from "../vehicle/apply.js";
import { applyRunFlags, DEFAULT_CONCURRENCY } from "../vehicle/concurrency.js";
import { planColors } from "../vehicle/diff.js";
import { runBulkChange } from "../vehicle/many.js";
import { defineVerb } from "../verb.js";
import { accountFileFlags, planAccountFile, printAccountPlan } from "./diff.js";

export const verb = defineVerb({
  name: "apply",
  description:
    "Make the account match an account file: extras first, then vehicles, then removals (resumable, one undo op)",
  flags: {
    ...accountFileFlags,
    file: flag.string("-f, --file <file>", "account file (.yaml or .json; a fleet file manages vehicles only)"),
    plan: flag.string("--plan <file>", "apply exactly the plan `account diff --out FILE` saved (refused when stale)"),
    ...applyRunFlags(),
  },
  examples: [
    "rentctl account apply -f account.yaml",
    "rentctl account apply -f account.yaml --dry-run",
    "rentctl account apply --plan plan.json --yes",
    "rentctl account export --names -p staging account.yaml && rentctl account apply -f account.yaml -p production",
  ],
  notes: "\nThe plan goes to stderr; per-row results to stdout with -o. Undo the whole apply with `rentctl undo OP`.\n",
  run: (deps, _args, opts) => run(deps, opts),
});

export type AccountApplyOptions = FileApplyOptions;

/**
 * `account apply -f FILE`: plan as `account diff` does, print the plan on
 * stderr, confirm (TTY) or --yes, then run it through the one account apply
 * (src/bulk/account-apply.ts, shared with the library's fleet.apply).
 */
export async function run(deps: Deps, opts: AccountApplyOptions): Promise<void> {
  const started = Date.now();
  const dryRun = Boolean(deps.flags.dryRun);
  if (opts.plan) {
    if (opts.file) throw new UsageError("give -f FILE or --plan PLAN, not both (a saved plan holds its input)");
    return runSaved(deps, opts, opts.plan, started, dryRun);
  }
  if (!opts.file) throw new UsageError("missing -f FILE (an account file) or --plan PLAN");
  if (opts.file === "-") throw new UsageError("account apply reads a file, not stdin", { hint: "save the file first" });
  const source = await openSource(deps, opts.file, formatFor(opts.file, opts.format));
  let contentHash: string;
  try {
    contentHash = await jobs.accountJobHash(await hashFile(source.path), opts);
  } finally {
    await source.cleanup();
  }

  if (dryRun) {
    const plan = await planAccountFile(deps, opts);
    await printAccountPlan(deps, plan);
    deps.msg.info("dry run: nothing was sent");
    return;
  }
  const job = await openBulkJob(deps, {
    job: "account.apply",
    contentHash,
    restart: opts.restart,
    what: `account apply of ${opts.file}`,
    report: opts.report,
  });
  try {
    const result = await jobs.runAccountJob(
      deps,
      job,
      opts.file,
      () => planAccountFile(deps, opts),
      runOptions(deps, opts, started),
    );
    await reportIfNothingRan(deps, result, opts.report, ACCOUNT_REPORT_COLUMNS);
  } finally {
    await job.close();
  }
}

/** What the CLI adds to the shared apply: the plan on stderr, the confirmation, the flags. */
function runOptions(deps: Deps, opts: AccountApplyOptions, started: number): AccountApplyRun {
  return {
    ...opts,
    concurrency: opts.concurrency ?? DEFAULT_CONCURRENCY,
    started,
    show: (plan: AccountPlan) => showPlan(deps, plan),
    confirm: async (question) => {
      await confirmDestructive(deps, question, "apply the plan");
    },
  };
}

async function showPlan(deps: Deps, plan: AccountPlan): Promise<void> {
  for (const line of print.accountPlanLines(plan, {
    color: planColors(deps.color),
    verbose: Boolean(deps.flags.verbose),
  }))
    deps.io.stderr.write(`${line}\n`);
}

/** `account apply --plan PLAN`: the saved plan's input planned again; refused when the target differs or the plan is stale. */
async function runSaved(
  deps: Deps,
  opts: AccountApplyOptions,
  planFile: string,
  started: number,
  dryRun: boolean,
): Promise<void> {
  // an account plan, or a plan of many vehicles (the MCP server's plan_changes saves one)
  const saved = await sp.readSavedPlan(planFile, ["account", "edit"]);
  if (saved.kind === "edit") return runSavedEdit(deps, opts, saved);
  if (dryRun) {
    const plan = await checkSavedAccountPlan(deps, saved, { listUnchanged: Boolean(deps.flags.verbose) });
    await printAccountPlan(deps, plan);
    deps.msg.info("dry run: nothing was sent");
    return;
  }
  const run = runOptions(deps, opts, started);
  const result = await applyAccountPlan(
    deps,
    {
      saved,
      concurrency: opts.concurrency,
      allowMassDelete: opts.allowMassDelete,
      restart: opts.restart,
      report: opts.report,
      dedupe: opts.dedupe,
      started,
    },
    { show: run.show, confirm: run.confirm },
  );
  await reportIfNothingRan(deps, result, opts.report, ACCOUNT_REPORT_COLUMNS);
}

/** `account apply --plan PLAN` of a plan of many vehicles: checked as stale, then run as `vehicle edit --where` runs one. */
async function runSavedEdit(deps: Deps, opts: AccountApplyOptions, saved: SavedPlan): Promise<void> {
  const plan = await ops.checkSavedEditPlan(deps, saved);
  await runBulkChange(deps, plan, {
    verb: "edit",
    intent: ops.editPlanIntent(saved),
    concurrency: opts.concurrency,
    report: opts.report,
    restart: opts.restart,
    confirm: true,
  });
}
