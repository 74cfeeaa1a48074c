import { DEMO_OWNERS } from "../sandbox/owners.js";
import { sampleVehicleInput, seedState } from "../sandbox/seed.js";
import { type RecordedRequest, type RunningSandbox, type SandboxFaults, startSandbox } from "../sandbox/server.js";
import type { VehicleInput } from "./contract-types.js";

/**
 * The sandbox in-process, for integrators' tests (`import { createSandbox }
 * from "rentctl/sandbox"`): the same server and store as `rentctl sandbox
 * serve`, on an ephemeral loopback port, in memory, stateful across requests
 * (a create is listed by the next list), with the CLI's fault switches, and a
 * record of what each request carried so a test can assert what its code sent.
 */

export type { RecordedRequest, SandboxFaults };

/** A valid vehicle input (wire names) for an owner: every required field, for tests to change what they need. */
export function sampleVehicle(userId = 1001): VehicleInput & { user_id: number } {
  return { ...sampleVehicleInput(userId) } as unknown as VehicleInput & { user_id: number };
}

/** Vehicles and extras to start with: wire input records, created through the sandbox's own checks. */
export interface SandboxSeedRecords {
  /** Each with its owner's `user_id` (1001, 1002 or 1003) and the vehicle fields. */
  vehicles?: Array<Record<string, unknown> & { user_id: number }>;
  /** Each with the owner it belongs to (`user_id`) and the extra's members. */
  extras?: Array<Record<string, unknown> & { user_id: number }>;
}

export interface CreateSandboxOptions {
  /** `demo` (default: three owners, vehicles and extras), `empty` (the owners, nothing else), or records. */
  seed?: "demo" | "empty" | SandboxSeedRecords;
  /** Fault switches from the start (change them later with `setFaults`). */
  faults?: SandboxFaults;
  /** Default 0: an ephemeral port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /**
   * Run before each request is answered, with what it carried (awaited): a test can change the
   * account at an exact moment, e.g. between the two reads of a guarded edit.
   */
  onRequest?: (request: RecordedRequest) => void | Promise<void>;
}

export interface Sandbox {
  /** Base address (without `/api/v302`), e.g. `http://127.0.0.1:39215`. */
  url: string;
  /** The first owner's key and id (1001); `owners` lists all three. */
  apiKey: string;
  userId: number;
  owners: Array<{ userId: number; apiKey: string; name: string }>;
  /**
   * Back to the seed (ids start over), the request record cleared and no faults (the switches of
   * createSandbox and setFaults alike); `{ keepFaults: true }` keeps the switches in force.
   */
  reset(opts?: { keepFaults?: boolean }): Promise<void>;
  /**
   * Change the fault switches from now on (they replace the current set), e.g. `{ failRate: 1,
   * faultFirst: 2 }`: the next 2 requests fail; `{ failRate: 1, faultFirst: 1, only: "vehicles.create" }`:
   * the next create fails, every other request is answered.
   */
  setFaults(faults: SandboxFaults): void;
  /**
   * What each attempt carried, in order (keys never included), with the fault it got (`fault`:
   * `reset`, `html502`, `throttle` or `fail`) when it got one: a retried read is there once per attempt.
   */
  requests(): RecordedRequest[];
  close(): Promise<void>;
}

function emptyState() {
  const s = seedState();
  return { ...s, vehicles: [], extras: [], images: [], next: { vehicle: 1, extra: 1, image: 1 } };
}

export async function createSandbox(opts: CreateSandboxOptions = {}): Promise<Sandbox> {
  const records: RecordedRequest[] = [];
  /** The fault switches in force (reset() clears them unless asked to keep them). */
  let faults: SandboxFaults = { ...(opts.faults ?? {}) };
  const seedOf = opts.seed ?? "demo";
  const sb: RunningSandbox = await startSandbox({
    host: opts.host ?? "127.0.0.1",
    port: opts.port ?? 0,
    dataFile: null,
    seed: seedOf === "demo" ? seedState : emptyState,
    onInput: async (r) => {
      records.push(r);
      await opts.onRequest?.(r);
    },
    ...(opts.faults ?? {}),
  });
  const keyOf = (userId: number) => {
    const o = DEMO_OWNERS.find((d) => d.userId === userId);
    if (!o) throw new Error(`createSandbox: no owner ${userId} (the sandbox's owners are 1001, 1002, 1003)`);
    return o.apiKey;
  };
  const post = async (path: string, userId: number, fields: Record<string, unknown>) => {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) {
      if (Array.isArray(v)) for (const m of v) body.append(`${k}[]`, String(m));
      else if (v !== undefined && v !== null) body.append(k, String(v));
    }
    const res = await fetch(`${sb.url}/api/v302/${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${keyOf(userId)}`, "content-type": "application/x-www-form-urlencoded" },
      body,
    });
    if (!res.ok) throw new Error(`createSandbox: seeding ${path} failed (${res.status}): ${await res.text()}`);
  };
  const seedRecords = async () => {
    if (typeof seedOf !== "object") return;
    for (const v of seedOf.vehicles ?? []) await post("vehicles/create", v.user_id, v);
    for (const e of seedOf.extras ?? []) {
      const { user_id, ...extra } = e;
      await post("vehicles/extras/create", user_id, { locale_id: 40, ...extra });
    }
  };
  await seedRecords();
  records.length = 0;
  const first = DEMO_OWNERS[0]!;
  return {
    url: sb.url,
    apiKey: first.apiKey,
    userId: first.userId,
    owners: DEMO_OWNERS.map((o) => ({ userId: o.userId, apiKey: o.apiKey, name: o.name })),
    async reset(resetOpts = {}) {
      sb.setFaults({}); // the seed records are sent without faults
      sb.reset();
      await seedRecords();
      records.length = 0;
      if (resetOpts.keepFaults) sb.setFaults(faults);
      else faults = {};
    },
    setFaults: (f) => {
      sb.setFaults(f);
      faults = { ...f };
    },
    requests: () => records.map((r) => structuredClone(r)),
    close: () => sb.close(),
  };
}
