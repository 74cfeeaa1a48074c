import type { ExtraRow, ImageRow, SandboxState, VehicleRow } from "./rows.js";

/**
 * The sandbox's state in memory: rows by id, per-owner indexes, id counters
 * and the sequence number of the last committed change. No files here: the
 * Store (store.ts) adds the journal and snapshots of persistence/.
 */

export type Mutation =
  | { op: "vehicle.put"; row: VehicleRow }
  | { op: "vehicle.del"; id: number }
  | { op: "extra.put"; row: ExtraRow }
  | { op: "extra.del"; id: number }
  | { op: "image.put"; row: ImageRow };

/** Everything needed to rebuild a State: what a snapshot file holds. */
export interface Snapshot {
  seq: number;
  next: SandboxState["next"];
  vehicles: readonly VehicleRow[];
  extras: readonly ExtraRow[];
  images: readonly ImageRow[];
}

/** Ids of one owner's rows, ascending, for O(1) counts and O(page) slices. */
class OwnerIndex {
  private readonly byOwner = new Map<number, number[]>();

  add(owner: number, id: number): void {
    let ids = this.byOwner.get(owner);
    if (!ids) {
      ids = [];
      this.byOwner.set(owner, ids);
    }
    const last = ids[ids.length - 1];
    if (last === undefined || last < id) {
      ids.push(id);
      return;
    }
    const at = lowerBound(ids, id);
    if (ids[at] !== id) ids.splice(at, 0, id);
  }

  remove(owner: number, id: number): void {
    const ids = this.byOwner.get(owner);
    if (!ids) return;
    const at = lowerBound(ids, id);
    if (ids[at] === id) ids.splice(at, 1);
  }

  count(owner: number): number {
    return this.byOwner.get(owner)?.length ?? 0;
  }

  slice(owner: number, offset: number, limit: number): number[] {
    return this.byOwner.get(owner)?.slice(offset, offset + limit) ?? [];
  }

  all(owner: number): readonly number[] {
    return this.byOwner.get(owner) ?? [];
  }

  clear(): void {
    this.byOwner.clear();
  }
}

function lowerBound(a: readonly number[], x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((a[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A row gone from its table and from its owner's index (nothing when there is no such row). */
function removeRow(rows: Map<number, { owner: number }>, index: OwnerIndex, id: number): void {
  const row = rows.get(id);
  if (!row) return;
  rows.delete(id);
  index.remove(row.owner, id);
}

export class State {
  readonly vehicles = new Map<number, VehicleRow>();
  readonly extras = new Map<number, ExtraRow>();
  readonly images = new Map<number, ImageRow>();
  private readonly vehicleIndex = new OwnerIndex();
  private readonly extraIndex = new OwnerIndex();
  protected next: SandboxState["next"] = { vehicle: 1, extra: 1, image: 1 };
  protected seq = 0;

  /** Forget everything (before loading again from scratch). */
  protected clear(): void {
    this.vehicles.clear();
    this.extras.clear();
    this.images.clear();
    this.vehicleIndex.clear();
    this.extraIndex.clear();
    this.next = { vehicle: 1, extra: 1, image: 1 };
    this.seq = 0;
  }

  protected load(snap: Snapshot): void {
    this.seq = snap.seq;
    this.next = { ...snap.next };
    for (const row of snap.vehicles) this.put("vehicle", this.vehicles, row, this.vehicleIndex);
    for (const row of snap.extras) this.put("extra", this.extras, row, this.extraIndex);
    for (const row of snap.images) this.put("image", this.images, row);
  }

  /** The current state as a snapshot (rows are immutable, so this is a consistent copy). */
  protected capture(): Snapshot {
    return {
      seq: this.seq,
      next: { ...this.next },
      vehicles: [...this.vehicles.values()],
      extras: [...this.extras.values()],
      images: [...this.images.values()],
    };
  }

  // ------------------------------------------------------------ reads

  vehicleCount(owner: number): number {
    return this.vehicleIndex.count(owner);
  }

  vehiclePage(owner: number, offset: number, limit: number): VehicleRow[] {
    return this.vehicleIndex.slice(owner, offset, limit).map((id) => this.vehicles.get(id) as VehicleRow);
  }

  ownerVehicles(owner: number): VehicleRow[] {
    return this.vehicleIndex.all(owner).map((id) => this.vehicles.get(id) as VehicleRow);
  }

  extraCount(owner: number): number {
    return this.extraIndex.count(owner);
  }

  extraPage(owner: number, offset: number, limit: number): ExtraRow[] {
    return this.extraIndex.slice(owner, offset, limit).map((id) => this.extras.get(id) as ExtraRow);
  }

  /** A fresh id; ids are never reused, even after a delete and a restart. */
  allocate(kind: keyof SandboxState["next"]): number {
    const id = this.next[kind];
    this.next[kind] = id + 1;
    return id;
  }

  // ------------------------------------------------------------ changes

  protected apply(m: Mutation): void {
    if (m.op === "vehicle.put") this.put("vehicle", this.vehicles, m.row, this.vehicleIndex);
    else if (m.op === "vehicle.del") removeRow(this.vehicles, this.vehicleIndex, m.id);
    else if (m.op === "extra.put") this.put("extra", this.extras, m.row, this.extraIndex);
    else if (m.op === "extra.del") removeRow(this.extras, this.extraIndex, m.id);
    else if (m.op === "image.put") this.put("image", this.images, m.row);
  }

  /** A row put in its table (and its owner's index, where the table keeps one); fresh ids stay past it. */
  private put<R extends { id: number; owner: number }>(
    kind: keyof SandboxState["next"],
    rows: Map<number, R>,
    row: R,
    index?: OwnerIndex,
  ): void {
    rows.set(row.id, row);
    index?.add(row.owner, row.id);
    if (row.id >= this.next[kind]) this.next[kind] = row.id + 1;
  }
}
