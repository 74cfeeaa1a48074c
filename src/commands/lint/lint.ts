import { FindingsError, UsageError } from "../../base/errors.js";
import type { Deps } from "../../deps.js";
import { formatFor } from "../../files/format.js";
import { openSource } from "../../files/source.js";
import { checkTargetDir } from "../../files/write.js";
import { planAccountDocument } from "../../ops/account/plan.js";
import { loadConfig } from "../../ops/lint/config.js";
import { fixable, fixDocument, unfixable } from "../../ops/lint/fix.js";
import { lintAccount, reaches } from "../../ops/lint/lint.js";
import { saveSavedPlan } from "../../plans/saved-plan.js";
import { flag } from "../flags.js";
import { defineVerb } from "../verb.js";
import * as render from "./render.js";

const LEVELS = ["error", "warning", "info"] as const;
/** The members a finding may have, in order (csv's columns). */
const FINDING_KEYS = [
  "rule",
  "severity",
  "category",
  "vehicle_id",
  "registration",
  "model",
  "row",
  "extra_id",
  "extra",
  "field",
  "message",
  "line",
  "column",
  "fix",
];

export const verb = defineVerb({
  name: "lint",
  description: "Check the account's listings (or an account / fleet file) for problems before customers see them",
  flags: {
    file: flag.string(
      "-f, --file <file>",
      "an account or fleet file (.yaml, .json, .ndjson, .csv) instead of the live account; - for stdin with --format",
    ),
    format: flag.string("--format <format>", "the file's format: yaml, json, ndjson or csv (default: by extension)"),
    config: flag.string("--config <file>", "rules configuration (default: the nearest .rentctl-lint.yaml upward)"),
    failOn: flag.choice(
      "--fail-on <severity>",
      "exit 10 when a finding is at least this severe: error, warning or info",
      LEVELS,
      { default: "error" },
    ),
    fix: flag.bool(
      "--fix",
      "save the safe fixes (past calendar dates, surrounding whitespace, a registration's spacing) as a plan for `account apply --plan` (needs --out; the live account only)",
    ),
    out: flag.string("--out <file>", "where --fix saves the plan"),
    markdown: flag.bool("--markdown", "same as -o markdown: the findings as a pull-request comment"),
    sarif: flag.bool("--sarif", "same as -o sarif: SARIF 2.1.0 for code scanning"),
  },
  examples: [
    "rentctl lint",
    "rentctl lint -f account.yaml -o sarif > lint.sarif",
    "rentctl lint -o markdown > lint.md",
    "rentctl lint --fix --out fixes.json   # then: rentctl account apply --plan fixes.json",
  ],
  notes: `
Rules, their severities and thresholds: README "Lint". A .rentctl-lint.yaml
turns rules off, re-rates them and changes thresholds:
  rules:
    no-images: off
    short-description: { severity: warning, min_length: 120 }

Exit codes: 0 no finding at or above --fail-on, 10 some, 2 a bad file or config.
lint only reads: nothing is sent, with or without --fix.
`,
  outputs: { markdown: "markdown", sarif: "sarif" },
  run: (deps, _args, opts) => run(deps, opts),
});

export interface LintOptions {
  file?: string;
  format?: string;
  config?: string;
  failOn: (typeof LEVELS)[number];
  fix?: boolean;
  out?: string;
  markdown?: boolean;
  sarif?: boolean;
}

export async function run(deps: Deps, opts: LintOptions): Promise<void> {
  if (opts.fix && !opts.out) throw new UsageError("--fix needs --out FILE: the fixes are saved as a plan, never sent");
  if (opts.out && !opts.fix) throw new UsageError("--out is where --fix saves its plan: add --fix");
  if (opts.fix && opts.file)
    throw new UsageError("--fix plans changes to the live account, not to a file: edit the file, then lint it again", {
      hint: "for the live account's fixes run `rentctl lint --fix --out plan.json` without -f",
    });
  if (opts.out) await checkTargetDir(opts.out, "--out");
  const config = await loadConfig({ file: opts.config, cwd: process.cwd() });
  let result: Awaited<ReturnType<typeof lintAccount>>;
  if (opts.file) {
    const source = await openSource(deps, opts.file, formatFor(opts.file, opts.format));
    try {
      result = await lintAccount(
        deps,
        { file: { path: source.path, format: source.format, label: source.label }, config },
        {},
      );
    } finally {
      await source.cleanup();
    }
    // positions and SARIF name the file as given (stdin: no positions)
    if (opts.file !== "-") result.file = { path: opts.file, format: source.format };
    else result.file = undefined;
  } else result = await lintAccount(deps, { config }, {});

  await print(deps, result, opts);
  if (opts.fix && opts.out) await saveFixes(deps, result, opts.out);
  if (reaches(result, opts.failOn)) {
    const n = result.findings.filter((f) => LEVELS.indexOf(f.severity) <= LEVELS.indexOf(opts.failOn)).length;
    throw new FindingsError(`${n} finding${n === 1 ? "" : "s"} at or above ${opts.failOn}`);
  }
}

async function print(deps: Deps, result: Awaited<ReturnType<typeof lintAccount>>, opts: LintOptions) {
  const format = deps.settings().output;
  if (opts.sarif) deps.io.stdout.write(`${JSON.stringify(render.sarif(result, process.cwd()), null, 2)}\n`);
  else if (opts.markdown) deps.io.stdout.write(render.markdown(result));
  else if (format === "table") {
    const c = deps.outColor;
    for (const line of render.tableLines(result, {
      bold: c.bold,
      red: c.red,
      yellow: c.yellow,
      cyan: c.cyan,
      dim: c.dim,
    }))
      deps.io.stdout.write(`${line}\n`);
  } else {
    // a page at a time (a large account has tens of thousands of findings); the columns of every finding for csv
    const writer = deps.out.listWriter(FINDING_KEYS.map((key) => ({ key })));
    const items = result.findings as unknown as Parameters<Deps["out"]["list"]>[0];
    for (let i = 0; i < items.length; i += 500) await writer.push(items.slice(i, i + 500));
    await writer.end();
    deps.msg.info(render.summaryLine(result));
  }
}

/** The fixes as a saved account plan (as `account diff --out` saves one): `account apply --plan` applies it. */
async function saveFixes(deps: Deps, result: Awaited<ReturnType<typeof lintAccount>>, out: string): Promise<void> {
  // the one "plan a document and save the plan" (what account diff --out and MCP plan_changes use)
  const { plan, saved } = await planAccountDocument(
    deps,
    { source: { document: fixDocument(result.findings), label: "lint-fixes.json" } },
    { save: true },
  );
  await saveSavedPlan(out, saved!);
  const n = fixable(result.findings).length;
  const left = unfixable(result.findings).length;
  if (left)
    deps.msg.warn(
      `${left} fixable finding${left === 1 ? "" : "s"} left out: ${left === 1 ? "its" : "their"} registration is on more than one vehicle (fix duplicate-registration first)`,
    );
  deps.msg.info(
    `plan saved to ${out}: fixes ${n} finding${n === 1 ? "" : "s"} (${plan.vehicles.plan.change.length} vehicle${plan.vehicles.plan.change.length === 1 ? "" : "s"} to change); apply it with \`rentctl account apply --plan ${out}\``,
  );
}
