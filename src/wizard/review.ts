import type { JsonObject } from "../contract/records.js";
import { isEmpty } from "../contract/validate.js";
import type { Deps } from "../deps.js";
import type { FieldDetail } from "../errors.js";
import type { WizardState } from "./ask.js";
import type { WizardCatalogs } from "./catalogs.js";
import { SECTIONS } from "./sections.js";

/** The flag fields shown as yes/no beside 0/1. */
const YES_NO =
  /_(activity|no_deposit|third_party_insurance|exclude_security_deposit|pay_cash|pay_debit_card|pay_credit_card)$/;

export interface ReviewRow {
  section: string;
  field: string;
  value: string;
  name: string;
  problem?: string;
}

function show(v: unknown): string {
  return Array.isArray(v) ? v.map((x) => String(x)).join(", ") : String(v);
}

/** What will be sent, section by section, with the catalog names beside ids and any field problems. */
export function reviewRows(state: WizardState, cat: WizardCatalogs, problems: FieldDetail[] = []): ReviewRow[] {
  const rows: ReviewRow[] = [];
  const problemOf = (f: string) =>
    problems
      .filter((p) => p.field === f)
      .map((p) => p.message)
      .join("; ") || undefined;
  const nameOf = (field: string, v: unknown): string => {
    if (YES_NO.test(field)) return String(v) === "1" ? "yes" : "no";
    const ids = Array.isArray(v) ? v : [v];
    const names = ids.map((id) => cat.name(field, id));
    if (names.every((n) => n === undefined)) return "";
    return names.map((n, i) => n ?? `id ${String(ids[i])}`).join(", ");
  };
  const seen = new Set<string>();
  const add = (section: string, field: string) => {
    seen.add(field);
    const v = state.answers[field];
    const problem = problemOf(field);
    if (isEmpty(v) && !problem) return;
    rows.push({ section, field, value: isEmpty(v) ? "" : show(v), name: isEmpty(v) ? "" : nameOf(field, v), problem });
  };
  for (const s of SECTIONS) {
    for (const f of s.fields) add(s.title, f);
    if (s.key === "images" && state.imageFiles.length) {
      rows.push({
        section: s.title,
        field: "(files to upload)",
        value: state.imageFiles.join(", "),
        name: "uploaded after you confirm",
      });
    }
  }
  for (const f of Object.keys(state.answers)) if (!seen.has(f)) add("Other (as given)", f);
  for (const p of problems) {
    if (!seen.has(p.field) && !(p.field in state.answers))
      rows.push({ section: "Other", field: p.field || "-", value: "", name: "", problem: p.message });
  }
  return rows;
}

const PP = "vehicle_protection_plans_";

/** What the contract allows but a renter would trip over: said under the review, never blocking. */
export function reviewWarnings(answers: Record<string, unknown>): string[] {
  const out: string[] = [];
  const deposit = String(answers[`${PP}no_deposit`]) === "1" && Number(answers[`${PP}deposit_price`] ?? 0) > 0;
  const ways = ["deposit_pay_cash", "deposit_pay_debit_card", "deposit_pay_credit_card"];
  if (deposit && !ways.some((w) => String(answers[`${PP}${w}`]) === "1"))
    out.push(
      "a deposit is taken but no way to pay it is allowed (cash, debit card, credit card): renters could not pay it",
    );
  return out;
}

/** The review table, on stderr (stdout carries only the result). */
export async function renderReview(
  deps: Deps,
  state: WizardState,
  cat: WizardCatalogs,
  problems: FieldDetail[] = [],
): Promise<void> {
  const { renderTable } = await import("../output/table.js");
  const rows = reviewRows(state, cat, problems);
  let last = "";
  const items: JsonObject[] = rows.map((r) => {
    const item: JsonObject = {
      section: r.section === last ? "" : r.section,
      field: r.field,
      value: r.value,
      name: r.name,
    };
    if (problems.length) item.problem = r.problem ?? "";
    last = r.section;
    return item;
  });
  const columns = [
    { key: "section", header: "SECTION" },
    { key: "field", header: "FIELD" },
    { key: "value", header: "VALUE" },
    { key: "name", header: "NAME" },
    ...(problems.length ? [{ key: "problem", header: "PROBLEM" }] : []),
  ];
  const text = renderTable(items, columns, {
    format: "table",
    columns,
    color: deps.color,
    io: deps.io,
  });
  deps.io.stderr.write(`\n${deps.color.bold("Review: this is what will be sent")}\n${text}\n`);
}
