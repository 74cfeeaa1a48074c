import type { Json, JsonObject } from "../contract/records.js";
import type { WireValue } from "../contract/validate.js";
import type { ExtraPlan } from "./account-extras.js";
import { type AccountPlan, displayVehicles } from "./account-plan.js";
import type { FieldChange, Plan } from "./plan.js";
import { changeText, type PlanColors, type PlanPrintOptions, planJson, planLines, valueText } from "./plan-print.js";

/**
 * An account plan for people (text lines, a markdown review summary) and for
 * programs (json). Extras first, then vehicles, as apply runs them.
 *
 *   Extras:
 *   + Child seat (period 1) (extras row 1): price 5, currency 1, quantity 4
 *   ~ GPS navigator (period 1) (extra 2)
 *       price: 10 → 12
 *   ~ Snow chains (period 2) (extra 3): switch off → on
 *   - Roof box (period 2) (extra 9)
 *   Extras: 1 to create, 1 to update, 1 to switch, 1 to delete, 0 unchanged.
 *   Vehicles:
 *   ... (as `vehicle diff`)
 */

const plain = (s: string) => s;
const onOff = (b: boolean | null) => (b === null ? "(unknown)" : b ? "on" : "off");
const member = (f: string) => f.replace(/_id$/, "");

export function extrasSummary(p: ExtraPlan): string {
  return `Extras: ${p.create.length} to create, ${p.update.length} to update, ${p.switch.length} to switch, ${p.delete.length} to delete, ${p.unchanged} unchanged.`;
}

export function* extraLines(p: ExtraPlan, color?: PlanColors): Generator<string> {
  const green = color?.green ?? plain;
  const yellow = color?.yellow ?? plain;
  const red = color?.red ?? plain;
  for (const c of p.create) {
    const r = c.record;
    yield green(
      `+ ${c.key} (extras row ${c.row}): price ${r.price}, currency ${r.currency_id}, quantity ${r.quantity}${c.active === false ? ", off" : ""}`,
    );
  }
  const switches = new Map(p.switch.map((s) => [s.id, s]));
  for (const u of p.update) {
    const s = switches.get(u.id);
    yield yellow(`~ ${u.key} (extra ${u.id})${s ? `: switch ${onOff(s.from)} → ${onOff(s.to)}` : ""}`);
    for (const [k, f] of Object.entries(u.fields))
      yield `    ${member(k)}: ${f.from ?? "(empty)"} → ${f.to ?? "(empty)"}`;
  }
  const updated = new Set(p.update.map((u) => u.id));
  for (const s of p.switch)
    if (!updated.has(s.id)) yield yellow(`~ ${s.key} (extra ${s.id}): switch ${onOff(s.from)} → ${onOff(s.to)}`);
  for (const d of p.delete) yield red(`- ${d.key} (extra ${d.id})`);
  yield extrasSummary(p);
}

/** The whole plan as text lines: extras (when the file manages them), then vehicles. */
export function* accountPlanLines(
  plan: AccountPlan,
  opts: { color?: PlanColors; verbose?: boolean; label?: PlanPrintOptions["label"] },
): Generator<string> {
  if (plan.extras.managed) {
    yield "Extras:";
    yield* extraLines(plan.extras, opts.color);
    yield "Vehicles:";
  }
  yield* planLines(displayVehicles(plan.vehicles.plan, plan.extraLabels), opts);
}

/** The machine plan: `{extras: {create, update, switch, delete, unchanged}, vehicles: {create, change, remove, unchanged}}`. */
export function accountPlanJson(plan: AccountPlan): JsonObject {
  const e = plan.extras;
  const fields = (f: Record<string, FieldChange>) => {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(f)) out[k] = { from: v.from as Json, to: v.to as Json };
    return out;
  };
  return {
    extras: {
      managed: e.managed,
      create: e.create.map((c) => ({ row: c.row, key: c.key, fields: { ...c.record, active: c.active ?? true } })),
      update: e.update.map((u) => ({ row: u.row, extra_id: u.id, key: u.key, fields: fields(u.fields) })),
      switch: e.switch.map((s) => ({ row: s.row, extra_id: s.id, key: s.key, from: s.from, to: s.to })),
      delete: e.delete.map((d) => ({ extra_id: d.id, key: d.key })),
      unchanged: e.unchanged,
    },
    vehicles: planJson(displayVehicles(plan.vehicles.plan, plan.extraLabels)),
  };
}

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");
const code = (s: string) => `\`${s.replace(/`/g, "'")}\``;

