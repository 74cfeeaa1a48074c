import { relative, sep } from "node:path";
import { VERSION } from "../../base/version.js";
import type { Finding, LintResult } from "../../ops/lint/lint.js";
import { RULES, type Severity, severityRank } from "../../ops/lint/rules.js";

/**
 * How `rentctl lint` shows its findings: a table for a person (grouped by
 * vehicle, worst first, then a summary line), markdown for a pull-request
 * comment, SARIF 2.1.0 for code scanning. json / ndjson / yaml / csv go
 * through the common list writer (one finding per item).
 */

const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? "" : "s"}`;

/** `2 errors, 1 warning, 0 infos in 12 vehicles and 3 extras (account)`. */
export function summaryLine(r: LintResult): string {
  const c = r.counts;
  return `${plural(c.error, "error")}, ${plural(c.warning, "warning")}, ${plural(c.info, "info")} in ${plural(r.vehicles, "vehicle")}${r.extras ? ` and ${plural(r.extras, "extra")}` : ""} (${r.source})`;
}

interface Group {
  title: string;
  worst: number;
  findings: Finding[];
}

/** Findings per vehicle (or extra), each group's worst first, groups worst first then by their order in the input. */
export function groupFindings(findings: readonly Finding[]): Group[] {
  const groups = new Map<string, Group & { order: number }>();
  findings.forEach((f, order) => {
    const key = f.extra !== undefined ? `x${f.row}` : `v${f.vehicle_id ?? ""}/${f.row ?? ""}/${f.registration ?? ""}`;
    let g = groups.get(key);
    if (!g) {
      g = { title: titleOf(f), worst: -1, findings: [], order };
      groups.set(key, g);
    }
    g.findings.push(f);
    g.worst = Math.max(g.worst, severityRank(f.severity));
  });
  const list = [...groups.values()].sort((a, b) => b.worst - a.worst || a.order - b.order);
  for (const g of list) g.findings.sort((a, b) => severityRank(b.severity) - severityRank(a.severity));
  return list;
}

function titleOf(f: Finding): string {
  if (f.extra !== undefined) return `extra ${f.extra}${f.extra_id !== undefined ? ` (id ${f.extra_id})` : ""}`;
  const name = f.registration?.trim() || (f.row !== undefined ? `row ${f.row}` : "vehicle");
  const where = [f.vehicle_id !== undefined ? `id ${f.vehicle_id}` : undefined, f.line ? `line ${f.line}` : undefined]
    .filter(Boolean)
    .join(", ");
  return `${name}${f.model ? `  ${f.model}` : ""}${where ? `  (${where})` : ""}`;
}

export interface Paint {
  bold(s: string): string;
  red(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
  dim(s: string): string;
}

/** The table for a person: one block per vehicle or extra, then the summary line. */
export function tableLines(r: LintResult, paint: Paint): string[] {
  const out: string[] = [];
  const sev = (s: Severity) => (s === "error" ? paint.red : s === "warning" ? paint.yellow : paint.cyan)(s.padEnd(7));
  const ruleWidth = Math.max(0, ...r.findings.map((f) => f.rule.length));
  const fieldWidth = Math.max(0, ...r.findings.map((f) => (f.field ?? "").length));
  for (const g of groupFindings(r.findings)) {
    out.push(paint.bold(g.title));
    for (const f of g.findings) {
      const detail = f.message.slice(f.message.indexOf(": ") + 2);
      out.push(`  ${sev(f.severity)}  ${f.rule.padEnd(ruleWidth)}  ${(f.field ?? "").padEnd(fieldWidth)}  ${detail}`);
    }
    out.push("");
  }
  out.push(r.findings.length ? summaryLine(r) : `no findings: ${summaryLine(r)}`);
  return out;
}

const mdCell = (s: string) => s.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");

/** A pull-request comment: the summary, then a table per vehicle or extra (worst first). */
export function markdown(r: LintResult): string {
  const lines = ["## rentctl lint", "", `**${summaryLine(r)}**`, ""];
  if (!r.findings.length) return `${lines.join("\n")}No findings.\n`;
  lines.push("| | severity | rule | field | finding |", "|---|---|---|---|---|");
  const icon: Record<Severity, string> = { error: "❌", warning: "⚠️", info: "ℹ️" };
  for (const g of groupFindings(r.findings))
    for (const f of g.findings)
      lines.push(
        `| ${icon[f.severity]} | ${f.severity} | \`${f.rule}\` | ${f.field ? `\`${f.field}\`` : ""} | ${mdCell(f.message)} |`,
      );
  return `${lines.join("\n")}\n`;
}

const LEVEL: Record<Severity, "error" | "warning" | "note"> = { error: "error", warning: "warning", info: "note" };

/**
 * SARIF 2.1.0: one run of the tool `rentctl`, its rules with their default
 * levels, one result per finding. For a file, each result's location is the
 * line and column of the field (else of the vehicle) in it, relative to `base`
 * (the working directory, as code scanning expects paths from the repository
 * root); for the live account, a logical location (the vehicle) only.
 */
export function sarif(r: LintResult, base: string): Record<string, unknown> {
  const uri = r.file ? relative(base, r.file.path).split(sep).join("/") : undefined;
  const index = new Map(RULES.map((rule, i) => [rule.id, i]));
  return {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "rentctl",
            version: VERSION,
            informationUri: "https://www.npmjs.com/package/rentctl",
            rules: RULES.map((rule) => ({
              id: rule.id,
              name: rule.id.replace(/(^|-)(\w)/g, (_m, _d, c: string) => c.toUpperCase()),
              shortDescription: { text: rule.what },
              fullDescription: { text: `${rule.what}: ${rule.why}` },
              help: { text: rule.why },
              defaultConfiguration: { level: LEVEL[rule.severity] },
              properties: { category: rule.category, fixable: Boolean(rule.fixable) },
            })),
          },
        },
        ...(uri ? { artifacts: [{ location: { uri } }] } : {}),
        results: r.findings.map((f) => ({
          ruleId: f.rule,
          ruleIndex: index.get(f.rule),
          level: LEVEL[f.severity],
          message: { text: f.message },
          locations: [
            {
              ...(uri && f.line
                ? {
                    physicalLocation: {
                      artifactLocation: { uri, index: 0 },
                      region: { startLine: f.line, startColumn: f.column ?? 1 },
                    },
                  }
                : {}),
              logicalLocations: [
                {
                  name: f.extra ?? f.registration ?? `row ${f.row}`,
                  fullyQualifiedName: [
                    f.extra !== undefined ? "extras" : "vehicles",
                    f.extra ?? f.registration,
                    f.field,
                  ]
                    .filter((x) => x !== undefined && x !== "")
                    .join("/"),
                  kind: "object",
                },
              ],
            },
          ],
          partialFingerprints: {
            finding: [f.rule, f.vehicle_id ?? f.registration ?? f.extra ?? "", f.field ?? ""].join("|"),
          },
          properties: {
            ...(f.vehicle_id !== undefined ? { vehicle_id: f.vehicle_id } : {}),
            ...(f.registration !== undefined ? { registration: f.registration } : {}),
            ...(f.field ? { field: f.field } : {}),
          },
        })),
      },
    ],
  };
}
