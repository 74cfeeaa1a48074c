import { DriftError, UsageError } from "../../base/errors.js";
import { FieldNames } from "../../catalog/names.js";
import type { JsonObject } from "../../contract/records.js";
import type { Deps } from "../../deps.js";
import { checkTargetDir } from "../../files/write.js";
import { planFleetFile } from "../../ops/vehicle/diff.js";
import { emptyExtraPlan } from "../../plans/account-extras.js";
import { accountPlanMarkdown } from "../../plans/account-print.js";
import type { Plan } from "../../plans/plan.js";
import type { PlanColors, PlanPrintOptions } from "../../plans/plan-print.js";
import { planJson, planLines } from "../../plans/plan-print.js";
import { saveSavedPlan } from "../../plans/saved-plan.js";
import type { SyncPlan } from "../../plans/sync.js";
import { flag } from "../flags.js";
import { defineVerb } from "../verb.js";

/** The fleet-file flags of `vehicle diff` and `vehicle apply`. */
export const fleetFileFlags = {
  file: flag.string("-f, --file <file>", "fleet file (.json, .ndjson, .yaml, .csv), or - for stdin with --format", {
    required: true,
  }),
  format: flag.string("--format <format>", "json, ndjson, yaml or csv (default: by extension)"),
  prune: flag.bool("--prune", "also remove the account's vehicles that the file does not list"),
  exact: flag.bool("--exact", "fields a row leaves out must be empty (the plan clears them)"),
};

/** `diff --out FILE`: save the plan for `apply --plan FILE`. */
export const outFlag = flag.string(
  "--out <file>",
  "also save the plan (target, input, record fingerprints; never the API key) for `apply --plan FILE`",
);

export const verb = defineVerb({
  name: "diff",
  description: "Show what `vehicle apply` would change to make the account match a fleet file (exit 8: changes)",
  flags: {
    ...fleetFileFlags,
    out: outFlag,
    markdown: flag.bool(
      "--markdown",
      "same as -o markdown: a review summary in markdown (for a pull request) instead of the plan",
    ),
  },
  examples: [
    "rentctl vehicle diff -f fleet.yaml",
    "rentctl vehicle diff -f fleet.csv --prune -o json",
    "rentctl vehicle diff -f fleet.yaml -o markdown > plan.md   # a review summary for a pull request",
    "rentctl vehicle diff -f fleet.yaml --out plan.json && rentctl vehicle apply --plan plan.json",
  ],
  notes: "\nExit codes: 0 nothing to do, 8 the plan has changes, 2 invalid file. -v also lists unchanged vehicles.\n",
  outputs: { markdown: "markdown" },
  run: (deps, _args, opts) => run(deps, opts),
});

/** The options of a file diff (`vehicle diff`, `account diff`): the file, and what to write besides the plan. */
export interface FileDiffOptions {
  file?: string;
  format?: string;
  /** --out FILE: save the plan. */
  out?: string;
  /** --markdown: the review summary instead of the plan. */
  markdown?: boolean;
}

export interface DiffOptions extends FileDiffOptions {
  prune?: boolean;
  exact?: boolean;
}

/**
 * Names beside catalog ids in a plan for people (text and markdown), when the
 * file gave names (`export --names`): each distinct value of the plan's
 * creates and changes looked up once through the catalog service (a view's
 * names: never fails, an unknown id stays bare). undefined: no names wanted.
 */
export async function planLabels(deps: Deps, sync: SyncPlan): Promise<PlanPrintOptions["label"]> {
  if (!sync.named) return undefined;
  const names = new FieldNames(deps.catalogs());
  const found = new Map<string, string | undefined>();
  const look = async (field: string, v: unknown, record: JsonObject) => {
    if (field === "vehicle_extras" || !names.names(field)) return;
    for (const id of Array.isArray(v) ? v : [v]) {
      if (typeof id !== "number" || found.has(`${field}|${id}`)) continue;
      found.set(`${field}|${id}`, await names.name(field, id, record));
    }
  };
  for (const c of sync.plan.create) for (const [k, v] of Object.entries(c.record)) await look(k, v, c.record);
  for (const c of sync.plan.change)
    for (const [k, f] of Object.entries(c.fields)) {
      await look(k, f.from, c.before);
      await look(k, f.to, c.after);
    }
  return (field, value) => found.get(`${field}|${value}`);
}

export function planColors(c: Deps["outColor"]): PlanColors {
  return { green: (s) => c.green(s), yellow: (s) => c.yellow(s), red: (s) => c.red(s), dim: (s) => c.dim(s) };
}

/**
 * `vehicle diff -f FILE`: the plan on stdout (text, or data with -o json /
 * yaml); exit 0 when there is nothing to do, 8 when there is.
 */
export async function run(deps: Deps, opts: DiffOptions): Promise<void> {
  if (!opts.file) throw new UsageError("missing -f FILE (a fleet file, or - for stdin with --format)");
  if (opts.out) await checkTargetDir(opts.out, "--out");
  const {
    sync,
    label: fileLabel,
    changes,
    saved,
  } = await planFleetFile(
    deps,
    { source: { path: opts.file, format: opts.format }, prune: opts.prune, exact: opts.exact },
    { save: Boolean(opts.out), listUnchanged: Boolean(deps.flags.verbose) },
  );
  const format = deps.settings().output;
  const label = opts.markdown || format === "table" ? await planLabels(deps, sync) : undefined;
  if (opts.markdown) {
    deps.io.stdout.write(
      accountPlanMarkdown(
        { label: fileLabel, extras: emptyExtraPlan(false), vehicles: sync, extraLabels: new Map(), accountExtras: [] },
        label,
      ),
    );
  } else if (format === "table") await printPlanLines(deps, sync.plan, deps.io.stdout, deps.outColor, label);
  else await deps.out.record(planJson(sync.plan));
  if (opts.out && saved) {
    await saveSavedPlan(opts.out, saved);
    deps.msg.info(`plan saved to ${opts.out}: apply it with \`rentctl vehicle apply --plan ${opts.out}\``);
  }
  if (changes) throw new DriftError("the account differs from the file");
}

/** A fleet plan's lines for people, on stdout (diff, a dry run) or stderr (before an apply). */
export async function printPlanLines(
  deps: Deps,
  plan: Plan,
  out: NodeJS.WritableStream,
  color: Deps["outColor"],
  label?: PlanPrintOptions["label"],
): Promise<void> {
  for (const line of planLines(plan, { color: planColors(color), verbose: Boolean(deps.flags.verbose), label }))
    out.write(`${line}\n`);
}
