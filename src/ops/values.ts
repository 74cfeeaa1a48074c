import type { EncodableRecord } from "../api/encode.js";
import { DEFAULT_SEGMENT, operation } from "../contract/operations.js";
import type { ParamSpec } from "../contract/types.js";
import { UsageError } from "../errors.js";
import type { OpContext } from "./context.js";

type NamesContext = Pick<OpContext, "catalogs">;

/**
 * Catalog references given by name (`--currency EUR`, `"Automatic"`) become ids: the one rule of
 * every front end (a number is an id, except where a catalog's names are numbers; `id:N` is an id;
 * an id given as such is checked against its catalog). `show` hears what each value stood for
 * (the CLI's dry run prints it).
 */
export async function resolveCatalogNames(
  ctx: NamesContext,
  specs: readonly ParamSpec[],
  values: Record<string, unknown>,
  opts: { show?: (line: string) => void } = {},
): Promise<void> {
  const deps = ctx;
  for (const spec of specs) {
    const v = values[spec.name];
    if (!spec.catalog || v === undefined || v === null || v === "") continue;
    const op = operation(spec.catalog);
    const params: EncodableRecord = {};
    let resolvable = true;
    for (const p of op.params) {
      if (p.name === "segment_id") params.segment_id = Number(values.vehicle_segment_id) || DEFAULT_SEGMENT;
      else if (p.required === true && p.name !== "locale_id") resolvable = false;
    }
    if (!resolvable || op.envelope !== "list") continue;
    // An id given as such is checked against the catalog (one fetch, cached): `--year id:99` is refused
    // here, not by the server after a dry run said yes. An unreachable catalog leaves it to the server.
    const known = async (id: string): Promise<void> => {
      let items: Awaited<ReturnType<ReturnType<NamesContext["catalogs"]>["items"]>>;
      try {
        items = await deps.catalogs().items(spec.catalog!, params);
      } catch {
        return;
      }
      const { itemId } = await import("../catalog/items.js");
      if (items.length && !items.some((i) => itemId(i) === Number(id)))
        throw new UsageError(
          `${spec.name}: no item with id ${id} in ${op.catalogName ?? spec.catalog} (nothing was sent)`,
          {
            hint: `list them with: rentctl catalog ${op.catalogName ?? ""}`.trim(),
          },
        );
    };
    const one = async (member: unknown): Promise<unknown> => {
      const text = typeof member === "number" ? String(member) : member;
      if (typeof text !== "string") return member;
      const id = /^\s*id:\s*(\d+)\s*$/i.exec(text);
      if (id) {
        await known(id[1]!);
        return id[1];
      }
      // A number is an id, except where the catalog's names are numbers (a year): see ParamSpec.namesFrom.
      if (/^\s*\d+\s*$/.test(text) && !(spec.namesFrom !== undefined && Number(text) >= spec.namesFrom)) {
        await known(text.trim());
        return member;
      }
      if (/^\s*$/.test(text)) return member;
      return deps.catalogs().resolve(spec.catalog!, text, { flag: spec.name, params, byName: true });
    };
    // Arrays by name too: `--vehicle-benefits-id "Unlimited mileage"`, each member resolved alike.
    values[spec.name] = Array.isArray(v) ? await Promise.all(v.map(one)) : await one(v);
    if (opts.show) opts.show(await describeResolved(deps, spec, params, v, values[spec.name]));
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
