import { UsageError } from "../base/errors.js";
import { nearest } from "../base/nearest.js";
import type { ParamSpec } from "../contract/types.js";
import { VEHICLE_FIELDS } from "../contract/vehicle-fields.js";
import { lookupField } from "./where.js";

/**
 * `--add FIELD=VALUE` / `--remove FIELD=VALUE`: one member of an array field
 * (benefits, options, payment types, delivery places, extras, images) added
 * or removed, each vehicle's other members kept. FIELD is the wire name, its
 * kebab form, or a short name (`benefit`, `benefits`, `option`, `payment-type`,
 * `extra`, `image`); VALUE an id or a catalog name (resolved by the caller,
 * as every catalog value is). One member per flag: names may hold commas.
 * Delivery places are refused: they are three parallel lists (place,
 * location, price) that only change together (`--set`).
 *
 * Adding a member a vehicle has, or removing one it lacks, changes nothing
 * (idempotent: a rerun, or a selection where some vehicles already have it,
 * plans no write for them).
 */

export interface MemberEdits {
  /** Wire name → members to add / remove (as given; the caller resolves names to ids). */
  add: Map<string, unknown[]>;
  remove: Map<string, unknown[]>;
}

/** The array field a user-written name stands for, or a UsageError naming the nearest. */
export function arrayField(name: string, flag: string, specs: readonly ParamSpec[] = VEHICLE_FIELDS): ParamSpec {
  const n = name.trim().toLowerCase().replaceAll("-", "_");
  const one = n.replace(/s$/, "");
  // benefit(s) → vehicle_benefits_id, option(s) → vehicle_options_id, payment-type(s), extra(s), image(s)
  for (const t of [n, `vehicle_${n}`, `vehicle_${one}s`, `vehicle_${one}s_id`]) {
    const spec = lookupField(t, specs);
    if (!spec) continue;
    if (!spec.type.endsWith("[]"))
      throw new UsageError(`${flag} ${name}: ${spec.name} holds one value, not a list (nothing was sent)`, {
        hint: `set it with --set ${spec.name}=VALUE`,
      });
    // Delivery places come in three parallel lists (place, location, price): a member alone would misalign them.
    if (spec.name.startsWith("vehicle_delivery_"))
      throw new UsageError(`${flag} ${name}: ${spec.name} is one of three parallel lists (nothing was sent)`, {
        hint: "set the place, location and price lists together with --set",
      });
    return spec;
  }
  const lists = specs.filter(memberField).map((s) => s.name);
  // "benefts" is near "benefits", not near "vehicle_benefits_id": compare the short names too
  const short = new Map(lists.map((l) => [l.replace(/^vehicle_/, "").replace(/_id$/, ""), l]));
  const near = [...new Set([...nearest(n, short.keys()).map((s) => short.get(s)!), ...nearest(n, lists)])];
  throw new UsageError(`${flag} ${name}: not a list field of a vehicle (nothing was sent)`, {
    hint: near.length ? `did you mean ${near.join(", ")}?` : `list fields: ${lists.join(", ")}`,
  });
}

/** The array fields whose members --add / --remove change one at a time. */
export function memberField(spec: ParamSpec): boolean {
  return spec.type.endsWith("[]") && !spec.name.startsWith("vehicle_delivery_");
}

/** Read `--add` / `--remove` values (`FIELD=VALUE`, repeatable) into member edits by wire name. */
export function parseMemberEdits(
  adds: readonly string[] = [],
  removes: readonly string[] = [],
  specs: readonly ParamSpec[] = VEHICLE_FIELDS,
): MemberEdits {
  const out: MemberEdits = { add: new Map(), remove: new Map() };
  for (const [flag, list, into] of [
    ["--add", adds, out.add],
    ["--remove", removes, out.remove],
  ] as const) {
    for (const raw of list) {
      const i = raw.indexOf("=");
      if (i <= 0 || raw.slice(i + 1).trim() === "")
        throw new UsageError(`${flag} ${JSON.stringify(raw)}: expected FIELD=VALUE (nothing was sent)`, {
          hint: `example: ${flag} benefits="Unlimited mileage"`,
        });
      const spec = arrayField(raw.slice(0, i), flag, specs);
      const value = raw.slice(i + 1).trim();
      into.set(spec.name, [...(into.get(spec.name) ?? []), value]);
    }
  }
  for (const [name, values] of out.add) {
    const both = values.filter((v) => (out.remove.get(name) ?? []).includes(v));
    if (both.length)
      throw new UsageError(`${name} ${both.join(", ")}: both added and removed; say one (nothing was sent)`);
  }
  return out;
}

export function hasMemberEdits(edits: MemberEdits): boolean {
  return edits.add.size > 0 || edits.remove.size > 0;
}

/**
 * The new members of each edited field for one vehicle's current record:
 * removed members dropped, added ones appended (once, in the order given),
 * the others kept in their order. Members compare as numbers (ids).
 */
export function applyMemberEdits(
  edits: { add: ReadonlyMap<string, readonly number[]>; remove: ReadonlyMap<string, readonly number[]> },
  current: Readonly<Record<string, unknown>>,
): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const name of new Set([...edits.add.keys(), ...edits.remove.keys()])) {
    const cur = current[name];
    const members = (Array.isArray(cur) ? cur : cur === undefined || cur === null || cur === "" ? [] : [cur]).map(
      Number,
    );
    const drop = new Set(edits.remove.get(name) ?? []);
    const next = members.filter((m) => !drop.has(m));
    for (const a of edits.add.get(name) ?? []) if (!next.includes(a)) next.push(a);
    out[name] = next;
  }
  return out;
}
