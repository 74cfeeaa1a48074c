// biome-ignore-all lint/suspicious/noExplicitAny: tool results are JSON, read field by field by the assertions
import { Ajv } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMain, sandboxEnv } from "../helpers/cli.js";
import { type InProcessMcp, inProcessMcp } from "../helpers/mcp.js";

/**
 * The tools of `rentctl mcp` in-process (McpServer over an in-memory
 * transport, the SDK's Client): each declared once with an outputSchema that
 * its answers validate against (ajv, as a client checks them), the list
 * derived from the declarations (no write tool on a read-only server), and
 * vehicle_calendar's window.
 */

let sb: Awaited<ReturnType<typeof sandboxEnv>>;
let ro: InProcessMcp;
let rw: InProcessMcp;
beforeAll(async () => {
  sb = await sandboxEnv();
  ro = await inProcessMcp(sb.env);
  rw = await inProcessMcp(sb.env, { allowWrites: true });
  // blocked days in and around June 2027, through the CLI
  const r = await runMain(
    ["vehicle", "calendar", "1", "--block", "2027-05-31", "--block", "2027-06-10..2027-06-11", "--block", "2027-07-01"],
    sb.env,
  );
  expect(r.code, r.stderr).toBe(0);
});
afterAll(async () => {
  await ro?.close();
  await rw?.close();
  await sb?.cleanup();
});

const WRITE_TOOLS = ["apply_plan", "undo"];

