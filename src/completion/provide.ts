import type { EncodableRecord } from "../api/encode.js";
import { itemId, itemNames, labelOf } from "../catalog/items.js";
import { CATALOG_OPERATIONS } from "../contract/operations.js";
import type { JsonObject } from "../contract/records.js";
import type { Operation } from "../contract/types.js";
import type { Deps } from "../deps.js";
import { DEMO_OWNERS } from "../sandbox/owners.js";

/**
 * Dynamic completion values, printed by `rentctl completion __complete KIND
 * [ARGS…]` one per line as `value` or `value<TAB>description`. Local reads
 * only: the network is used only for a catalog that has no cache yet, and
 * only when RENTCTL_COMPLETE_FETCH=1.
 *
 *   profiles                 saved profile names
 *   catalog NAME             names of a cached catalog's items (description: the id);
 *                            items with a code (currencies, locales) offer the code
 *   catalog NAME --ids       ids of a cached catalog's items (description: the name)
 *   vehicles                 ids of vehicles seen in listings (description: the registration number)
 *
 * The scripts pass the words already on the line in RENTCTL_COMPLETE_WORDS
 * (one per line), so a catalog is read with the parameters they name:
 * `catalog models --segment boats --brand <TAB>` offers boat brands.
 */

export async function completionValues(deps: Deps, kind: string, args: readonly string[]): Promise<string[]> {
  switch (kind) {
    case "profiles":
      try {
        return deps.store().names();
      } catch {
        return [];
      }
    case "catalog": {
      const name = args[0];
      if (!name) return [];
      return catalogValues(deps, name, args.includes("--ids"), lineFlags(deps.env.RENTCTL_COMPLETE_WORDS));
    }
    case "vehicles":
      return (await currentVehicles(deps)).map((v) => (v.reg ? `${v.id}\t${tidy(v.reg)}` : String(v.id)));
    default:
      return [];
  }
}

/** The current server's and owner's vehicles only (another profile's fleet is not offered). */
async function currentVehicles(deps: Deps) {
  let owner: number | undefined;
  try {
    const s = deps.settings();
    // the sandbox's default owner when none is set (as the target resolves it; no network here)
    owner = s.userId ?? (s.env === "sandbox" ? DEMO_OWNERS[0]?.userId : undefined);
  } catch {
    owner = undefined;
  }
  try {
    return deps.catalogs().recentVehicles(owner);
  } catch {
    return [];
  }
}

const tidy = (s: string) => s.replace(/[\t\r\n]+/g, " ").trim();

