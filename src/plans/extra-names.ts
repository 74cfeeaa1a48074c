import { UsageError } from "../base/errors.js";
import { fold, nearest } from "../base/nearest.js";
import { itemId, itemNames } from "../catalog/items.js";
import type { CoreDeps } from "../deps.js";
import type { NameResolver } from "../files/resolver.js";
import { listExtras } from "../resources/list.js";
import { extraState, OPTION_CATALOG } from "./account-extras.js";

/**
 * Extras by name (src/ops/handles.ts has the rule of handles): an option's name, with its period
 * when the account has two extras of that option (`Child seat (period 2)`), matched among the
 * account's extras. Here, below the ops, so that the readers of fleet and account files
 * (src/plans/sync.ts mapRows) resolve `vehicle_extras` by name as every front end does.
 */

/** "did you mean" over names that hold spaces and dashes (registrations, option names). */
export async function near(name: string, candidates: Iterable<string>): Promise<string[]> {
  const key = (s: string) => fold(s).replaceAll("-", "_");
  const byKey = new Map<string, string>();
  for (const c of candidates) if (!byKey.has(key(c))) byKey.set(key(c), c);
  return nearest(key(name), byKey.keys()).map((k) => byKey.get(k)!);
}

export function unknown(what: string, given: string, nearby: string[], hint: string): UsageError {
  return new UsageError(`no ${what} ${JSON.stringify(given)}; nothing was sent`, {
    hint: nearby.length ? `did you mean ${nearby.map((n) => JSON.stringify(n)).join(", ")}? ${hint}` : hint,
  });
}

/** `Child seat (period 2)`: an option name and the period that tells two extras of that option apart. */
const WITH_PERIOD = /^(.*?)\s*\(\s*period\s+(\d+)\s*\)$/i;

export interface ExtraName {
  given: string;
  name: string;
  period?: number;
}

/** `Child seat (period 2)` → the option's name and the period. */
export function extraName(given: string): ExtraName {
  const m = WITH_PERIOD.exec(given);
  return { given, name: m ? m[1]! : given, ...(m ? { period: Number(m[2]) } : {}) };
}

/** The one extra a name means among the account's; exit 2 naming the nearest, or listing several. */
export async function matchExtra(extras: readonly NamedExtra[], w: ExtraName): Promise<number> {
  const named = extras.filter((e) => e.names.some((n) => fold(n) === fold(w.name)));
  const hits = w.period === undefined ? named : named.filter((e) => e.period === w.period);
  if (hits.length === 0)
    throw unknown(
      named.length ? "extra" : "extra with option",
      w.given,
      // a known option with a period it lacks: its extras; else the options the account has extras of
      await near(w.given, named.length ? named.map((e) => e.label) : extras.map((e) => e.names[0]!)),
      "list them with `rentctl extra list`; an id is a whole number",
    );
  if (hits.length > 1)
    throw new UsageError(
      `extra ${JSON.stringify(w.given)} matches ${hits.length} extras (${hits.map((e) => `${e.id}: ${e.label}`).join(", ")}); nothing was sent`,
      { hint: `give the id, or the period: ${JSON.stringify(hits[0]!.label)}` },
    );
  return hits[0]!.id;
}

/**
 * A fleet file's name resolver (`vehicle import`) that also reads `vehicle_extras` members by option
 * name, the account's extras listed once for every row.
 */
export function withExtraHandles(ctx: CoreDeps, resolver: NameResolver): NameResolver {
  let extras: Promise<NamedExtra[]> | undefined;
  return {
    resolvable: (field) => field === "vehicle_extras" || resolver.resolvable(field),
    toId: async (field, value, row) => {
      if (field !== "vehicle_extras") return resolver.toId(field, value, row);
      extras ??= accountExtras(ctx);
      return matchExtra(await extras, extraName(value.trim()));
    },
    toName: (field, id, row) => resolver.toName(field, id, row),
    get fetches() {
      return resolver.fetches;
    },
  };
}

export interface NamedExtra {
  id: number;
  period: number;
  /** The option's names: the catalog's (in the client's locale), then the server's `option_name`. */
  names: string[];
  /** `Child seat (period 1)`. */
  label: string;
}

/** The account's extras with their options' names (one listing, one catalog read). */
export async function accountExtras(ctx: CoreDeps): Promise<NamedExtra[]> {
  const listing = await listExtras(ctx, { warn: (m) => ctx.msg.warn(m) });
  const options = new Map<number, string[]>();
  try {
    for (const item of await ctx.catalogs().items(OPTION_CATALOG, {})) {
      const id = itemId(item);
      if (id !== undefined) options.set(id, itemNames(item));
    }
  } catch {
    // the server's option_name still names them
  }
  const out: NamedExtra[] = [];
  for (const record of listing) {
    const e = extraState(record);
    if (!e) continue;
    const names = [...(options.get(e.option_id) ?? []), ...(e.optionName ? [e.optionName] : [])];
    if (!names.length) continue;
    out.push({ id: e.id, period: e.period, names, label: `${names[0]} (period ${e.period})` });
  }
  return out;
}
