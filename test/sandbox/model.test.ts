import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { WireRecord, WireValue } from "../../src/contract/validate.js";
import { sampleVehicleInput, seedState } from "../../src/sandbox/seed.js";
import { type RunningSandbox, startSandbox } from "../../src/sandbox/server.js";
import { Api, KEY_1001, tempDir } from "./helpers.js";

/**
 * Model-based test: random sequences of vehicle and extra operations run
 * against the real server and against a plain in-memory model of what the
 * contract (as the sandbox decides it) says must happen. The persistent
 * variant also restarts the server on the same data file at random points,
 * with a tiny journal bound so compaction runs all the time.
 */

interface Model {
  vehicles: Map<number, WireRecord>;
  extras: Map<number, { fields: WireRecord; is_active: 0 | 1 }>;
  goneVehicles: number[];
  goneExtras: number[];
  maxVehicleId: number;
  maxExtraId: number;
}

interface Real {
  sb: RunningSandbox;
  api: Api;
  file: string | null;
}

type Cmd = fc.AsyncCommand<Model, Real>;

function cmd(name: string, check: (m: Readonly<Model>) => boolean, run: (m: Model, r: Real) => Promise<void>): Cmd {
  return { check, run, toString: () => name };
}

function initialModel(): Model {
  const seed = seedState();
  const vehicles = new Map(seed.vehicles.filter((v) => v.owner === 1001).map((v) => [v.id, { ...v.fields }]));
  const extras = new Map(
    seed.extras.filter((e) => e.owner === 1001).map((e) => [e.id, { fields: { ...e.fields }, is_active: e.is_active }]),
  );
  return {
    vehicles,
    extras,
    goneVehicles: [],
    goneExtras: [],
    maxVehicleId: Math.max(...seed.vehicles.map((v) => v.id)),
    maxExtraId: Math.max(...seed.extras.map((e) => e.id)),
  };
}

function nth<K, V>(map: Map<K, V>, pick: number): [K, V] {
  return [...map.entries()][pick % map.size] as [K, V];
}

function stripVehicle(data: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, created_at: _c, updated_at: _u, ...fields } = data;
  return fields;
}

function stripExtra(data: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, created_at: _c, updated_at: _u, user_id: _o, option_name: _n, ...rest } = data;
  return rest;
}

const EXTRA_MEMBERS = ["option_id", "price", "currency_id", "period", "quantity"] as const;

const extraFieldsArb = fc.record({
  option_id: fc.integer({ min: 1, max: 11 }),
  price: fc.nat(200),
  currency_id: fc.integer({ min: 1, max: 10 }),
  period: fc.integer({ min: 1, max: 2 }),
  quantity: fc.integer({ min: 1, max: 5 }),
});

