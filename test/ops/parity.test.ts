// biome-ignore-all lint/suspicious/noExplicitAny: answers are JSON, compared member by member
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exitCodeOf, RentctlError } from "../../src/base/errors.js";
import { createClient, type RentctlClient } from "../../src/library/index.js";
import { DEMO_OWNERS } from "../../src/sandbox/owners.js";
import { runMain, sandboxEnv } from "../helpers/cli.js";
import { type InProcessMcp, inProcessMcp } from "../helpers/mcp.js";

/**
 * Issue 39 item 6: one table of verbs run through the three front ends (the
 * CLI in-process with runMain, the library's createClient, the MCP server
 * over an in-memory transport) against one in-process sandbox: the same input
 * gives the same records, and the same refusal with the same error kind and
 * exit code. A front end that does not offer a verb says so in its column
 * (undefined); every row runs in at least two. The write verbs join the table
 * with the ops of `writes`.
 */

type Answer = { ok: true; value: unknown } | { ok: false; kind: string; code: number };

interface Row {
  verb: string;
  cli?: string[];
  lib?: (c: RentctlClient) => Promise<unknown>;
  mcp?: [tool: string, args: Record<string, unknown>, pick: (data: any) => unknown];
}

/** `names` is the MCP's addition (names for catalog ids): the records compare without it. */
const bare = (r: any) => {
  if (r === null || typeof r !== "object" || Array.isArray(r)) return r;
  const { names: _n, ...rest } = r;
  return rest;
};
const bareAll = (rs: any[]) => rs.map(bare);

async function pages(it: AsyncIterable<unknown[]>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const p of it) out.push(...p);
  return out;
}

const ROWS: Row[] = [
  {
    verb: "vehicle list",
    cli: ["vehicle", "list", "-o", "json"],
    lib: (c) => pages(c.vehicles.list({ all: true })),
    mcp: ["list_vehicles", { limit: 100 }, (d) => bareAll(d.vehicles)],
  },
  {
    verb: "vehicle list, a where selection",
    cli: ["vehicle", "list", "--where", "price_per_day>50", "-o", "json"],
    mcp: ["list_vehicles", { where: ["price_per_day>50"] }, (d) => bareAll(d.vehicles)],
  },
  {
    verb: "vehicle list, a search",
    cli: ["vehicle", "list", "--search", "corolla", "-o", "json"],
    mcp: ["list_vehicles", { search: "corolla" }, (d) => bareAll(d.vehicles)],
  },
  {
    verb: "vehicle list, one page",
    cli: ["vehicle", "list", "--limit", "2", "-o", "json"],
    lib: async (c) => (await c.vehicles.list({ limit: 2 })[Symbol.asyncIterator]().next()).value,
    mcp: ["list_vehicles", { limit: 2 }, (d) => bareAll(d.vehicles)],
  },
  {
    verb: "vehicle list, an unknown where field (refused)",
    cli: ["vehicle", "list", "--where", "colour=red", "-o", "json"],
    mcp: ["list_vehicles", { where: ["colour=red"] }, () => undefined],
  },
  {
    verb: "vehicle get",
    cli: ["vehicle", "get", "2", "-o", "json"],
    lib: (c) => c.vehicles.get(2),
    mcp: ["get_vehicle", { id: 2 }, (d) => bare(d.vehicle)],
  },
  {
    verb: "vehicle get, no such vehicle (refused)",
    cli: ["vehicle", "get", "999", "-o", "json"],
    lib: (c) => c.vehicles.get(999),
    mcp: ["get_vehicle", { id: 999 }, () => undefined],
  },
  {
    verb: "vehicle calendar, a window",
    cli: ["vehicle", "calendar", "1", "--from", "2027-06", "--months", "1", "-o", "json"],
    mcp: ["vehicle_calendar", { id: 1, from: "2027-06", months: 1 }, (d) => d.calendar],
  },
  {
    verb: "vehicle calendar, a bad month (refused)",
    cli: ["vehicle", "calendar", "1", "--from", "2027-13", "-o", "json"],
    mcp: ["vehicle_calendar", { id: 1, from: "2027-13" }, () => undefined],
  },
  {
    verb: "account export",
    cli: ["account", "export", "--format", "json"],
    mcp: ["export_account", {}, (d) => d.account],
  },
  {
    verb: "account export with names",
    cli: ["account", "export", "--format", "json", "--names"],
    mcp: ["export_account", { names: true }, (d) => d.account],
  },
  {
    verb: "extra list",
    cli: ["extra", "list", "-o", "json"],
    lib: (c) => c.extras.list(),
    mcp: ["list_extras", {}, (d) => bareAll(d.extras)],
  },
  {
    verb: "extra get",
    cli: ["extra", "get", "1", "-o", "json"],
    lib: (c) => c.extras.get(1),
    mcp: ["get_extra", { id: 1 }, (d) => bare(d.extra)],
  },
  {
    verb: "extra get, no such extra (refused)",
    cli: ["extra", "get", "999", "-o", "json"],
    lib: (c) => c.extras.get(999),
    mcp: ["get_extra", { id: 999 }, () => undefined],
  },
];

