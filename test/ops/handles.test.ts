// biome-ignore-all lint/suspicious/noExplicitAny: records and tool results are JSON, read field by field by the assertions
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type RentctlClient } from "../../src/library/index.js";
import { DEMO_OWNERS } from "../../src/sandbox/owners.js";
import { vehicleRow } from "../fleet/helpers.js";
import { extraCreateArgs, json, runMain, sandboxEnv } from "../helpers/cli.js";
import { type InProcessMcp, inProcessMcp } from "../helpers/mcp.js";

/**
 * Handles wherever an id is taken (issue 41 item 7): a vehicle by id or
 * registration number, an extra by id or its option name (with its period
 * when two share the option), through the one resolver (src/ops/handles.ts),
 * in every front end: the CLI's positional ids, --attach, --add / --remove
 * members, --set and files; the MCP tools' arguments; the library's methods.
 * The sandbox's owner 1001: vehicles 1 "B-SC 1001", 2 "M-SC 2002", 3
 * "HH-SC 3003"; extras 1 Child seat (period 1), 2 Additional driver
 * (period 2), 3 Snow chains (period 2, off).
 */

let sb: Awaited<ReturnType<typeof sandboxEnv>>;
let mcp: InProcessMcp;
let client: RentctlClient;
beforeAll(async () => {
  sb = await sandboxEnv();
  mcp = await inProcessMcp(sb.env, { allowWrites: true });
  const owner = DEMO_OWNERS[0]!;
  client = createClient({ baseUrl: sb.sb.url, apiKey: owner.apiKey, userId: owner.userId });
});
afterAll(async () => {
  await client?.close();
  await mcp?.close();
  await sb?.cleanup();
});

const cli = async (args: string[]) => {
  const r = await runMain(args, sb.env);
  expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(0);
  return r;
};
const vehicle = async (id: number) =>
  json<Record<string, any>>((await cli(["vehicle", "get", String(id), "-o", "json"])).stdout);
const extra = async (id: number) =>
  json<Record<string, any>>((await cli(["extra", "get", String(id), "-o", "json"])).stdout);