function commands(persistent: boolean): fc.Arbitrary<Cmd>[] {
  const list: fc.Arbitrary<Cmd>[] = [
    fc
      .record({
        price: fc.nat(500),
        active: fc.constantFrom(0, 1),
        reg: fc.stringMatching(/^[A-Z]{1,3}-\d{1,4}$/),
        extras: fc.array(fc.nat(), { maxLength: 2 }),
      })
      .map((a) =>
        cmd(
          `createVehicle(${JSON.stringify(a)})`,
          () => true,
          async (m, r) => {
            const extraIds = m.extras.size ? [...new Set(a.extras.map((p) => nth(m.extras, p)[0]))] : [];
            const fields: WireRecord = {
              ...sampleVehicleInput(1001),
              price_per_day: a.price,
              vehicle_activity: a.active,
              vehicle_reg_number: a.reg,
              ...(extraIds.length ? { vehicle_extras: extraIds } : {}),
            };
            const res = await r.api.post("vehicles/create", fields);
            expect(res.status, res.text).toBe(200);
            const id = res.body.data.id as number;
            expect(id).toBeGreaterThan(m.maxVehicleId);
            expect(stripVehicle(res.body.data)).toEqual(fields);
            m.maxVehicleId = id;
            m.vehicles.set(id, fields);
          },
        ),
      ),
    fc
      .record({
        pick: fc.nat(),
        keep: fc.array(fc.boolean(), { minLength: 64, maxLength: 64 }),
        price: fc.option(fc.nat(999)),
      })
      .map((a) =>
        cmd(
          `editVehicle(${a.pick}, price=${a.price})`,
          (m) => m.vehicles.size > 0,
          async (m, r) => {
            const [id, current] = nth(m.vehicles, a.pick);
            // Keep a random subset of the current fields; paired delivery fields go together.
            const keys = Object.keys(current);
            const fields: WireRecord = { user_id: 1001 };
            keys.forEach((k, i) => {
              const bit = k.startsWith("vehicle_delivery_address_fixed_") ? 63 : i;
              if (a.keep[bit] && k !== "user_id") fields[k] = current[k] as WireValue;
            });
            if (a.price !== null) fields.price_per_day = a.price;
            const res = await r.api.post("vehicles/edit", { ...fields, vehicle_id: id });
            expect(res.status, res.text).toBe(200);
            expect(stripVehicle(res.body.data)).toEqual(fields);
            m.vehicles.set(id, fields);
          },
        ),
      ),
    fc.nat().map((pick) =>
      cmd(
        `removeVehicle(${pick})`,
        (m) => m.vehicles.size > 0,
        async (m, r) => {
          const [id] = nth(m.vehicles, pick);
          const res = await r.api.post("vehicles/remove", { user_id: 1001, vehicle_id: id });
          expect(res.status, res.text).toBe(200);
          m.vehicles.delete(id);
          m.goneVehicles.push(id);
        },
      ),
    ),
    fc.nat().map((pick) =>
      cmd(
        `getVehicle(${pick})`,
        (m) => m.vehicles.size > 0,
        async (m, r) => {
          const [id, fields] = nth(m.vehicles, pick);
          const res = await r.api.get("vehicles/list/id", { vehicle_id: id, locale_id: 40 });
          expect(res.status).toBe(200);
          expect(res.body.data.id).toBe(id);
          expect(stripVehicle(res.body.data)).toEqual(fields);
        },
      ),
    ),
    fc.nat().map((pick) =>
      cmd(
        `getRemovedVehicle(${pick})`,
        (m) => m.goneVehicles.length > 0,
        async (m, r) => {
          const id = m.goneVehicles[pick % m.goneVehicles.length] as number;
          const res = await r.api.get("vehicles/list/id", { vehicle_id: id, locale_id: 40 });
          expect(res.status).toBe(404);
          expect(res.body.errors).toEqual({ message: "vehicle not found", code: 404 });
        },
      ),
    ),
    fc.record({ limit: fc.integer({ min: 1, max: 6 }), offset: fc.nat(14) }).map((a) =>
      cmd(
        `listVehicles(${a.limit}, ${a.offset})`,
        () => true,
        async (m, r) => {
          const res = await r.api.get("vehicles/list", { user_id: 1001, locale_id: 40, ...a });
          const ids = [...m.vehicles.keys()].sort((x, y) => x - y);
          const total = ids.length;
          expect(res.body).toMatchObject({
            total,
            per_page: a.limit,
            limit: a.limit,
            current_page: total === 0 ? 0 : Math.floor(a.offset / a.limit) + 1,
            last_page: Math.ceil(total / a.limit),
          });
          const page = ids.slice(a.offset, a.offset + a.limit);
          expect(res.body.data.map((v: { id: number }) => v.id)).toEqual(page);
          for (const v of res.body.data) expect(stripVehicle(v)).toEqual(m.vehicles.get(v.id));
        },
      ),
    ),
    extraFieldsArb.map((fields) =>
      cmd(
        `createExtra(${JSON.stringify(fields)})`,
        () => true,
        async (m, r) => {
          const res = await r.api.post("vehicles/extras/create", { ...fields, locale_id: 40 });
          expect(res.status, res.text).toBe(200);
          const id = res.body.data.id as number;
          expect(id).toBeGreaterThan(m.maxExtraId);
          expect(stripExtra(res.body.data)).toEqual({ ...fields, is_active: 1 });
          m.maxExtraId = id;
          m.extras.set(id, { fields, is_active: 1 });
        },
      ),
    ),
    fc
      .record({ pick: fc.nat(), fields: extraFieldsArb, keep: fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }) })
      .map((a) =>
        cmd(
          `updateExtra(${a.pick}, ${JSON.stringify(a.keep)})`,
          (m) => m.extras.size > 0,
          async (m, r) => {
            const [id, current] = nth(m.extras, a.pick);
            const fields: WireRecord = {};
            EXTRA_MEMBERS.forEach((k, i) => {
              if (a.keep[i]) fields[k] = a.fields[k];
            });
            const res = await r.api.post("vehicles/extras/update", { ...fields, extra_id: id, locale_id: 40 });
            expect(res.status, res.text).toBe(200);
            expect(stripExtra(res.body.data)).toEqual({ ...fields, is_active: current.is_active });
            m.extras.set(id, { fields, is_active: current.is_active });
          },
        ),
      ),
    fc.nat().map((pick) =>
      cmd(
        `switchExtra(${pick})`,
        (m) => m.extras.size > 0,
        async (m, r) => {
          const [id, current] = nth(m.extras, pick);
          const res = await r.api.post("vehicles/extras/switch", { extra_id: id });
          expect(res.status, res.text).toBe(200);
          const is_active = current.is_active === 1 ? 0 : 1;
          expect(res.body.data.is_active).toBe(is_active);
          m.extras.set(id, { ...current, is_active });
        },
      ),
    ),
    fc.nat().map((pick) =>
      cmd(
        `deleteExtra(${pick})`,
        (m) => m.extras.size > 0,
        async (m, r) => {
          const [id] = nth(m.extras, pick);
          const res = await r.api.post("vehicles/extras/delete", { extra_id: id });
          expect(res.status, res.text).toBe(200);
          m.extras.delete(id);
          m.goneExtras.push(id);
          for (const [vid, fields] of m.vehicles) {
            const list = fields.vehicle_extras;
            if (!Array.isArray(list) || !list.includes(id)) continue;
            const { vehicle_extras: _drop, ...rest } = fields;
            const kept = list.filter((x) => x !== id);
            m.vehicles.set(vid, kept.length ? { ...rest, vehicle_extras: kept } : rest);
          }
        },
      ),
    ),
    fc.nat().map((pick) =>
      cmd(
        `getExtra(${pick})`,
        (m) => m.extras.size > 0 || m.goneExtras.length > 0,
        async (m, r) => {
          if (m.goneExtras.length && (pick % 3 === 0 || m.extras.size === 0)) {
            const id = m.goneExtras[pick % m.goneExtras.length] as number;
            const res = await r.api.get("vehicles/extras/list/id", { extra_id: id, locale_id: 40 });
            expect(res.status).toBe(404);
            return;
          }
          const [id, current] = nth(m.extras, pick);
          const res = await r.api.get("vehicles/extras/list/id", { extra_id: id, locale_id: 40 });
          expect(stripExtra(res.body.data)).toEqual({ ...current.fields, is_active: current.is_active });
        },
      ),
    ),
    fc.record({ limit: fc.integer({ min: 1, max: 4 }), offset: fc.nat(8) }).map((a) =>
      cmd(
        `listExtras(${a.limit}, ${a.offset})`,
        () => true,
        async (m, r) => {
          const res = await r.api.get("vehicles/extras/list", { locale_id: 40, ...a });
          const ids = [...m.extras.keys()].sort((x, y) => x - y);
          expect(res.body.total).toBe(ids.length);
          expect(res.body.data.map((e: { id: number }) => e.id)).toEqual(ids.slice(a.offset, a.offset + a.limit));
        },
      ),
    ),
  ];
  if (persistent) {
    list.push(
      fc.constant(
        cmd(
          "restart",
          () => true,
          async (_m, r) => {
            await r.sb.close();
            r.sb = await startSandbox({ port: 0, dataFile: r.file, walLimit: 3 });
            r.api = new Api(r.sb.url, KEY_1001);
          },
        ),
      ),
    );
  }
  return list;
}