let sb: Awaited<ReturnType<typeof sandboxEnv>>;
let lib: RentctlClient;
let mcp: InProcessMcp;
beforeAll(async () => {
  sb = await sandboxEnv();
  const owner = DEMO_OWNERS[0]!;
  lib = createClient({ baseUrl: sb.sb.url, apiKey: owner.apiKey, userId: owner.userId });
  mcp = await inProcessMcp(sb.env);
  const r = await runMain(["vehicle", "calendar", "1", "--block", "2027-05-31", "--block", "2027-06-10"], sb.env);
  expect(r.code, r.stderr).toBe(0);
});
afterAll(async () => {
  await mcp?.close();
  await lib?.close();
  await sb?.cleanup();
});

async function viaCli(args: string[]): Promise<Answer> {
  const r = await runMain(args, sb.env);
  if (r.code !== 0) {
    const e = JSON.parse(r.stderr.trim().split("\n").at(-1)!).error;
    return { ok: false, kind: e.kind, code: e.exit_code };
  }
  const value = JSON.parse(r.stdout);
  if (value && typeof value === "object" && "$schema" in value) delete value.$schema; // a file's, not the data's
  return { ok: true, value };
}

async function viaLib(fn: (c: RentctlClient) => Promise<unknown>): Promise<Answer> {
  try {
    return { ok: true, value: await fn(lib) };
  } catch (e) {
    return { ok: false, kind: e instanceof RentctlError ? e.kind : "internal", code: exitCodeOf(e) };
  }
}

async function viaMcp([tool, args, pick]: NonNullable<Row["mcp"]>): Promise<Answer> {
  const r = await mcp.call(tool, args);
  if (r.isError) return { ok: false, kind: r.data.error.kind, code: r.data.error.code };
  return { ok: true, value: pick(r.data) };
}

describe("the same verb through the CLI, the library and MCP", () => {
  for (const row of ROWS) {
    it(row.verb, async () => {
      const answers: Array<[string, Answer]> = [];
      if (row.cli) answers.push(["cli", await viaCli(row.cli)]);
      if (row.lib) answers.push(["library", await viaLib(row.lib)]);
      if (row.mcp) answers.push(["mcp", await viaMcp(row.mcp)]);
      expect(answers.length).toBeGreaterThanOrEqual(2);
      const [first, ...rest] = answers;
      if (first![1].ok) expect(JSON.stringify(first![1].value).length).toBeGreaterThan(2); // not an empty answer
      for (const [name, a] of rest) expect(a, `${name} vs ${first![0]}`).toEqual(first![1]);
    });
  }
});

