import * as cal from "../../plans/calendar.js";
import type { Plan } from "../../plans/plan.js";
import { planEdit } from "../../plans/plan.js";
import type { OpContext } from "../context.js";
import { selectVehicles, type VehicleSelection } from "./select.js";

/** A change of the unavailable dates of the selected vehicles (`vehicle calendar --block/--unblock/--clear-past`). */
export interface CalendarEditInput {
  selection: VehicleSelection;
  /** Days to block: 2026-12-24 (or 24.12.2026), 2026-12-24..2026-12-26, or a month 2026-12. */
  block?: readonly string[];
  /** Days to make available again (the same forms). */
  unblock?: readonly string[];
  /** Drop blocked days before today (by the context's clock). */
  clearPast?: boolean;
}

/** Today by the context's clock, ISO (the local day, as the calendar shows it). */
export function localToday(ctx: Pick<OpContext, "now">): string {
  const d = new Date(ctx.now());
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

/**
 * The plan of a calendar change of the selected vehicles; nothing is sent (applyVehiclePlan runs it,
 * verb `calendar`). Ranges are checked before any request; stored entries that are no d.m.Y date
 * are kept and said (ctx.msg), never dropped.
 */
export async function planCalendarEdit(ctx: OpContext, input: CalendarEditInput): Promise<Plan> {
  const edit = {
    block: (input.block ?? []).map((r) => cal.parseRange(r)),
    unblock: (input.unblock ?? []).map((r) => cal.parseRange(r)),
    clearPastBefore: input.clearPast ? localToday(ctx) : undefined,
  };
  const records = await selectVehicles(ctx, input.selection);
  for (const r of records) {
    const w = cal.malformedWarning(cal.parseStoredCalendar(r.vehicle_availability_calendar), `vehicle ${r.id}`);
    if (w) ctx.msg.warn(w);
  }
  return planEdit(records, (rec) => ({
    vehicle_availability_calendar: cal.editCalendar(rec.vehicle_availability_calendar, edit).value,
  }));
}