describe("rentctl mcp tools (in-process)", () => {
  it("lists the declared tools: a read-only server has no write tool, --allow-writes adds them", async () => {
    const roNames = (await ro.client.listTools()).tools.map((t) => t.name);
    const rwNames = (await rw.client.listTools()).tools.map((t) => t.name);
    for (const w of WRITE_TOOLS) {
      expect(roNames).not.toContain(w);
      expect(rwNames).toContain(w);
    }
    expect(rwNames.filter((n) => !WRITE_TOOLS.includes(n)).sort()).toEqual([...roNames].sort());
    const refused = await ro.call("apply_plan", { token: "rp_1" });
    expect(refused.isError).toBe(true);
    expect(refused.data.error.kind).toBe("usage");
  });

  it("every tool declares an outputSchema, and each answer's structuredContent validates against it (ajv)", async () => {
    const { tools } = await rw.client.listTools();
    const ajv = new Ajv({ strict: false });
    const validators = new Map(
      tools.map((t) => {
        expect(t.outputSchema, t.name).toBeDefined();
        expect(t.outputSchema!.type, t.name).toBe("object");
        return [t.name, ajv.compile(t.outputSchema!)];
      }),
    );
    const plan = await rw.call("plan_changes", { ids: [1], changes: { price_per_day: 46 } });
    const calls: Array<[string, Record<string, unknown>]> = [
      ["search_catalog", { catalog: "brands", query: "toyota" }],
      ["list_vehicles", { limit: 2 }],
      ["list_vehicles", { where: ["price_per_day<50"] }],
      ["get_vehicle", { id: 2 }],
      ["list_extras", {}],
      ["get_extra", { id: 1 }],
      ["vehicle_calendar", { id: 1, from: "2027-06", months: 1 }],
      ["export_account", { names: true }],
      ["undo_history", {}],
      ["lint_account", { min_severity: "warning" }],
      ["apply_plan", { token: plan.data.token }],
      ["undo_history", { limit: 1 }],
      ["undo_history", { all_owners: true }],
      // failures: their structuredContent is the error form of the same schema
      ["get_vehicle", { id: 999 }],
      ["list_vehicles", { where: ["colour=red"] }],
    ];
    const answered = new Set<string>(["plan_changes"]);
    expect(validators.get("plan_changes")!(plan.data), JSON.stringify(validators.get("plan_changes")!.errors)).toBe(
      true,
    );
    for (const [name, args] of calls) {
      const r = await rw.call(name, args);
      const validate = validators.get(name)!;
      expect(validate(r.data), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
      if (!r.isError) answered.add(name);
    }
    const history = await rw.call("undo_history", { limit: 1 });
    const undone = await rw.call("undo", { op: history.data.entries[0].op });
    expect(undone.isError, undone.text).toBe(false);
    expect(validators.get("undo")!(undone.data)).toBe(true);
    answered.add("undo");
    expect([...answered].sort()).toEqual(tools.map((t) => t.name).sort());
  });

  it("plan_changes by ids changes that vehicle only, though another has its registration number; apply_plan runs it by id", async () => {
    const one = (await rw.call("get_vehicle", { id: 2 })).data.vehicle;
    const { sampleVehicleInput } = await import("../../src/sandbox/server.js");
    const { createVehicle } = await import("../../src/ops/vehicle/create.js");
    const { user_id: _owner, ...values } = sampleVehicleInput(1001);
    const twin = await createVehicle(
      rw.deps,
      { values: { ...values, vehicle_reg_number: one.vehicle_reg_number, price_per_day: 55 }, allowDuplicate: true },
      {},
    );
    const twinId = Number(twin.id);
    expect(twinId).not.toBe(2);
    try {
      // the twin: the higher id (a registration number names the lowest)
      const plan = await rw.call("plan_changes", { ids: [twinId], changes: { price_per_day: 91 } });
      expect(plan.isError, plan.text).toBe(false);
      expect(plan.data.counts.vehicles_change).toBe(1);
      const applied = await rw.call("apply_plan", { token: plan.data.token });
      expect(applied.isError, applied.text).toBe(false);
      expect(applied.data.counts).toEqual({ changed: 1 });
      expect((await rw.call("get_vehicle", { id: twinId })).data.vehicle.price_per_day).toBe(91);
      expect((await rw.call("get_vehicle", { id: 2 })).data.vehicle.price_per_day).toBe(one.price_per_day);
      // its undo op restores that vehicle (the edit-many apply's one op)
      expect((await rw.call("undo", { op: applied.data.undo_op })).isError).toBe(false);
      expect((await rw.call("get_vehicle", { id: twinId })).data.vehicle.price_per_day).toBe(55);
    } finally {
      await runMain(["vehicle", "remove", String(twinId), "--yes"], sb.env);
    }
  });

  it("vehicle_calendar lists only the window's blocked days, and names the window", async () => {
    const r = await ro.call("vehicle_calendar", { id: 1, from: "2027-06", months: 1 });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.calendar).toEqual({
      vehicle_id: 1,
      blocked: ["2027-06-10", "2027-06-11"],
      window: { from: "2027-06-01", to: "2027-06-30", months: 1 },
    });
    const two = await ro.call("vehicle_calendar", { id: 1, from: "2027-05", months: 2 });
    expect(two.data.calendar.blocked).toEqual(["2027-05-31", "2027-06-10", "2027-06-11"]);
    expect(two.data.calendar.window).toEqual({ from: "2027-05-01", to: "2027-06-30", months: 2 });
  });

  it("input is checked by the declared schema: an unknown argument and an out-of-range limit are refused", async () => {
    const typo = await ro.call("list_vehicles", { filter: "Munich" });
    expect(typo.isError).toBe(true);
    expect(typo.text).toMatch(/unknown argument "filter"; it takes where, search, sort, limit, cursor/);
    expect((await ro.call("vehicle_calendar", { id: 1, months: 25 })).isError).toBe(true);
  });

  it("refusals speak in the tools' terms, not the CLI's flags", async () => {
    const where = await ro.call("list_vehicles", { where: ["colour=red"] });
    expect(where.data.error.message).toBe('where "colour=red": unknown field "colour"');
    expect(where.data.error.hint).toMatch(/get_vehicle/);
    const sort = await ro.call("list_vehicles", { sort: "colour" });
    expect(sort.data.error.message).toBe('sort "colour": unknown field "colour"');
    for (const r of [where, sort]) expect(`${r.data.error.message} ${r.data.error.hint}`).not.toMatch(/--|rentctl /);
  });

  it("an API error's hint names tools, not CLI commands (a 404 of get_vehicle and of get_extra)", async () => {
    for (const [tool, id] of [
      ["get_vehicle", 987654],
      ["get_extra", 987654],
    ] as const) {
      const r = await ro.call(tool, { id });
      expect(r.isError, r.text).toBe(true);
      expect(r.data.error.code).toBe(5);
      expect(r.data.error.hint).toMatch(/list_vehicles and list_extras/);
      expect(`${r.text} ${r.data.error.hint}`).not.toMatch(/--|rentctl /);
    }
  });
});