async function fullCheck(m: Model, api: Api): Promise<void> {
  const vehicles = (await api.get("vehicles/list", { user_id: 1001, locale_id: 40, limit: 1000 })).body.data;
  expect(new Map(vehicles.map((v: Record<string, unknown>) => [v.id, stripVehicle(v)]))).toEqual(m.vehicles);
  const extras = (await api.get("vehicles/extras/list", { locale_id: 40, limit: 1000 })).body.data;
  expect(extras.length).toBe(m.extras.size);
  for (const e of extras) {
    const want = m.extras.get(e.id);
    expect(stripExtra(e)).toEqual({ ...want?.fields, is_active: want?.is_active });
  }
}

describe("model-based: vehicles and extras", () => {
  it("in memory", async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commands(false), { maxCommands: 40 }), async (cmds) => {
        const sb = await startSandbox({ port: 0, dataFile: null });
        const real: Real = { sb, api: new Api(sb.url, KEY_1001), file: null };
        try {
          const model = initialModel();
          await fc.asyncModelRun(() => ({ model, real }), cmds);
          await fullCheck(model, real.api);
        } finally {
          await real.sb.close();
        }
      }),
      { numRuns: 60 },
    );
  });

  it("persistent, with restarts and constant compaction", async () => {
    const { dir, cleanup } = tempDir();
    let run = 0;
    try {
      await fc.assert(
        fc.asyncProperty(fc.commands(commands(true), { maxCommands: 30 }), async (cmds) => {
          const file = join(dir, `run-${run++}.json`);
          const sb = await startSandbox({ port: 0, dataFile: file, walLimit: 3 });
          const real: Real = { sb, api: new Api(sb.url, KEY_1001), file };
          try {
            const model = initialModel();
            await fc.asyncModelRun(() => ({ model, real }), cmds);
            await real.sb.close();
            real.sb = await startSandbox({ port: 0, dataFile: file });
            real.api = new Api(real.sb.url, KEY_1001);
            await fullCheck(model, real.api);
          } finally {
            await real.sb.close();
          }
        }),
        { numRuns: 25 },
      );
    } finally {
      cleanup();
    }
  });
});