/** Each place that takes an id, given a name instead; `check` reads back what it did. */
const PLACES: Array<{ place: string; run: () => Promise<unknown>; check?: (got: any) => Promise<void> | void }> = [
  {
    place: "vehicle get <registration>",
    run: () => cli(["vehicle", "get", " b-sc 1001 ", "-q"]),
    check: (r) => expect(r.stdout.trim()).toBe("1"),
  },
  {
    place: "vehicle edit <registration>",
    run: () => cli(["vehicle", "edit", "M-SC 2002", "--price-per-day", "61"]),
    check: async () => expect(Number((await vehicle(2)).price_per_day)).toBe(61),
  },
  {
    place: "vehicle deactivate / activate <registration>",
    run: async () => {
      await cli(["vehicle", "deactivate", "HH-SC 3003"]);
      return vehicle(3);
    },
    check: async (v) => {
      expect(Number(v.vehicle_activity)).toBe(0);
      await cli(["vehicle", "activate", "hh-sc 3003"]);
      expect(Number((await vehicle(3)).vehicle_activity)).toBe(1);
    },
  },
  {
    place: "vehicle calendar <registration>",
    run: () => cli(["vehicle", "calendar", "B-SC 1001", "-o", "json"]),
    check: (r) => expect(json<any>(r.stdout).vehicle_id).toBe(1),
  },
  {
    place: "vehicle remove <registration> (dry run)",
    run: () => cli(["vehicle", "remove", "HH-SC 3003", "--dry-run"]),
    check: (r) => expect(r.stderr).toMatch(/would remove vehicle 3/),
  },
  {
    place: "image upload --attach <registration>",
    run: async () => {
      const file = join(sb.env.HOME!, "front.jpg");
      writeFileSync(file, Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 0xff, 0xd9]));
      const before = (await vehicle(1)).vehicle_images as number[];
      const r = await cli(["image", "upload", file, "--attach", "B-SC 1001"]);
      return { r, before };
    },
    check: async ({ r, before }) => {
      expect(r.stderr).toMatch(/attached to vehicle 1/);
      expect(((await vehicle(1)).vehicle_images as number[]).length).toBe(before.length + 1);
    },
  },
  {
    place: "vehicle edit --add extras=<option name (period N)> the account lacks: exit 2, nothing sent",
    run: () => runMain(["vehicle", "edit", "M-SC 2002", "--add", "extras=Child seat (period 9)"], sb.env),
    check: (r) => {
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/no extra "Child seat \(period 9\)"/);
      expect(r.stderr).toMatch(/did you mean "Child seat \(period 1\)"/);
    },
  },
  {
    place: "vehicle edit --add extras=<option name> (an extra the account has)",
    run: () => cli(["vehicle", "edit", "2", "--add", "extras=child seat"]),
    check: async () => expect((await vehicle(2)).vehicle_extras.map(Number)).toContain(1),
  },
  {
    place: "vehicle edit --where … --remove extras=<option name>",
    run: () => cli(["vehicle", "edit", "--where", "reg=M-SC 2002", "--remove", "extras=Child seat", "--yes"]),
    check: async () => expect(((await vehicle(2)).vehicle_extras ?? []).map(Number)).not.toContain(1),
  },
  {
    place: "vehicle edit --set vehicle_extras=<option name>",
    run: () => cli(["vehicle", "edit", "2", "--set", "vehicle_extras=Additional driver"]),
    check: async () => expect((await vehicle(2)).vehicle_extras.map(Number)).toEqual([2]),
  },
  {
    place: "vehicle edit --from-file with vehicle_extras by option name",
    run: () => {
      const file = join(sb.env.HOME!, "extras.json");
      writeFileSync(file, JSON.stringify({ vehicle_extras: ["Child seat", 2] }));
      return cli(["vehicle", "edit", "2", "--from-file", file]);
    },
    check: async () => expect((await vehicle(2)).vehicle_extras.map(Number).sort()).toEqual([1, 2]),
  },
  {
    place: "vehicle import rows with vehicle_extras by option name",
    run: async () => {
      const file = join(sb.env.HOME!, "fleet.json");
      writeFileSync(
        file,
        JSON.stringify([vehicleRow("HND-1", { vehicle_extras: ["child seat", "Additional driver (period 2)", 3] })]),
      );
      return cli(["vehicle", "import", file, "-q"]);
    },
    check: async (r) => expect((await vehicle(Number(r.stdout.trim()))).vehicle_extras.map(Number)).toEqual([1, 2, 3]),
  },
  {
    place: "extra get <option name>",
    run: () => cli(["extra", "get", "child seat", "-q"]),
    check: (r) => expect(r.stdout.trim()).toBe("1"),
  },
  {
    place: "extra disable / enable <option name (period N)>",
    run: async () => {
      await cli(["extra", "disable", "Additional driver (period 2)"]);
      return extra(2);
    },
    check: async (e) => {
      expect(Number(e.is_active ?? e.active)).toBe(0);
      await cli(["extra", "enable", "Additional driver"]);
      const back = await extra(2);
      expect(Number(back.is_active ?? back.active)).toBe(1);
    },
  },
  {
    place: "extra update <option name>",
    run: () => cli(["extra", "update", "Snow chains", "--price", "16"]),
    check: async () => expect(Number((await extra(3)).price)).toBe(16),
  },
  {
    place: "extra switch / delete <option name> (dry run)",
    run: async () => [
      await cli(["extra", "switch", "Snow chains", "--dry-run"]),
      await cli(["extra", "delete", "Snow chains", "--dry-run", "--yes"]),
    ],
    check: ([sw, del]) => {
      expect(sw.stderr).toMatch(/would switch extra 3 /);
      expect(del.stderr).toMatch(/would delete extra 3 /);
    },
  },
  {
    place: "MCP get_vehicle {id: registration}",
    run: () => mcp.call("get_vehicle", { id: "B-SC 1001" }),
    check: (r) => {
      expect(r.isError, r.text).toBe(false);
      expect(r.data.vehicle.id).toBe(1);
    },
  },
  {
    place: "MCP vehicle_calendar {id: registration}",
    run: () => mcp.call("vehicle_calendar", { id: "m-sc 2002" }),
    check: (r) => {
      expect(r.isError, r.text).toBe(false);
      expect(r.data.calendar.vehicle_id).toBe(2);
    },
  },
  {
    place: "MCP get_extra {id: option name}",
    run: () => mcp.call("get_extra", { id: "Additional driver" }),
    check: (r) => {
      expect(r.isError, r.text).toBe(false);
      expect(r.data.extra.id).toBe(2);
    },
  },
  {
    place: "MCP plan_changes {ids: [registration], changes: {vehicle_extras: [option name]}}",
    run: () => mcp.call("plan_changes", { ids: ["HH-SC 3003"], changes: { vehicle_extras: ["Child seat"] } }),
    check: (r) => {
      expect(r.isError, r.text).toBe(false);
      expect(r.data.counts.vehicles_change).toBe(1);
      expect(JSON.stringify(r.data.plan)).toMatch(/"vehicle_extras"/);
    },
  },
  {
    place: "library vehicles.get / extras.get by name",
    run: async () => [await client.vehicles.get("B-SC 1001"), await client.extras.get("Child seat (period 1)")],
    check: ([v, e]) => {
      expect(v.id).toBe(1);
      expect(e.id).toBe(1);
    },
  },
  {
    place: "library vehicles.edit by registration, vehicle_extras by option name",
    run: () => client.vehicles.edit("HH-SC 3003", { vehicle_extras: ["Additional driver"] as unknown as number[] }),
    check: async () => expect((await vehicle(3)).vehicle_extras.map(Number)).toEqual([2]),
  },
  {
    place: "library extras.disable / enable by option name",
    run: () => client.extras.disable("Child seat"),
    check: async (r) => {
      expect(r.switched).toBe(true);
      expect((await client.extras.enable("child seat")).switched).toBe(true);
    },
  },
];

