import { UsageError } from "../../base/errors.js";
import type { JsonObject } from "../../contract/records.js";
import type { Deps } from "../../deps.js";
import { calendarOf, calendarWindow } from "../../ops/vehicle/calendar.js";
import * as op from "../../ops/vehicle/calendar-edit.js";
import { localToday } from "../../ops/vehicle/calendar-edit.js";
import { listVehicles } from "../../ops/vehicle/list.js";
import { boardLabelWidth, daysThatFit, renderBoard } from "../../output/board.js";
import { terminalWidth } from "../../output/terminal.js";
import * as calendarModule from "../../plans/calendar.js";
import { arg, flag } from "../flags.js";
import { listFooter, wholeListFor } from "../paged-list.js";
import { defineVerb } from "../verb.js";
import type { ManyOptions } from "./many.js";
import { runBulkChange } from "./many.js";
import { isSelection, opSelection, selectedVehicles } from "./select.js";
import { selectionFlags } from "./selection-flags.js";

export const verb = defineVerb({
  name: "calendar",
  description: "Show or change the unavailable dates (month grids; -o json for ISO dates)",
  args: { ids: arg.variadic("vehicle ids or registration numbers (or --where / --all)") },
  flags: {
    block: flag.list(
      "--block <range>",
      "make dates unavailable: 2026-12-24 (or 24.12.2026), 2026-12-24..2026-12-26 or 2026-12 (repeat)",
    ),
    unblock: flag.list("--unblock <range>", "make dates available again (same forms; repeat)"),
    clearPast: flag.bool("--clear-past", "drop blocked dates before today"),
    from: flag.string(
      "--from <YYYY-MM>",
      "first month shown (default: this month; with -o json, only its blocked days and on); with --board a day (2026-12-24)",
    ),
    months: flag.int("--months <n>", "months shown (default 3); with -o json, only their blocked days", {
      min: 1,
      max: 24,
    }),
    board: flag.bool(
      "--board",
      "one board for many vehicles: vehicles as rows, days as columns (every vehicle unless ids or --where)",
    ),
    days: flag.int("--days <n>", "days on the board (default: as many as fit the terminal)", { min: 1, max: 366 }),
    limit: flag.int(
      "--limit <n>",
      "with --board: vehicles per page (default 15 in a table; other formats: every one)",
      {
        min: 1,
      },
    ),
    offset: flag.int("--offset <n>", "with --board: vehicles to skip", { min: 0 }),
    page: flag.int("--page <n>", "with --board: page number (1-based; uses --limit)", { min: 1 }),
    ...selectionFlags({ all: true }),
    wide: flag.bool("--wide", "with --board: every day asked for, whatever the terminal's width"),
  },
  examples: [
    "rentctl vehicle calendar 1",
    "rentctl vehicle calendar 1 --block 2026-12-24..2026-12-26",
    'rentctl vehicle calendar "B-SC 1001" --block 24.12.2026',
    "rentctl vehicle calendar --where segment=boats --block 2027-01 --dry-run",
    "rentctl vehicle calendar --all --clear-past --yes",
    "rentctl vehicle calendar 1 -o json",
    "rentctl vehicle calendar --board",
    "rentctl vehicle calendar --board --from 2026-12-20 --days 14",
    "rentctl vehicle calendar --board --page 2",
  ],
  run: (deps, args, opts) => run(deps, { ids: args.ids, ...opts }),
});

/**
 * `vehicle calendar`: the unavailable dates of a vehicle as month grids (or
 * `{vehicle_id, blocked: [ISO dates]}` with -o json), and `--block` /
 * `--unblock` / `--clear-past` over one vehicle or a selection. The wire
 * value is one comma-separated string of d.m.Y dates (src/plans/calendar.ts
 * decides its form); changes go through the plan, the confirmation rules and
 * the bulk engine like every change to many vehicles. Stored entries that are
 * not d.m.Y dates are shown with a warning and kept, never dropped.
 */
export interface CalendarOptions extends ManyOptions {
  block?: string[];
  unblock?: string[];
  clearPast?: boolean;
  from?: string;
  months?: number;
  board?: boolean;
  days?: number;
  wide?: boolean;
  /** With --board: a page of the vehicles (as `vehicle list`). */
  limit?: number;
  offset?: number;
  page?: number;
}

export async function run(deps: Deps, opts: CalendarOptions): Promise<void> {
  const editing = Boolean(opts.block?.length || opts.unblock?.length || opts.clearPast);
  const paging = opts.limit !== undefined || opts.offset !== undefined || opts.page !== undefined;
  if (paging && (editing || !opts.board || opts.ids?.length)) {
    throw new UsageError("--limit, --offset and --page page the board: use them with --board and no ids");
  }
  if (!editing && opts.board && !opts.ids?.length) {
    // the board lists vehicles as `vehicle list` does: a page in a table (footer on stderr), every one for a program
    const records = await boardPage(deps, opts);
    if (deps.settings().output === "table") return board(deps, opts, calendarModule, records);
    return show(deps, { ...opts, all: true }, calendarModule, records.records);
  }
  if (!editing && opts.board && deps.settings().output === "table") return board(deps, opts, calendarModule);
  if (!editing) return show(deps, opts, calendarModule);
  const plan = await planCalendarEdit(deps, opts);
  await runBulkChange(deps, plan, {
    verb: "calendar",
    intent: {
      ids: opts.ids ?? [],
      where: opts.where ?? [],
      all: Boolean(opts.all),
      block: opts.block,
      unblock: opts.unblock,
      clearPast: opts.clearPast,
    },
    concurrency: opts.concurrency,
    report: opts.report,
    restart: opts.restart,
    confirm: isSelection(opts),
  });
}

