import type { Deps } from "../deps.js";

/**
 * `lint_account`: the findings of `rentctl lint` on the live account, as
 * structured content (read-only: lint never writes). A thin door onto the
 * op (src/ops/lint), declared on its own so it merges beside any rewrite of
 * the tool list (typed structurally: tools.ts lists it among its Tool[]).
 */
export const lintTool = {
  name: "lint_account",
  title: "Lint the account's listings",
  description:
    'Problems in the owner\'s listings before customers see them: contract errors (what the marketplace refuses), consistency warnings (prices rising for longer rentals, deposit mismatches, duplicate VINs or registrations, ages, future years, past or fully blocked calendars) and quality infos (no images, short or copied descriptions, unused or free extras). Each finding: rule, severity, vehicle_id, registration, model, field, message. "fail_on" only sets "failing" in the answer. Example: {"min_severity": "warning"}.',
  inputSchema: {
    type: "object",
    properties: {
      min_severity: {
        type: "string",
        enum: ["info", "warning", "error"],
        default: "info",
        description: "Only findings at least this severe",
      },
      rules: { type: "array", items: { type: "string" }, description: "Only these rule ids (default: all)" },
    },
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: async ({ deps }: { deps: Deps }, args: Record<string, unknown>) => {
    const [{ lintAccount }, { severityRank, RULE_IDS }, { UsageError }, { nearest }] = await Promise.all([
      import("../ops/lint/lint.js"),
      import("../ops/lint/rules.js"),
      import("../errors.js"),
      import("../nearest.js"),
    ]);
    const min = (args.min_severity ?? "info") as "info" | "warning" | "error";
    const only = Array.isArray(args.rules) ? args.rules.map(String) : undefined;
    for (const id of only ?? [])
      if (!RULE_IDS.includes(id)) {
        const near = nearest(id, RULE_IDS);
        throw new UsageError(
          `rules: unknown rule ${JSON.stringify(id)}${near.length ? ` (did you mean ${near.join(", ")}?)` : ""}`,
        );
      }
    const result = await lintAccount(deps, {});
    const findings = result.findings.filter(
      (f) => severityRank(f.severity) >= severityRank(min) && (!only || only.includes(f.rule)),
    );
    const c = result.counts;
    return {
      data: { findings, counts: c, vehicles: result.vehicles, extras: result.extras },
      summary: `${c.error} errors, ${c.warning} warnings, ${c.info} infos in ${result.vehicles} vehicles and ${result.extras} extras${findings.length !== result.findings.length ? ` (${findings.length} shown)` : ""}`,
    };
  },
};
