import { IdentityIndex, identityOf } from "../../src/contract/identity.js";
import { type JsonObject, recordId } from "../../src/contract/records.js";
import { type Plan, PlanBuilder, type PlanOptions } from "../../src/plans/plan.js";
import { keyOf } from "../../src/plans/sync.js";

/**
 * The plan of whole lists, for tests: the rows against the listed records,
 * through the PlanBuilder the streaming planner (src/plans/sync.ts) uses. A
 * row matches the vehicle of its identity with the lowest id; the property
 * test of test/fleet/stream-plan.test.ts checks the stream makes this plan.
 */

/** The identity key of a record or row (wire names), undefined when it has none. */
export type IdentityFn = (record: Record<string, unknown>) => string | undefined;

/**
 * The identity keys of a plan: a record's key is its registration number and
 * country; a row without a country takes the key of the first listed vehicle
 * it matches (as AccountStream.keyFor does).
 */
export function identityKeys(records: readonly JsonObject[]): IdentityFn {
  const index = new IdentityIndex<string>();
  for (const r of records) {
    const id = identityOf(r);
    if (id) index.add(id, keyOf(id));
  }
  return (r) => {
    const id = identityOf(r);
    if (!id) return undefined;
    if ("id" in r) return keyOf(id);
    return index.find(id)[0] ?? keyOf(id);
  };
}

const idOf = (r: JsonObject) => recordId(r, "vehicle") ?? 0;

export function computePlan(
  rows: readonly Record<string, unknown>[],
  accountRecords: readonly JsonObject[],
  opts: PlanOptions & { identity: IdentityFn },
): Plan {
  const records = [...accountRecords].sort((a, b) => idOf(a) - idOf(b));
  const byIdentity = new Map<string, JsonObject>();
  for (const r of records) {
    const key = opts.identity(r);
    if (key !== undefined && !byIdentity.has(key)) byIdentity.set(key, r);
  }
  const builder = new PlanBuilder(opts);
  const matched = new Set<JsonObject>();
  rows.forEach((row, i) => {
    const n = i + 1;
    const desired = builder.desired(row, n);
    const key = opts.identity(desired);
    const record = key === undefined ? undefined : byIdentity.get(key);
    builder.add(n, desired, key, record);
    if (record) matched.add(record);
  });
  if (opts.prune) builder.prune(accountRecords.filter((r) => !matched.has(r)));
  return builder.finish();
}
