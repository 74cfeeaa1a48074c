import type { EncodableRecord } from "../api/encode.js";
import { UsageError } from "../base/errors.js";
import { DEFAULT_SEGMENT, operation } from "../contract/operations.js";
import { memberChange } from "../contract/refs.js";
import type { ParamSpec } from "../contract/types.js";
import type { OpContext } from "./context.js";
import { extraMembers } from "./handles.js";

type NamesContext = Pick<OpContext, "catalogs">;

/**
 * Catalog references given by name (`--currency EUR`, `"Automatic"`) become ids, and the account's
 * extras in `vehicle_extras` by option name (src/ops/handles.ts): the one rule of every front end.
 * Ids as given, names resolved (src/contract/refs.ts): a number is an id (except where a catalog's
 * names are numbers, a year), `id:N` is an id, and only a name reads the catalog; the server is the
 * judge of its ids. `show` hears what each value stood for (the CLI's dry run prints it).
 */
export async function resolveCatalogNames(
  ctx: Parameters<typeof extraMembers>[0] & NamesContext,
  specs: readonly ParamSpec[],
  values: Record<string, unknown>,
  opts: { show?: (line: string) => void } = {},
): Promise<void> {
  for (const spec of specs) {
    const v = values[spec.name];
    // extras by option name as well as by id (the one rule of handles, src/ops/handles.ts)
    if (spec.name === "vehicle_extras" && v !== undefined && v !== null && v !== "")
      values[spec.name] = await extraMembers(ctx, v);
    if (!spec.catalog || v === undefined || v === null || v === "") continue;
    const op = operation(spec.catalog);
    const params: EncodableRecord = {};
    let resolvable = true;
    for (const p of op.params) {
      if (p.name === "segment_id") params.segment_id = Number(values.vehicle_segment_id) || DEFAULT_SEGMENT;
      else if (p.required === true && p.name !== "locale_id") resolvable = false;
    }
    if (!resolvable || op.envelope !== "list") continue;
    const one = async (member: unknown): Promise<unknown> => {
      const change =
        typeof member === "string" && /^\s*$/.test(member) ? undefined : memberChange(member, spec.namesFrom, true);
      if (!change) return member;
      if ("id" in change) return change.id;
      return ctx.catalogs().resolve(spec.catalog!, change.name, { flag: spec.name, params, byName: true });
    };
    // Arrays by name too: `--vehicle-benefits-id "Unlimited mileage"`, each member resolved alike.
    values[spec.name] = Array.isArray(v) ? await Promise.all(v.map(one)) : await one(v);
    if (opts.show) opts.show(await describeResolved(ctx, spec, params, v, values[spec.name]));
  }
}

/**
 * A dry run says what each catalog value stands for, so that the rule (a
 * number is an id, a year is a year, `id:N` an id) is visible before
 * anything is sent: `vehicle_year_of_issue_id: 2024 → id 17 (2024)`.
 */
async function describeResolved(
  deps: NamesContext,
  spec: ParamSpec,
  params: EncodableRecord,
  given: unknown,
  resolved: unknown,
): Promise<string> {
  const gs = Array.isArray(given) ? given : [given];
  const rs = Array.isArray(resolved) ? resolved : [resolved];
  const parts: string[] = [];
  for (let i = 0; i < rs.length; i++) {
    const label = await deps
      .catalogs()
      .label(spec.catalog!, Number(rs[i]), params)
      .catch(() => undefined);
    const g = String(gs[i]).trim();
    parts.push(
      `${g === String(rs[i]) ? `id ${g}` : `${JSON.stringify(g)} → id ${rs[i]}`}${label ? ` (${label})` : ""}`,
    );
  }
  return `${spec.name}: ${parts.join(", ")}`;
}

/** Clearing a field the contract requires would leave a record the API rejects (or worse, keeps): refused, nothing sent. */
export function refuseClearedRequired(bySpec: ReadonlyMap<string, ParamSpec>, values: Record<string, unknown>): void {
  const cleared = Object.entries(values)
    .filter(([k, v]) => (v === "" || (Array.isArray(v) && v.length === 0)) && bySpec.get(k)?.required === true)
    .map(([k]) => k);
  if (cleared.length)
    throw new UsageError(
      `cannot clear ${cleared.join(", ")}: the contract requires ${cleared.length === 1 ? "it" : "them"} (nothing was sent)`,
      {
        hint: "give a value instead",
      },
    );
}