/** The flags on the line, by long name without dashes (the last one given wins); values unquoted. */
export function lineFlags(words: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  const list = (words ?? "").split("\n");
  const unquote = (w: string) => {
    const m = /^(['"])(.*)\1$/.exec(w);
    return m ? m[2]! : w.replace(/\\(.)/g, "$1");
  };
  for (let i = 0; i < list.length; i++) {
    const w = list[i]!;
    if (!w.startsWith("--") || w === "--") continue;
    const eq = w.indexOf("=");
    if (eq > 0) out.set(w.slice(2, eq), unquote(w.slice(eq + 1)));
    else if (i + 1 < list.length && !list[i + 1]!.startsWith("-")) out.set(w.slice(2), unquote(list[++i]!));
  }
  return out;
}

/** Flags that name each catalog parameter, in the order looked for. */
const PARAM_FLAGS: Readonly<Record<string, readonly string[]>> = {
  segment_id: ["segment", "vehicle-segment-id"],
  brand_id: ["brand"],
  model_id: ["model"],
};
const PARAM_CATALOGS: Readonly<Record<string, string>> = {
  segment_id: "catalog.segments",
  brand_id: "catalog.brands",
  model_id: "catalog.models",
};

async function catalogValues(deps: Deps, name: string, ids: boolean, flags: Map<string, string>): Promise<string[]> {
  const op = CATALOG_OPERATIONS.find((o) => o.catalogName === name);
  if (!op) return [];
  const fetch = deps.env.RENTCTL_COMPLETE_FETCH === "1";
  const params = await paramsFromLine(deps, op, flags, fetch);
  if (!params) return [];
  let items = deps.catalogs().cached(op.id, params);
  if (!items && fetch)
    items = await deps
      .catalogs()
      .items(op.id, params)
      .catch(() => undefined);
  if (!items) return [];
  const lines = new Set<string>();
  for (const item of items) {
    const id = itemId(item);
    const names = itemNames(item);
    const code = typeof item.code === "string" && item.code.trim() ? item.code.trim() : undefined;
    if (code && names[0] && names[0] !== code) {
      // Currencies, locales: the code is what people type (it resolves like a name).
      lines.add(`${tidy(code)}\t${tidy(names[0])}${id !== undefined ? ` (${id})` : ""}`);
    } else if (ids && id !== undefined) lines.add(names.length ? `${id}\t${tidy(labelOf(item))}` : String(id));
    else if (!ids && names[0]) lines.add(id !== undefined ? `${tidy(names[0])}\t${id}` : tidy(names[0]));
  }
  return [...lines];
}

/**
 * The parameters of a catalog read, from the flags on the line (a name is
 * looked up in the cached parent catalog). Undefined when a required one is
 * not known: nothing is offered rather than the wrong items.
 */
async function paramsFromLine(
  deps: Deps,
  op: Operation,
  flags: Map<string, string>,
  fetch: boolean,
): Promise<EncodableRecord | undefined> {
  const params: EncodableRecord = {};
  try {
    const locale = deps.settings().locale;
    if (typeof locale === "number" && op.params.some((p) => p.name === "locale_id")) params.locale_id = locale;
  } catch {
    // no settings: the default locale
  }
  // Parents first: a brand is looked up among the brands of the segment on the line.
  for (const key of ["segment_id", "brand_id", "model_id"]) {
    const spec = op.params.find((p) => p.name === key);
    const wanted = spec || (key === "segment_id" && op.params.some((p) => p.name === "brand_id"));
    if (!wanted) continue;
    const raw = PARAM_FLAGS[key]!.map((f) => flags.get(f)).find((v) => v !== undefined && v !== "");
    let id: number | undefined;
    if (raw !== undefined) {
      if (/^\d+$/.test(raw.trim())) id = Number(raw);
      else {
        const parentOp = PARAM_CATALOGS[key]!;
        const parentParams: EncodableRecord = {};
        if (key === "brand_id" && params.segment_id !== undefined) parentParams.segment_id = params.segment_id;
        if (key === "model_id" && params.brand_id !== undefined) parentParams.brand_id = params.brand_id;
        id = await lookUp(deps, parentOp, parentParams, raw, fetch);
      }
    }
    if (id !== undefined) params[key] = id;
    else if (spec?.required === true && key !== "segment_id") return undefined;
  }
  for (const k of Object.keys(params)) if (k !== "locale_id" && !op.params.some((p) => p.name === k)) delete params[k];
  return params;
}

/** A name's id in a cached catalog (exact, else a unique prefix, in any cached locale); undefined when unsure. */
async function lookUp(
  deps: Deps,
  opId: string,
  params: EncodableRecord,
  value: string,
  fetch: boolean,
): Promise<number | undefined> {
  const catalogs = deps.catalogs();
  const sameParams = (p: Record<string, string | number>) =>
    Object.entries(params).every(
      ([k, v]) => v === undefined || String(p[k] ?? (k === "segment_id" ? 1 : "")) === String(v),
    );
  let pools: JsonObject[][] = catalogs
    .cachedAll(opId)
    .filter((c) => sameParams(c.params ?? {}))
    .map((c) => c.items);
  if (pools.length === 0 && fetch) {
    const items = await catalogs.items(opId, params).catch(() => undefined);
    if (items) pools = [items];
  }
  const needle = value.trim().toLowerCase();
  const all = pools.flat();
  for (const test of [(n: string) => n === needle, (n: string) => n.startsWith(needle)]) {
    const ids = new Set(all.filter((i) => itemNames(i).some((n) => test(n.toLowerCase()))).map((i) => itemId(i)));
    ids.delete(undefined);
    if (ids.size === 1) return [...ids][0];
    if (ids.size > 1) return undefined;
  }
  return undefined;
}