function mdValue(field: string, v: WireValue | null | undefined, label?: PlanPrintOptions["label"]): string {
  return cell(valueText(field, v, { label }));
}

/**
 * A review-ready summary in markdown (a pull request comment): the counts,
 * removals called out first, then a table per section with each field's
 * before → after.
 */
export function accountPlanMarkdown(plan: AccountPlan, label?: PlanPrintOptions["label"]): string {
  const e = plan.extras;
  const v: Plan = displayVehicles(plan.vehicles.plan, plan.extraLabels);
  const out: string[] = [];
  out.push(`## rentctl plan: ${cell(plan.label)}`, "");
  const counts = [
    ...(e.managed
      ? [
          `**Extras:** ${e.create.length} to create, ${e.update.length} to update, ${e.switch.length} to switch, ${e.delete.length} to delete, ${e.unchanged} unchanged`,
        ]
      : []),
    `**Vehicles:** ${v.create.length} to create, ${v.change.length} to change, ${v.remove.length} to remove, ${v.unchanged} unchanged`,
  ];
  out.push(...counts.map((c) => `- ${c}`), "");
  if (e.delete.length || v.remove.length) {
    out.push("> [!WARNING]", "> This plan **removes**:");
    for (const d of e.delete) out.push(`> - extra ${d.id}: ${cell(d.key)}`);
    for (const r of v.remove) out.push(`> - vehicle ${r.vehicle_id}: ${cell(r.reg)}`);
    out.push("");
  }
  if (e.managed && (e.create.length || e.update.length || e.switch.length || e.delete.length)) {
    out.push("### Extras", "", "| | Extra | Field | Before | After |", "|---|---|---|---|---|");
    for (const c of e.create) {
      const r = c.record;
      out.push(
        `| + | ${cell(c.key)} (row ${c.row}) | | | price ${r.price}, currency ${r.currency_id}, quantity ${r.quantity}${c.active === false ? ", off" : ""} |`,
      );
    }
    for (const u of e.update)
      for (const [k, f] of Object.entries(u.fields))
        out.push(
          `| ~ | ${cell(u.key)} (extra ${u.id}) | ${code(member(k))} | ${f.from ?? "(empty)"} | ${f.to ?? "(empty)"} |`,
        );
    for (const s of e.switch)
      out.push(`| ~ | ${cell(s.key)} (extra ${s.id}) | ${code("active")} | ${onOff(s.from)} | ${onOff(s.to)} |`);
    for (const d of e.delete) out.push(`| - | ${cell(d.key)} (extra ${d.id}) | | | (deleted) |`);
    out.push("");
  }
  if (v.create.length || v.change.length || v.remove.length) {
    out.push("### Vehicles", "", "| | Vehicle | Field | Before | After |", "|---|---|---|---|---|");
    for (const c of v.create) {
      const main = ["vehicle_model_id", "price_per_day", "vehicle_currency_id", "vehicle_extras"]
        .filter((k) => k in c.record)
        .map((k) => `${k} ${mdValue(k, c.record[k], label)}`)
        .join(", ");
      out.push(`| + | ${cell(c.reg)} (row ${c.row}) | | | ${main || "(new)"} |`);
    }
    for (const c of v.change)
      for (const [k, f] of Object.entries(c.fields).sort(([a], [b]) => a.localeCompare(b))) {
        const set = changeText(k, f, { label });
        const isSet = /^[+-]/.test(set);
        out.push(
          `| ~ | ${cell(c.reg)} (vehicle ${c.vehicle_id}) | ${code(k)} | ${isSet ? "" : mdValue(k, f.from, label)} | ${isSet ? cell(set) : mdValue(k, f.to, label)} |`,
        );
      }
    for (const r of v.remove) out.push(`| - | ${cell(r.reg)} (vehicle ${r.vehicle_id}) | | | (removed) |`);
    out.push("");
  }
  if (e.managed ? e.create.length + e.update.length + e.switch.length + e.delete.length === 0 : true)
    if (!v.create.length && !v.change.length && !v.remove.length)
      out.push("No changes: the account matches the file.", "");
  return out.join("\n");
}