/**
 * A write of many vehicles through the CLI (`vehicle edit --where … --yes`) and through MCP
 * (plan_changes, then apply_plan with its token): the same change gives the same records. The
 * account is put back between the two (each front end starts from the same prices).
 */
describe("an edit of many vehicles through the CLI and MCP", () => {
  const where = "segment=cars";
  let selected: number[] = [];
  // the selected vehicles' records, without the server's time of the last write
  const cars = async () =>
    ((await pages(lib.vehicles.list({ all: true }))) as any[])
      .filter((v) => selected.includes(Number(v.id)))
      .map(({ updated_at: _u, ...v }) => v)
      .sort((a, b) => Number(a.id) - Number(b.id));
  const restore = async (prices: Map<number, number>) => {
    for (const [id, p] of prices) await lib.vehicles.edit(id, { price_per_day: p });
  };

  it("+10% with clamp on a where selection: the same prices, the same records", async () => {
    // the selection as both front ends see it
    const sel = await runMain(["vehicle", "list", "--where", where, "-o", "json"], sb.env);
    selected = (JSON.parse(sel.stdout) as any[]).map((v) => Number(v.id)).sort((a, b) => a - b);
    expect(selected.length).toBeGreaterThan(1);
    const before = await cars();
    const prices = new Map(before.map((v) => [Number(v.id), Number(v.price_per_day)]));

    const cli = await runMain(
      ["vehicle", "edit", "--where", where, "--price-per-day", "+10%", "--clamp", "--yes"],
      sb.env,
    );
    expect(cli.code, cli.stderr).toBe(0);
    const viaCliRecords = await cars();
    await restore(prices);
    expect((await cars()).map((v) => v.price_per_day)).toEqual(before.map((v) => v.price_per_day));

    const rw = await inProcessMcp(sb.env, { allowWrites: true });
    try {
      const plan = await rw.call("plan_changes", { where: [where], changes: { price_per_day: "+10%" }, clamp: true });
      expect(plan.isError, plan.text).toBe(false);
      expect(plan.data.changes).toBe(selected.length);
      const applied = await rw.call("apply_plan", { token: plan.data.token });
      expect(applied.isError, applied.text).toBe(false);
      expect(applied.data.counts.changed).toBe(selected.length);
    } finally {
      await rw.close();
    }
    const viaMcpRecords = await cars();
    expect(viaMcpRecords.map((v) => [v.id, v.price_per_day])).toEqual(
      viaCliRecords.map((v) => [v.id, v.price_per_day]),
    );
    expect(viaMcpRecords.map((v) => v.price_per_day)).not.toEqual(before.map((v) => v.price_per_day));
    expect(viaMcpRecords).toEqual(viaCliRecords);
    await restore(prices);

    // the library's vehicles.editMany, over the same op
    const r = await lib.vehicles.editMany({ where: [where] }, { price_per_day: "+10%" }, { clamp: true });
    expect(r.counts.changed).toBe(selected.length);
    expect(r.vehicles.map((v) => v.id).sort((a, b) => a - b)).toEqual(selected);
    expect(await cars()).toEqual(viaCliRecords);
    await restore(prices);
  });

  it("a relative change that gives no whole number: the same refusal (usage, exit 2), nothing sent", async () => {
    const before = await cars();
    const cli = await viaCli([
      "vehicle",
      "edit",
      "--where",
      where,
      "--price-per-day",
      "*1.0001",
      "--yes",
      "-o",
      "json",
    ]);
    const mcpAnswer = await viaMcp([
      "plan_changes",
      { where: [where], changes: { price_per_day: "*1.0001" } },
      () => undefined,
    ]);
    expect(cli).toMatchObject({ ok: false, kind: "usage", code: 2 });
    expect(mcpAnswer).toEqual(cli);
    expect(await cars()).toEqual(before);
  });
});

