import type { ParamSpec } from "../contract/types.js";
import { VEHICLE_CLIENT_FILLED, VEHICLE_EDITABLE_FIELDS } from "../contract/vehicle-fields.js";

/**
 * The columns of a fleet file: the contract's vehicle input fields (wire
 * names; the kebab-case flag names are accepted too), plus `images` (image
 * file paths to upload). `user_id` and `locale_id` come from the profile;
 * `vehicle_id` / `id` and the server's timestamps are ignored on import, so a
 * `--with-ids` export or a `vehicle list -o json` reads back.
 */

export const IMAGES_KEY = "images";
/** Members of an exported record (or a list output) that import ignores. */
export const IGNORED_KEYS = new Set(["id", "vehicle_id", ...VEHICLE_CLIENT_FILLED, "created_at", "updated_at"]);
/** Ids that belong to one account: exported only with --with-ids. */
export const ACCOUNT_BOUND = new Set(["vehicle_images", "vehicle_extras"]);

/** The fields a fleet row may carry, in the contract's order. */
export const ROW_FIELDS: readonly ParamSpec[] = VEHICLE_EDITABLE_FIELDS;
const BY_NAME = new Map(ROW_FIELDS.map((f) => [f.name, f]));
const kebab = (wire: string) => wire.replace(/_/g, "-");
const KEY_TO_WIRE = new Map<string, string>();
for (const f of ROW_FIELDS) {
  KEY_TO_WIRE.set(f.name, f.name);
  KEY_TO_WIRE.set(kebab(f.name), f.name);
}

export function fieldSpec(name: string): ParamSpec | undefined {
  return BY_NAME.get(name);
}

/** Export columns: every input field in the contract's order (csv needs them up front). */
export function exportColumns(withIds: boolean): string[] {
  const cols = ROW_FIELDS.filter((f) => withIds || !ACCOUNT_BOUND.has(f.name)).map((f) => f.name);
  return withIds ? ["vehicle_id", ...cols] : cols;
}

function distance(a: string, b: string): number {
  const d: number[] = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = d[0]!;
    d[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = d[j]!;
      d[j] = Math.min(d[j]! + 1, d[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return d[b.length]!;
}

/** The closest known key, when it is close enough to be a typo. */
export function didYouMean(key: string): string | undefined {
  const k = key.toLowerCase().replace(/-/g, "_");
  let best: string | undefined;
  let bestD = Number.POSITIVE_INFINITY;
  for (const name of [...BY_NAME.keys(), IMAGES_KEY]) {
    const dd = distance(k, name);
    if (dd < bestD) {
      bestD = dd;
      best = name;
    }
  }
  if (best === undefined) return undefined;
  if (bestD <= Math.max(2, Math.floor(k.length / 4))) return best;
  const short = [...BY_NAME.keys()].find((n) => n.endsWith(`_${k}`) || n === `vehicle_${k}`);
  return short;
}

export interface RowProblem {
  field: string;
  message: string;
}

export interface MappedRow {
  /** Wire name → value, as the file gave it (names not yet resolved). */
  values: Record<string, unknown>;
  /** Image file paths, as written (relative to the data file). */
  images: string[];
  problems: RowProblem[];
}

function splitText(v: string): string[] {
  return v
    .split("|")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

/** A raw row's members by wire name; unknown keys are problems with a hint. */
export function mapRow(data: Record<string, unknown>): MappedRow {
  const values: Record<string, unknown> = {};
  const images: string[] = [];
  const problems: RowProblem[] = [];
  // for-in, not Object.entries: the check runs on every row of a fleet file (no pair arrays per key)
  for (const rawKey in data) {
    const v = data[rawKey];
    const key = rawKey.trim();
    if (key === "" && (v === "" || v === undefined)) continue;
    if (IGNORED_KEYS.has(key)) continue;
    const empty = v === undefined || v === null || (typeof v === "string" && v.trim() === "");
    if (key === IMAGES_KEY) {
      if (empty) continue;
      const list = Array.isArray(v) ? v.map(String) : splitText(String(v));
      images.push(...list.map((s) => s.trim()).filter(Boolean));
      continue;
    }
    const wire = KEY_TO_WIRE.get(key);
    if (!wire) {
      const hint = didYouMean(key);
      problems.push({ field: key, message: `unknown key${hint ? ` (did you mean ${hint}?)` : ""}` });
      continue;
    }
    if (empty) continue;
    if (wire in values) {
      problems.push({ field: key, message: `given twice (also as ${wire === key ? kebab(wire) : wire})` });
      continue;
    }
    const spec = BY_NAME.get(wire)!;
    if (spec.type.endsWith("[]")) {
      if (Array.isArray(v)) values[wire] = v;
      else if (typeof v === "string") values[wire] = splitText(v);
      else values[wire] = [v];
      if ((values[wire] as unknown[]).length === 0) delete values[wire];
    } else values[wire] = v; // a csv cell comes trimmed unless it was quoted (src/files/read.ts)
  }
  return { values, images, problems };
}
