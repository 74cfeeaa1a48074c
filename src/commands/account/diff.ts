import { DriftError, UsageError } from "../../base/errors.js";
import type { Deps } from "../../deps.js";
import { checkTargetDir } from "../../files/write.js";
import type { PlannedAccount } from "../../ops/account/plan.js";
import { planAccountDocument } from "../../ops/account/plan.js";
import type { AccountPlan, AccountPlanOptions } from "../../plans/account-plan.js";
import { accountPlanJson, accountPlanLines, accountPlanMarkdown } from "../../plans/account-print.js";
import { saveSavedPlan } from "../../plans/saved-plan.js";
import { flag } from "../flags.js";
import { type FileDiffOptions, outFlag, planColors, planLabels } from "../vehicle/diff.js";
import { defineVerb } from "../verb.js";

/** The account-file flags of `account diff` and `account apply`. */
export const accountFileFlags = {
  file: flag.string(
    "-f, --file <file>",
    "account file (.yaml or .json; a fleet file manages vehicles only), or - with --format",
    {
      required: true,
    },
  ),
  format: flag.string(
    "--format <format>",
    "yaml, json (account files), ndjson or csv (vehicles only); default: by extension",
  ),
  prune: flag.bool("--prune", "also delete the extras and remove the vehicles that the file does not list"),
  exact: flag.bool("--exact", "vehicle fields a row leaves out must be empty (the plan clears them)"),
};

export const verb = defineVerb({
  name: "diff",
  description: "Show what `account apply` would change to make the account match an account file (exit 8: changes)",
  flags: {
    ...accountFileFlags,
    markdown: flag.bool(
      "--markdown",
      "same as -o markdown: a review summary in markdown (for a pull request) instead of the plan",
    ),
    out: outFlag,
  },
  examples: [
    "rentctl account diff -f account.yaml",
    "rentctl account diff -f account.yaml --prune -o markdown > plan.md",
    "rentctl account diff -f account.yaml -o json",
    "rentctl account diff -f account.yaml -o markdown --out plan.json > plan.md   # then: account apply --plan plan.json",
  ],
  notes:
    "\nExit codes: 0 nothing to do, 8 the plan has changes, 2 invalid or inconsistent file. -v also lists unchanged vehicles.\n",
  outputs: { markdown: "markdown" },
  run: (deps, _args, opts) => run(deps, opts),
});

export interface AccountDiffOptions extends AccountPlanOptions, FileDiffOptions {}

/** Open the file (stdin spooled), plan it against the account (the one planning op); shared by diff and apply. */
export async function planAccountFile(deps: Deps, opts: AccountDiffOptions): Promise<AccountPlan> {
  return (await planAccountSource(deps, opts)).plan;
}

/** As planAccountFile, also making the saved plan (with --out). */
export async function planAccountSource(deps: Deps, opts: AccountDiffOptions): Promise<PlannedAccount> {
  if (!opts.file) throw new UsageError("missing -f FILE (an account file, or - for stdin with --format)");
  return planAccountDocument(
    deps,
    { source: { path: opts.file, format: opts.format }, prune: opts.prune, exact: opts.exact },
    { save: Boolean(opts.out), listUnchanged: Boolean(deps.flags.verbose) },
  );
}

/** Print a plan on stdout: text (table), markdown, or the machine plan (-o json / yaml). */
export async function printAccountPlan(deps: Deps, plan: AccountPlan, markdown?: boolean): Promise<void> {
  // -q: the exit code says it (diff: 8 when there are changes), as `git diff --quiet`; a plan mixes
  // extras and vehicles, whose ids one list of identifiers could not tell apart
  if (deps.flags.quiet) return;
  const table = deps.settings().output === "table";
  const label = markdown || table ? await planLabels(deps, plan.vehicles) : undefined;
  if (markdown) deps.io.stdout.write(accountPlanMarkdown(plan, label));
  else if (table) {
    for (const line of accountPlanLines(plan, {
      color: planColors(deps.outColor),
      verbose: Boolean(deps.flags.verbose),
      label,
    }))
      deps.io.stdout.write(`${line}\n`);
  } else await deps.out.record(accountPlanJson(plan));
}

/** `account diff -f FILE`: the plan on stdout; exit 0 when there is nothing to do, 8 when there is. */
export async function run(deps: Deps, opts: AccountDiffOptions): Promise<void> {
  if (opts.out) await checkTargetDir(opts.out, "--out");
  const { plan, changes, saved } = await planAccountSource(deps, opts);
  await printAccountPlan(deps, plan, opts.markdown);
  if (opts.out && saved) {
    await saveSavedPlan(opts.out, saved);
    deps.msg.info(`plan saved to ${opts.out}: apply it with \`rentctl account apply --plan ${opts.out}\``);
  }
  if (changes) throw new DriftError("the account differs from the file");
}
