import type { FieldDetail } from "../base/errors.js";
import { VEHICLE_SECTIONS } from "../contract/sections.js";
import { isEmpty } from "../contract/validate.js";
import type { Deps } from "../deps.js";
import type { CardSection } from "../output/card.js";
import { renderCard } from "../output/card.js";
import { terminalWidth } from "../output/terminal.js";
import type { WizardState } from "./ask.js";
import type { WizardCatalogs } from "./catalogs.js";

/** The flag fields shown as yes/no beside 0/1. */
const YES_NO =
  /_(activity|no_deposit|third_party_insurance|exclude_security_deposit|pay_cash|pay_debit_card|pay_credit_card)$/;

export interface ReviewRow {
  section: string;
  field: string;
  /** The field's human label (the card's). */
  label: string;
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
  const add = (section: string, field: string, label = field) => {
    seen.add(field);
    const v = state.answers[field];
    const problem = problemOf(field);
    if (isEmpty(v) && !problem) return;
    rows.push({
      section,
      field,
      label,
      value: isEmpty(v) ? "" : show(v),
      name: isEmpty(v) ? "" : nameOf(field, v),
      problem,
    });
  };
  for (const s of VEHICLE_SECTIONS) {
    for (const [f, label] of s.fields) add(s.title, f, label);
    if (s.key === "images" && state.imageFiles.length) {
      rows.push({
        section: s.title,
        field: "(files to upload)",
        label: "Files to upload",
        value: state.imageFiles.join(", "),
        name: "uploaded after you confirm",
      });
    }
  }
  for (const f of Object.keys(state.answers)) if (!seen.has(f)) add("Other (as given)", f);
  for (const p of problems) {
    if (!seen.has(p.field) && !(p.field in state.answers))
      rows.push({
        section: "Other",
        field: p.field || "-",
        label: p.field || "-",
        value: "",
        name: "",
        problem: p.message,
      });
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

/**
 * The review, on stderr (stdout carries only the result): the card of
 * `vehicle get` (one renderer, the same sections and labels), each value by
 * its name with the wire field and value after it, and any problem in red.
 */
export async function renderReview(
  deps: Deps,
  state: WizardState,
  cat: WizardCatalogs,
  problems: FieldDetail[] = [],
): Promise<void> {
  const sections: CardSection[] = [];
  for (const r of reviewRows(state, cat, problems)) {
    let s = sections[sections.length - 1];
    if (!s || s.title !== r.section) {
      s = { title: r.section, rows: [] };
      sections.push(s);
    }
    const named = r.name && r.name !== r.value && !r.field.startsWith("(");
    s.rows.push({
      label: r.label,
      value: named ? r.name : r.value,
      // the id beside a catalog name (a flag's yes/no needs none)
      note: r.field.startsWith("(")
        ? r.name
        : named && !YES_NO.test(r.field)
          ? `${r.value.includes(",") ? "ids" : "id"} ${r.value}`
          : undefined,
      problem: r.problem,
    });
  }
  const text = renderCard(sections, {
    color: deps.color,
    width: terminalWidth({ stdoutTTY: deps.io.stderrTTY, columns: deps.io.columns }, deps.env),
  });
  deps.io.stderr.write(`\n${deps.color.bold("Review: this is what will be sent")}\n\n${text}\n`);
}
