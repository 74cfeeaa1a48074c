// biome-ignore-all lint/suspicious/noExplicitAny: the tools' results are JSON, read field by field by the assertions
import { type ChildProcess, spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_OWNERS } from "../../src/sandbox/owners.js";
import { sampleVehicleInput } from "../../src/sandbox/seed.js";
import { BIN, runBuilt, tempHome } from "../helpers/cli.js";

/**
 * `rentctl mcp` through the built CLI, driven by the official SDK's Client
 * (issue "rentctl mcp"): the read-only default, every read tool, a 10% price
 * rise planned on a --where selection, applied with its token, checked, undone;
 * the refusals (each with nothing sent); and no key in any byte the server wrote.
 */

/** The SDK's stdio client transport, keeping every byte the server wrote on stdout and stderr. */
class RecordingTransport implements Transport {
  onmessage?: (m: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (e: Error) => void;
  stdout = "";
  stderr = "";
  #child?: ChildProcess;
  #buffer = new ReadBuffer();
  #exited?: Promise<void>;
  constructor(
    private readonly args: string[],
    private readonly env: NodeJS.ProcessEnv,
  ) {}
  async start(): Promise<void> {
    const child = spawn(process.execPath, [BIN, ...this.args], { env: this.env, stdio: ["pipe", "pipe", "pipe"] });
    this.#child = child;
    this.#exited = new Promise((r) => child.once("close", () => r()));
    child.stdout!.on("data", (d: Buffer) => {
      this.stdout += d.toString("utf8");
      this.#buffer.append(d);
      for (let m = this.#buffer.readMessage(); m; m = this.#buffer.readMessage()) this.onmessage?.(m);
    });
    child.stderr!.on("data", (d: Buffer) => {
      this.stderr += d.toString("utf8");
    });
    child.once("close", () => this.onclose?.());
  }
  async send(m: JSONRPCMessage): Promise<void> {
    this.#child!.stdin!.write(serializeMessage(m));
  }
  async close(): Promise<void> {
    this.#child?.stdin?.end();
    await this.#exited;
  }
}

interface Server {
  client: Client;
  transport: RecordingTransport;
  call(name: string, args?: Record<string, unknown>): Promise<{ isError: boolean; text: string; data: any }>;
}

const servers: Server[] = [];
const home = tempHome();
const env = { ...home.env, RENTCTL_ENV: "sandbox" };

async function start(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<Server> {
  const transport = new RecordingTransport(["mcp", ...args], { ...env, ...extraEnv });
  const client = new Client({ name: "rentctl-test", version: "1.0.0" });
  await client.connect(transport);
  const s: Server = {
    client,
    transport,
    call: async (name, a = {}) => {
      const r = (await client.callTool({ name, arguments: a })) as {
        isError?: boolean;
        content: Array<{ type: string; text: string }>;
        structuredContent?: unknown;
      };
      return { isError: Boolean(r.isError), text: r.content[0]?.text ?? "", data: r.structuredContent };
    },
  };
  servers.push(s);
  return s;
}

/** The account as the CLI sees it (every vehicle and extra), to prove that a refusal sent nothing. */
async function account(): Promise<string> {
  const r = await runBuilt(["account", "export", "-o", "json"], env);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

let ro: Server;
let rw: Server;
beforeAll(async () => {
  ro = await start([]);
  rw = await start(["--allow-writes", "--max-changes", "5"]);
});
afterAll(async () => {
  for (const s of servers) await s.client.close();
  home.cleanup();
});

describe("rentctl mcp (read-only by default)", () => {
  it("initializes with instructions and lists only read tools, annotated readOnlyHint", async () => {
    expect(ro.client.getServerVersion()?.name).toBe("rentctl");
    expect(ro.client.getInstructions()).toMatch(/read-only/);
    const { tools } = await ro.client.listTools();
    const names = tools.map((t) => t.name).sort();
    expect(names).toEqual(
      [
        "export_account",
        "get_extra",
        "get_vehicle",
        "list_extras",
        "lint_account",
        "list_vehicles",
        "plan_changes",
        "search_catalog",
        "undo_history",
        "vehicle_calendar",
      ].sort(),
    );
    for (const t of tools) expect(t.annotations?.readOnlyHint, t.name).toBe(true);
    // the plan tool's changes are the contract's vehicle fields, generated from the one declaration
    const plan = tools.find((t) => t.name === "plan_changes")!;
    const fields = Object.keys((plan.inputSchema.properties as any).changes.properties);
    expect(fields).toContain("price_per_day");
    expect(fields).toContain("vehicle_availability_calendar");
    // the answers' records are the contract's record schemas (src/contract/schemas.ts), as listed by the built server
    const get = tools.find((t) => t.name === "get_vehicle")!;
    const vehicle = (get.outputSchema as any).properties.vehicle;
    expect(vehicle.properties.price_per_day.type).toBe("integer");
    expect(vehicle.properties.names.type).toBe("object");
    expect((get.outputSchema as any).anyOf).toEqual([{ required: ["vehicle"] }, { required: ["error"] }]);
  });

  it("answers every read tool", async () => {
    const brands = await ro.call("search_catalog", { catalog: "brands", query: "toyota" });
    expect(brands.isError, brands.text).toBe(false);
    expect(brands.data.items[0].name).toMatch(/Toyota/);

    const page1 = await ro.call("list_vehicles", { limit: 2 });
    expect(page1.data.vehicles).toHaveLength(2);
    expect(page1.data.vehicles[0].names.vehicle_model_id).toMatch(/Toyota/);
    const page2 = await ro.call("list_vehicles", { limit: 2, cursor: page1.data.next_cursor });
    expect(page2.data.vehicles.map((v: any) => v.id)).toEqual([3]);
    expect(page2.data.next_cursor).toBeUndefined();
    const cheap = await ro.call("list_vehicles", { where: ["price_per_day<50"] });
    expect(cheap.data.vehicles.map((v: any) => v.id)).toEqual([1]);

    expect((await ro.call("get_vehicle", { id: 2 })).data.vehicle.vehicle_reg_number).toBe("M-SC 2002");
    expect((await ro.call("list_extras")).data.extras).toHaveLength(3);
    const extra = await ro.call("get_extra", { id: 1 });
    expect(extra.data.used_by.map((v: any) => v.id)).toContain(1);
    const cal = await ro.call("vehicle_calendar", { id: 1, from: "2026-12", months: 1 });
    expect(cal.isError, cal.text).toBe(false);
    const exported = await ro.call("export_account", { names: true });
    expect(exported.data.account.vehicles).toHaveLength(3);
    expect((await ro.call("undo_history")).data.entries).toEqual([]);
    const lint = await ro.call("lint_account", { min_severity: "warning" });
    expect(lint.isError, lint.text).toBe(false);
    expect(lint.data.findings.map((f: any) => [f.rule, f.registration])).toEqual([
      ["past-calendar-dates", "HH-SC 3003"],
    ]);
    expect(lint.data.counts.error).toBe(0);
  });

  it("gives the data as JSON text too (for clients that pass only text), and refuses arguments the schema does not name", async () => {
    const r = (await ro.client.callTool({ name: "get_vehicle", arguments: { id: 1 } })) as {
      content: Array<{ text: string }>;
    };
    expect(JSON.parse(r.content[1]!.text).vehicle.id).toBe(1);
    const typo = await ro.call("list_vehicles", { filter: "Munich" });
    expect(typo.isError).toBe(true);
    expect(typo.text).toMatch(/unknown argument "filter"/);
    const zero = await ro.call("list_vehicles", { limit: 0 });
    expect(zero.isError).toBe(true);
    const none = await ro.call("plan_changes", { where: ["price_per_day>1000"], changes: { price_per_day: 1 } });
    expect(none.text).toMatch(/no vehicle matches the selection/);
    // a record as get_vehicle gives it (with its names) goes back as a document row
    const v = (await ro.call("get_vehicle", { id: 2 })).data.vehicle;
    const back = await ro.call("plan_changes", { document: { vehicles: [{ ...v, price_per_day: 78 }] } });
    expect(back.isError, back.text).toBe(false);
    expect(back.data.counts.vehicles_change).toBe(1);
    const prune = await ro.call("plan_changes", { document: { extras: [] }, prune: true });
    expect(prune.isError).toBe(true);
    expect(prune.text).toMatch(/would remove every vehicle/);
  });

  it("errors carry the CLI's message and exit code", async () => {
    const bad = await ro.call("list_vehicles", { where: ["colour=red"] });
    expect(bad.isError).toBe(true);
    expect(bad.data.error.code).toBe(2);
    expect(bad.text).toMatch(/colour/);
    const missing = await ro.call("get_vehicle", { id: 999 });
    expect(missing.isError).toBe(true);
    expect(missing.data.error.code).toBe(5);
  });

  it("plans, but has no apply tool: calling it is refused and sends nothing", async () => {
    const before = await account();
    const plan = await ro.call("plan_changes", { ids: [1], changes: { price_per_day: 46 } });
    expect(plan.data.token).toMatch(/^rp_1001_/);
    expect(plan.text).toMatch(/read-only/);
    const r = await ro.call("apply_plan", { token: plan.data.token });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/--allow-writes/);
    expect(await account()).toBe(before);
    // the person applies the reviewed plan with the CLI, from the file the server saved
    // the command names the server's target, so it applies where the plan was made whatever the shell's env says
    expect(plan.data.apply_with).toMatch(/^rentctl --env sandbox( --user 1001)? account apply --plan /);
    expect(plan.data.apply_with.endsWith(` --plan ${plan.data.plan_file}`)).toBe(true);
    const pasted = plan.data.apply_with.split(" ").slice(1);
    const { RENTCTL_ENV: _shellEnv, ...shell } = env;
    const applied = await runBuilt([...pasted, "--yes"], shell);
    expect(applied.code, applied.stderr).toBe(0);
    expect((await ro.call("get_vehicle", { id: 1 })).data.vehicle.price_per_day).toBe(46);
    const back = await runBuilt(["vehicle", "edit", "1", "--price-per-day", "45"], env);
    expect(back.code, back.stderr).toBe(0);
  });
});

describe("rentctl mcp --allow-writes", () => {
  it("plans a 10% rise on a --where selection, applies it with the token, and undoes it", async () => {
    const before = await account();
    const plan = await rw.call("plan_changes", {
      where: ["price_per_day>50"],
      changes: { price_per_day: "+10%" },
      clamp: true,
    });
    expect(plan.isError, plan.text).toBe(false);
    expect(plan.data.counts.vehicles_change).toBe(2);
    expect(plan.data.markdown).toMatch(/price_per_day/);
    expect(plan.data.markdown).toMatch(/\| 79 \| 87 \|/);
    const applied = await rw.call("apply_plan", { token: plan.data.token });
    expect(applied.isError, applied.text).toBe(false);
    expect(applied.data.counts).toEqual({ changed: 2 });
    expect((await rw.call("get_vehicle", { id: 2 })).data.vehicle.price_per_day).toBe(87);
    expect((await rw.call("get_vehicle", { id: 3 })).data.vehicle.price_per_day).toBe(105);
    expect((await rw.call("get_vehicle", { id: 1 })).data.vehicle.price_per_day).toBe(45);
    const history = await rw.call("undo_history");
    expect(history.data.entries[0].op).toBe(applied.data.undo_op);
    const undone = await rw.call("undo", { op: applied.data.undo_op });
    expect(undone.isError, undone.text).toBe(false);
    expect(await account()).toBe(before);
  });

  it("refuses, each time with nothing sent: a reused token, a stale plan, a plan over --max-changes, an expired token, another owner's token", async () => {
    // reused
    const p1 = await rw.call("plan_changes", { ids: [1], changes: { price_per_day: 44 } });
    expect((await rw.call("apply_plan", { token: p1.data.token })).isError).toBe(false);
    let before = await account();
    const reused = await rw.call("apply_plan", { token: p1.data.token });
    expect(reused.isError).toBe(true);
    expect(reused.text).toMatch(/already used/);
    expect(await account()).toBe(before);

    // stale: the vehicle is edited elsewhere (the CLI, another process) between plan and apply
    const p2 = await rw.call("plan_changes", { ids: [2], changes: { price_per_day: 70 } });
    const edit = await runBuilt(["vehicle", "edit", "2", "--price-per-week", "36"], env);
    expect(edit.code, edit.stderr).toBe(0);
    before = await account();
    const stale = await rw.call("apply_plan", { token: p2.data.token });
    expect(stale.isError).toBe(true);
    expect(stale.data.error.code).toBe(8);
    expect(stale.text).toMatch(/stale/);
    expect(await account()).toBe(before);

    // over --max-changes 5: a document that changes all 3 vehicles and adds 3 more
    const rows = [1, 2, 3, 4, 5, 6].map((i) => ({ vehicle_reg_number: `MX ${i}`, ...sampleRow() }));
    const big = await rw.call("plan_changes", { document: { vehicles: rows } });
    expect(big.data.changes).toBe(6);
    expect(big.data.refused).toMatch(/max-changes 5/);
    const over = await rw.call("apply_plan", { token: big.data.token });
    expect(over.isError).toBe(true);
    expect(over.text).toMatch(/max-changes/);
    expect(await account()).toBe(before);

    // expired: a server whose tokens expire at once
    const quick = await start(["--allow-writes", "--plan-ttl", "0"]);
    const p3 = await quick.call("plan_changes", { ids: [1], changes: { price_per_day: 41 } });
    const expired = await quick.call("apply_plan", { token: p3.data.token });
    expect(expired.isError).toBe(true);
    expect(expired.text).toMatch(/expired/);
    expect(await account()).toBe(before);

    // another owner's: a token planned for owner 1001, given to the server of owner 1002
    const other = await start(["--allow-writes"], { RENTCTL_USER_ID: "1002" });
    const p4 = await rw.call("plan_changes", { ids: [1], changes: { price_per_day: 42 } });
    const foreign = await other.call("apply_plan", { token: p4.data.token });
    expect(foreign.isError).toBe(true);
    expect(foreign.text).toMatch(/owner 1001/);
    expect(await account()).toBe(before);
  });

  it("plans calendar ranges and account documents the same way: one plan, one token, one apply", async () => {
    const cal = await rw.call("plan_changes", { ids: [3], calendar: { block: ["2027-01-10..2027-01-12"] } });
    expect(cal.isError, cal.text).toBe(false);
    expect(cal.data.counts.vehicles_change).toBe(1);
    expect((await rw.call("apply_plan", { token: cal.data.token })).data.counts).toEqual({ changed: 1 });
    const shown = await rw.call("vehicle_calendar", { id: 3, from: "2027-01", months: 1 });
    expect(JSON.stringify(shown.data)).toMatch(/2027-01-11/);

    const doc = await rw.call("plan_changes", {
      document: { vehicles: [{ vehicle_reg_number: "HH-SC 3003", price_per_week: 61 }] },
    });
    expect(doc.data.counts.vehicles_change).toBe(1);
    expect(doc.data.markdown).toMatch(/price_per_week/);
    const applied = await rw.call("apply_plan", { token: doc.data.token });
    expect(applied.isError, applied.text).toBe(false);
    expect((await rw.call("get_vehicle", { id: 3 })).data.vehicle.price_per_week).toBe(61);
  });

  it("--allow-writes=sandbox on the sandbox offers the write tools", async () => {
    const s = await start(["--allow-writes=sandbox"]);
    const names = (await s.client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("apply_plan");
    expect(names).toContain("undo");
  });
});

describe("rentctl mcp and the key", () => {
  it("no byte the servers wrote (stdout and stderr) holds an API key", async () => {
    // every server above acted with a demo owner's key (distinctive strings: the sandbox's own keys)
    expect(servers.length).toBeGreaterThanOrEqual(3);
    for (const s of servers) {
      const bytes = s.transport.stdout + s.transport.stderr;
      expect(bytes.length).toBeGreaterThan(0);
      for (const o of DEMO_OWNERS) expect(bytes).not.toContain(o.apiKey);
    }
  });

  it("--print-config prints the client snippet without the key", async () => {
    const r = await runBuilt(["mcp", "--allow-writes", "--print-config"], { ...env, RENTCTL_USER_ID: "1001" });
    expect(r.code, r.stderr).toBe(0);
    const snippet = JSON.parse(r.stdout);
    expect(snippet.mcpServers.rentctl).toEqual({
      command: "rentctl",
      args: ["mcp", "--allow-writes"],
      // the dirs go along: the server uses the same profiles, sandbox data and undo history as the CLI
      env: {
        RENTCTL_ENV: "sandbox",
        RENTCTL_USER_ID: "1001",
        RENTCTL_CONFIG_DIR: home.env.RENTCTL_CONFIG_DIR,
        RENTCTL_DATA_DIR: home.env.RENTCTL_DATA_DIR,
      },
    });
    for (const o of DEMO_OWNERS) expect(r.stdout + r.stderr).not.toContain(o.apiKey);
  });
});

/** A new vehicle's fields (the sandbox's sample, without owner and plate), as a person would write them in a document. */
function sampleRow(): Record<string, unknown> {
  const { user_id: _u, vehicle_reg_number: _r, ...rest } = sampleVehicleInput(1001);
  return rest;
}