describe("a vehicle by id or registration, an extra by id or option name, in every place", () => {
  for (const p of PLACES)
    it(p.place, async () => {
      await p.check?.(await p.run());
    });
});

describe("unknown and ambiguous handles", () => {
  it("an unknown registration or option name is exit 2 naming the nearest, nothing sent", async () => {
    const v = await runMain(["vehicle", "get", "B-SC 1010"], sb.env);
    expect(v.code).toBe(2);
    expect(v.stderr).toMatch(/no vehicle with registration number "B-SC 1010"/);
    expect(v.stderr).toMatch(/did you mean "B-SC 1001"/);
    expect(v.stderr).toMatch(/nothing was sent/);
    const e = await runMain(["extra", "get", "Chid seat"], sb.env);
    expect(e.code).toBe(2);
    expect(e.stderr).toMatch(/no extra with option "Chid seat"/);
    expect(e.stderr).toMatch(/did you mean "Child seat"/);
    const t = await mcp.call("get_vehicle", { id: "NOPE-1" });
    expect(t.isError).toBe(true);
    expect(t.data.error.kind).toBe("usage");
    await expect(client.extras.get("Roof bx")).rejects.toThrow(/no extra with option "Roof bx"/);
  });

  it("two extras of one option: the name alone lists both; with its period it is one", async () => {
    const made = await cli([...extraCreateArgs({ option: 1, price: 7, currency: 1, period: 2, quantity: 1 }), "-q"]);
    const id = Number(made.stdout.trim());
    const amb = await runMain(["extra", "get", "Child seat"], sb.env);
    expect(amb.code).toBe(2);
    expect(amb.stderr).toMatch(
      new RegExp(`matches 2 extras \\(1: Child seat \\(period 1\\), ${id}: Child seat \\(period 2\\)\\)`),
    );
    const one = await cli(["extra", "get", "Child seat (period 2)", "-q"]);
    expect(one.stdout.trim()).toBe(String(id));
  });
});