/** The plan of a calendar edit (--block / --unblock / --clear-past) of the selected vehicles: the op's. */
export async function planCalendarEdit(deps: Deps, opts: CalendarOptions) {
  return op.planCalendarEdit(deps, {
    selection: await opSelection(deps, opts),
    block: opts.block,
    unblock: opts.unblock,
    clearPast: opts.clearPast,
  });
}

/** The board's vehicles without ids: a listing as `vehicle list`'s (--where, --limit / --page / --all), and its footer. */
async function boardPage(deps: Deps, opts: CalendarOptions): Promise<{ records: JsonObject[]; footer: () => void }> {
  const paging = wholeListFor(deps, { limit: opts.limit, offset: opts.offset, page: opts.page, all: opts.all });
  const listing = await listVehicles(deps, { ...paging, where: opts.where });
  const records: JsonObject[] = [];
  for await (const page of listing.pages) records.push(...page);
  return {
    records,
    footer: () => {
      const s = listing.summary();
      if (s.mode !== "all") listFooter(deps, "vehicles", s, paging);
    },
  };
}

async function show(
  deps: Deps,
  opts: CalendarOptions,
  cal: typeof calendarModule,
  given?: JsonObject[],
): Promise<void> {
  // the window (checked before any request): the grid's months; in other formats only its days, when asked for
  const window = calendarWindow(deps, opts.from, opts.months);
  const asked = opts.from !== undefined || opts.months !== undefined;
  const format = deps.settings().output;
  const records = given ?? (await selectedVehicles(deps, opts));
  // One vehicle named: the object itself (as `vehicle get` prints a record); several: a list.
  const single = !isSelection(opts) && records.length === 1;
  const writer = format === "table" || single ? undefined : deps.out.listWriter();
  for (const r of records) {
    const calendar = cal.parseStoredCalendar(r.vehicle_availability_calendar);
    const warning = cal.malformedWarning(calendar, `vehicle ${r.id}`);
    if (warning) deps.msg.warn(warning);
    if (format !== "table") {
      const data = calendarOf(r, asked ? window : undefined) as never;
      if (writer) await writer.push([data]);
      else await deps.out.record(data);
      continue;
    }
    const c = deps.outColor;
    const colored = c.level > 0;
    const lines = cal.renderCalendarGrid(calendar, {
      from: window.first,
      months: window.months,
      color: colored ? { blocked: (s) => c.inverse.red(s), dim: (s) => c.dim(s) } : undefined,
    });
    deps.io.stdout.write(
      `${records.length > 1 ? `vehicle ${r.id} ${r.vehicle_reg_number ?? ""}\n` : ""}${lines.join("\n")}\n`,
    );
  }
  await writer?.end();
}

/**
 * `--board`: vehicles as rows, days as columns from `--from` (a day, or a
 * month's first day; default today) for `--days` (default: as many as fit the
 * terminal; more than fit are cut to fit, said on stderr). Without ids, the
 * vehicles page as `vehicle list`'s: one page and a footer, or --all.
 */
async function board(
  deps: Deps,
  opts: CalendarOptions,
  cal: typeof calendarModule,
  listed?: { records: JsonObject[]; footer: () => void },
): Promise<void> {
  const todayIso = localToday(deps);
  let first = todayIso;
  if (opts.from !== undefined) {
    const day = cal.parseDay(opts.from);
    if (day) first = day;
    else {
      const m = cal.parseMonth(opts.from);
      first = `${String(m.year).padStart(4, "0")}-${String(m.month).padStart(2, "0")}-01`;
    }
  }
  const records = listed?.records ?? (await selectedVehicles(deps, opts));
  const rows = records.map((r) => {
    const calendar = cal.parseStoredCalendar(r.vehicle_availability_calendar);
    const warning = cal.malformedWarning(calendar, `vehicle ${r.id}`);
    if (warning) deps.msg.warn(warning);
    return { label: `${r.id} ${r.vehicle_reg_number ?? ""}`.trim(), blocked: new Set(calendar.dates) };
  });
  const width = opts.wide ? Number.POSITIVE_INFINITY : terminalWidth(deps.io, deps.env);
  const fit = Number.isFinite(width) ? daysThatFit(width, boardLabelWidth(rows)) : Number.POSITIVE_INFINITY;
  const wanted = opts.days ?? Math.min(fit, 31);
  const count = Math.min(wanted, fit);
  if (count < wanted)
    deps.msg.info(deps.color.dim(`${count} of ${wanted} days fit the terminal (--wide shows them all)`));
  const start = new Date(`${first}T00:00:00Z`);
  const days = Array.from({ length: count }, (_, i) => cal.isoDay(new Date(start.getTime() + i * 86_400_000), true));
  if (rows.length === 0) {
    if (listed) listed.footer();
    else deps.msg.info("no vehicles");
    return;
  }
  deps.io.stdout.write(renderBoard(rows, { days, today: todayIso, color: deps.outColor }));
  const c = deps.outColor;
  deps.msg.info(
    deps.color.dim(
      `${c.level > 0 ? "" : "X "}blocked · . free · ${c.level > 0 ? "today highlighted" : "* today"} · ${rows.length} vehicle${rows.length === 1 ? "" : "s"}`,
    ),
  );
  listed?.footer();
}
