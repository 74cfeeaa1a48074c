import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { released, tempFor } from "../base/temp-files.js";
import { isObject, type JsonObject } from "../contract/records.js";
import { catalogCacheDir } from "./cache.js";

/**
 * Vehicles seen in listings, for shell completion (`vehicle get <TAB>` offers
 * `42  B-SC 1001`): `<dataDir>/cache/vehicles.json`, { version, vehicles:
 * [{id, reg, scope, owner}] }, newest first, at most MAX entries; completion
 * offers only those of the current server (scope) and owner. Best effort: a
 * file that cannot be read or written is simply absent; never throws.
 */

const MAX = 2000;
const VERSION = 1;

export interface RecentVehicle {
  id: number;
  reg: string;
  scope?: string;
  /** The owner (user_id) whose listing showed it. */
  owner?: number;
}

function file(dataDir: string): string {
  return join(catalogCacheDir({ dataDir }), "vehicles.json");
}

export function readRecentVehicles(dataDir: string): RecentVehicle[] {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file(dataDir), "utf8"));
    if (!isObject(parsed) || parsed.version !== VERSION || !Array.isArray(parsed.vehicles)) return [];
    return parsed.vehicles.filter(
      (v): v is JsonObject & RecentVehicle => isObject(v) && typeof v.id === "number" && typeof v.reg === "string",
    );
  } catch {
    return [];
  }
}

/** Remember the ids and registration numbers of listed vehicles (merged with what is known, newest first). */
export function rememberVehicles(dataDir: string, scope: string, items: readonly JsonObject[]): void {
  try {
    const seen: RecentVehicle[] = [];
    for (const i of items) {
      const id = typeof i.id === "number" ? i.id : typeof i.vehicle_id === "number" ? i.vehicle_id : undefined;
      const reg = typeof i.vehicle_reg_number === "string" ? i.vehicle_reg_number : "";
      const owner = Number(i.user_id);
      if (id !== undefined) seen.push({ id, reg, scope, ...(Number.isSafeInteger(owner) ? { owner } : {}) });
    }
    if (seen.length === 0) return;
    const key = (v: RecentVehicle) => `${v.scope ?? ""}#${v.id}`;
    const fresh = new Set(seen.map(key));
    const all = [...seen, ...readRecentVehicles(dataDir).filter((v) => !fresh.has(key(v)))].slice(0, MAX);
    mkdirSync(catalogCacheDir({ dataDir }), { recursive: true, mode: 0o700 });
    const target = file(dataDir);
    const tmp = tempFor(target);
    writeFileSync(tmp, `${JSON.stringify({ version: VERSION, vehicles: all })}\n`, { mode: 0o600 });
    renameSync(tmp, target);
    released(tmp);
  } catch {
    // best effort
  }
}