/**
 * Undo through the three front ends (issue 40): each undoes an op of the one undo history (the
 * CLI's data dir, shared by the MCP server and a library client given it as dataDir); the same op
 * kind gives the same record back and the same refusal, kind and exit code.
 */
interface UndoRow {
  verb: string;
  /** Make the op to undo (through the library), and return it. */
  setup(c: RentctlClient): Promise<string>;
  /** What the account looks like after the undo (compared across the front ends). */
  state(c: RentctlClient): Promise<unknown>;
}

/** A record without its times (each write stamps `updated_at`). */
const unstamped = (r: object) => {
  const { updated_at: _u, created_at: _c, ...rest } = r as Record<string, unknown>;
  return rest;
};

const UNDO_ROWS: UndoRow[] = [
  {
    verb: "undo of a vehicle edit: the record as it was",
    setup: async (c) => (await c.vehicles.edit(3, { price_per_day: 77 })).undoOp!,
    state: async (c) => unstamped(await c.vehicles.get(3)),
  },
  {
    verb: "undo of an extra's switch: the extra on again",
    setup: async (c) => {
      await c.extras.switch(1);
      return (await c.history({ limit: 1 }))[0]!.op;
    },
    state: async (c) => unstamped(await c.extras.get(1)),
  },
  {
    verb: "undo of an op already undone (refused)",
    setup: async (c) => {
      const op = (await c.vehicles.edit(3, { price_per_day: 78 })).undoOp!;
      await c.undo(op);
      return op;
    },
    state: async () => null,
  },
  {
    verb: "undo of an unknown op (refused)",
    setup: async () => "9999",
    state: async () => null,
  },
];

describe("undo through the CLI, the library and MCP", () => {
  let writer: RentctlClient;
  let rw: InProcessMcp;
  beforeAll(async () => {
    const owner = DEMO_OWNERS[0]!;
    writer = createClient({
      baseUrl: sb.sb.url,
      apiKey: owner.apiKey,
      userId: owner.userId,
      dataDir: sb.env.RENTCTL_DATA_DIR!,
    });
    rw = await inProcessMcp(sb.env, { allowWrites: true });
    await writer.extras.enable(1); // the switch row turns it off, and each undo on again
  });
  afterAll(async () => {
    await rw?.close();
    await writer?.close();
  });

  const fronts: Array<[string, (op: string) => Promise<Answer>]> = [
    [
      "cli",
      async (op) => {
        const a = await viaCli(["undo", op, "-o", "json"]);
        return a.ok ? { ok: true, value: "undone" } : a;
      },
    ],
    [
      "library",
      async (op) => {
        try {
          const r = await writer.undo(op); // the client that keeps the history (dataDir)
          return { ok: true, value: r.undone ? "undone" : r };
        } catch (e) {
          return { ok: false, kind: e instanceof RentctlError ? e.kind : "internal", code: exitCodeOf(e) };
        }
      },
    ],
    [
      "mcp",
      async (op) => {
        const r = await rw.call("undo", { op });
        if (r.isError) return { ok: false, kind: r.data?.error.kind ?? r.text, code: r.data?.error.code };
        return { ok: true, value: r.data.undone ? "undone" : r.data };
      },
    ],
  ];

  for (const row of UNDO_ROWS) {
    it(row.verb, async () => {
      const before = await row.state(writer);
      const answers: Array<[string, { answer: Answer; state: unknown; history: string | null | undefined }]> = [];
      for (const [name, undoVia] of fronts) {
        const op = await row.setup(writer);
        const answer = await undoVia(op);
        const history = (await writer.history({ limit: 100 })).find((h) => h.op === op)?.undone;
        answers.push([name, { answer, state: await row.state(writer), history: history ? "undone" : history }]);
      }
      const [first, ...rest] = answers;
      if (first![1].answer.ok) expect(first![1].state).toEqual(before); // the record as it was
      for (const [name, a] of rest) expect(a, `${name} vs ${first![0]}`).toEqual(first![1]);
    });
  }
});
