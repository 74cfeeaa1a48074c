import type { Deps } from "../../deps.js";
import type { ApplyFleetInput } from "../../ops/vehicle/apply.js";
import * as ops from "../../ops/vehicle/apply.js";
import { planJson } from "../../plans/plan-print.js";
import { readSavedPlan } from "../../plans/saved-plan.js";
import { confirmDestructive } from "../confirm.js";
import { reportIfNothingRan } from "../empty-results.js";
import { flag } from "../flags.js";
import { defineVerb } from "../verb.js";
import { applyRunFlags, DEFAULT_CONCURRENCY } from "./concurrency.js";
import { fleetFileFlags, printPlanLines } from "./diff.js";

export const verb = defineVerb({
  name: "apply",
  description: "Make the account match a fleet file: plan, confirm, then create / safe-edit / remove (resumable)",
  flags: {
    ...fleetFileFlags,
    file: flag.string("-f, --file <file>", "fleet file (.json, .ndjson, .yaml, .csv), or - for stdin with --format"),
    plan: flag.string("--plan <file>", "apply exactly the plan `vehicle diff --out FILE` saved (refused when stale)"),
    ...applyRunFlags(),
  },
  examples: [
    "rentctl vehicle apply -f fleet.yaml",
    "rentctl vehicle apply -f fleet.yaml --dry-run",
    "rentctl vehicle apply -f fleet.csv --prune --yes --report result.csv",
    "rentctl vehicle export fleet.yaml --names -p staging && rentctl vehicle apply -f fleet.yaml -p production",
    "rentctl vehicle diff -f fleet.yaml --out plan.json && rentctl vehicle apply --plan plan.json --yes",
  ],
  notes: "\nThe plan goes to stderr; per-row results to stdout with -o. Undo with `rentctl undo OP`.\n",
  run: (deps, _args, opts) => run(deps, opts),
});

/** The options of a file apply (`vehicle apply`, `account apply`): the input and the one bulk job's. */
export interface FileApplyOptions
  extends Pick<
    ApplyFleetInput,
    "prune" | "exact" | "allowMassDelete" | "concurrency" | "restart" | "report" | "dedupe"
  > {
  file?: string;
  /** --plan FILE: a saved plan (plans/saved-plan.ts) instead of -f. */
  plan?: string;
  format?: string;
}

/**
 * `vehicle apply -f FILE`: plan as `vehicle diff` does, print the plan on
 * stderr, confirm (TTY) or --yes, then run the apply op (src/ops/vehicle/apply.ts):
 * resumable, one undo op (`rentctl undo OP` restores the previous fleet).
 */
export async function run(deps: Deps, opts: FileApplyOptions): Promise<void> {
  const started = Date.now();
  const saved = opts.plan ? await readSavedPlan(opts.plan, "vehicle") : undefined;
  const input = {
    ...(opts.file ? { source: { path: opts.file, format: opts.format } } : {}),
    ...(saved ? { saved } : {}),
    prune: opts.prune,
    exact: opts.exact,
    allowMassDelete: opts.allowMassDelete,
    concurrency: opts.concurrency ?? DEFAULT_CONCURRENCY,
    restart: opts.restart,
    report: opts.report,
    dedupe: opts.dedupe,
    started,
  };
  if (deps.flags.dryRun) {
    const { sync, refusal } = await ops.previewFleetApply(deps, input);
    if (deps.settings().output === "table") await printPlanLines(deps, sync.plan, deps.io.stdout, deps.outColor);
    else await deps.out.record(planJson(sync.plan));
    if (refusal) deps.msg.warn(`${refusal}: apply would refuse without --allow-mass-delete`);
    deps.msg.info("dry run: nothing was sent");
    return;
  }
  const result = await ops.applyFleet(deps, input, {
    show: (plan) => printPlanLines(deps, plan, deps.io.stderr, deps.color),
    confirm: async (question) => {
      await confirmDestructive(deps, question, "apply the plan");
    },
  });
  await reportIfNothingRan(deps, result, opts.report);
}
