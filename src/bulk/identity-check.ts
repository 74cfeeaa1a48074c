import { AuthError } from "../api/errors.js";
import { InterruptedError, PartialFailureError } from "../base/errors.js";
import type { Identity } from "../contract/identity.js";
import { IdentityIndex, identityOf } from "../contract/identity.js";
import { recordId } from "../contract/records.js";
import type { Deps } from "../deps.js";
import { scanVehicles } from "../resources/list.js";

/**
 * The identity check that ends every create phase (import, apply, undo's
 * re-creations): convergence across machines, where no lock can reach.
 *
 * The API has no idempotency key, so two runs on two machines can both
 * create the vehicle of one identity (registration number + country,
 * compared as the importer does). After its sends, a run lists the account
 * once (streamed, see scanVehicles) and, for each identity it created that
 * now exists more than once, keeps the vehicle with the lowest id and
 * removes the ones IT created (never a vehicle another run or a person
 * created). Ids grow with creation, so of two runs the later creator always
 * sees the earlier vehicle and removes its own: the runs converge on one
 * vehicle per identity, whichever finishes first. Assumptions (README,
 * "Two runs at once"): ids increase with creation, and a listing shows every
 * write the server has answered.
 *
 * One more case is this job's own: a row a stopped run left in flight, not
 * found by the rerun's reconcile and sent again. The stopped run's request
 * may still land after the rerun's (a server that applies a queued request
 * after the client gave up): a NEWER vehicle of that identity is then the
 * stopped run's late write, and the check removes it too (it keeps the
 * oldest, as always).
 */

/** A vehicle this run created (or an earlier run of the same job, read from the row log). */
export interface CreatedVehicle {
  row: number;
  key: string;
  id: number;
  /** The row's status (created, restored, ...). */
  status: string;
  /** Sent again after a stopped run left it in flight: a newer twin is that run's late write. */
  resent?: boolean;
}

/** A vehicle of this run removed as a copy of `kept`. */
export interface Duplicate extends CreatedVehicle {
  kept: number;
  /** A late write of a stopped run (its row's vehicle is `kept`), not the row's own vehicle. */
  late?: boolean;
  outcome: "removed" | "gone" | "failed";
  error?: string;
}

/** How many times a listing that moved under the walk (other runs removing) is read again. */
const SCAN_ATTEMPTS = 5;

export class CreatedSet {
  readonly #index = new IdentityIndex<CreatedVehicle>();
  #size = 0;

  get size(): number {
    return this.#size;
  }

  add(identity: Identity, v: CreatedVehicle): void {
    this.#index.add(identity, v);
    this.#size++;
  }

  /** The created vehicles an account's vehicle of this identity matches. */
  find(identity: Identity): CreatedVehicle[] {
    return this.#index.find(identity);
  }
}

/**
 * Find the created vehicles that have an older twin in the account, and
 * remove them (`remove`: through the gateway). Returns what it found and did;
 * throws when no listing stayed still long enough to be trusted.
 */
export async function removeDuplicates(
  deps: Deps,
  created: CreatedSet,
  remove: (id: number) => Promise<"removed" | "gone">,
): Promise<Duplicate[]> {
  for (let attempt = 1; attempt <= SCAN_ATTEMPTS; attempt++) {
    /** created id -> the lowest id of another vehicle with its identity */
    const older = new Map<number, { v: CreatedVehicle; kept: number }>();
    /** id of a late write of the stopped run -> its resent row */
    const late = new Map<number, { v: CreatedVehicle; kept: number }>();
    const complete = await scanVehicles(deps, (vehicle) => {
      const identity = identityOf(vehicle);
      const id = recordId(vehicle, "vehicle");
      if (!identity || id === undefined) return;
      for (const c of created.find(identity)) {
        if (id === c.id) continue;
        if (id > c.id) {
          // a newer twin of a resent row: the stopped run's late write (unless this run created it)
          if (c.resent && !created.find(identity).some((o) => o.id === id))
            late.set(id, { v: { ...c, id, late: true } as CreatedVehicle, kept: c.id });
          continue;
        }
        const was = older.get(c.id);
        if (!was || id < was.kept) older.set(c.id, { v: c, kept: id });
      }
    });
    if (!complete) continue;
    // a late write whose resent row is itself a copy: the oldest is kept, whatever removes the rest
    for (const [id, l] of late) {
      const keep = older.get(l.kept)?.kept;
      if (keep !== undefined) l.kept = keep;
      older.set(id, l);
    }
    const found: Duplicate[] = [];
    for (const { v, kept } of older.values()) {
      try {
        found.push({ ...v, kept, outcome: await remove(v.id) });
      } catch (e) {
        if (e instanceof AuthError || e instanceof InterruptedError) throw e;
        found.push({ ...v, kept, outcome: "failed", error: e instanceof Error ? e.message : String(e) });
      }
    }
    return found;
  }
  throw new PartialFailureError(
    `the identity check could not read a steady listing of the account in ${SCAN_ATTEMPTS} tries (other runs kept removing vehicles)`,
    { hint: "rerun the same command: it checks again and removes any copy this run created" },
  );
}
