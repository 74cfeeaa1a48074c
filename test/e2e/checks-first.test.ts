import { writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countedSandbox, ndjson, vehicleRow } from "../fleet/helpers.js";
import { json, runMain, sandboxEnv } from "../helpers/cli.js";

/**
 * Issue 41 items 4 and 5 (src/contract/refs.ts): every rule that needs no
 * server is checked before any request (a network outage never hides a local
 * mistake), and an id is sent as given (only names are looked up).
 */

describe("local checks first: a server that refuses everything sees nothing", () => {
  let sb: Awaited<ReturnType<typeof countedSandbox>>;
  let dir: string;
  const requests = () => [...sb.proxy.counts.values()].reduce((n, c) => n + c, 0);
  beforeAll(async () => {
    sb = await countedSandbox();
    dir = sb.env.HOME ?? sb.env.USERPROFILE ?? "";
    sb.proxy.decide = () => ({ kind: "fail", status: 503 });
  });
  afterAll(() => sb.close());

  const file = (name: string, body: Record<string, unknown>) => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(body));
    return path;
  };

  it("vehicle create --from-file: exit 2, every local problem listed, no request made", async () => {
    const { price_per_day: _p, ...row } = vehicleRow("CHK-1", {
      // names (looked up only once the local checks pass) and ids: neither reads a catalog now
      vehicle_currency_id: "EUR",
      vehicle_class_id: "Compact",
      vehicle_fuel_policy: 1,
      vehicle_description: "x".repeat(5001),
      vehicle_booking_lead_time: 9,
    });
    const before = requests();
    const r = await runMain(["vehicle", "create", "--from-file", file("bad.json", row)], sb.env);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/price_per_day.*is required/);
    expect(r.stderr).toMatch(/vehicle_description.*at most 5000 characters/);
    expect(r.stderr).toMatch(/vehicle_booking_lead_time.*at most 3/);
    expect(r.stderr).toMatch(/nothing was sent/);
    expect(r.stderr).not.toMatch(/503|unavailable|catalog/i);
    expect(requests() - before).toBe(0);
  });

  it("vehicle edit --from-file and extra create: refused locally, no request made", async () => {
    const before = requests();
    const edit = await runMain(
      [
        "vehicle",
        "edit",
        "1",
        "--from-file",
        file("edit.json", {
          vehicle_class_id: "Compact",
          vehicle_booking_lead_time: 0,
          vehicle_passenger_capacity: -1,
        }),
      ],
      sb.env,
    );
    expect(edit.code, edit.stderr).toBe(2);
    expect(edit.stderr).toMatch(/vehicle_booking_lead_time.*at least 1/);
    expect(edit.stderr).toMatch(/vehicle_passenger_capacity.*at least 0/);
    const extra = await runMain(["extra", "create", "--currency", "EUR", "--set", "price=-1"], sb.env);
    expect(extra.code, extra.stderr).toBe(2);
    expect(extra.stderr).toMatch(/price.*at least 0/);
    expect(extra.stderr).toMatch(/option_id.*is required/);
    expect(requests() - before).toBe(0);
  });
});

/** The sandbox behind a proxy whose classes catalog answer lacks the class with id 2. */
async function classesWithout(upstream: string, id: number): Promise<{ url: string; close: () => Promise<void> }> {
  const strip = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.filter((m) => !(m && typeof m === "object" && (m as { id?: unknown }).id === id)).map(strip)
      : v && typeof v === "object"
        ? Object.fromEntries(Object.entries(v).map(([k, m]) => [k, strip(m)]))
        : v;
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers: Record<string, string> = {};
    for (const h of ["authorization", "content-type", "accept"]) {
      const v = req.headers[h];
      if (typeof v === "string") headers[h] = v;
    }
    const up = await fetch(`${upstream}${req.url}`, {
      method: req.method,
      headers,
      body: req.method === "GET" ? undefined : Buffer.concat(chunks),
    });
    let text = await up.text();
    if ((req.url ?? "").includes("classes_or_types")) text = JSON.stringify(strip(JSON.parse(text)));
    res.writeHead(up.status, { "content-type": up.headers.get("content-type") ?? "application/json" });
    res.end(text);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe("ids as given: the server is the judge of its ids", () => {
  let ctx: Awaited<ReturnType<typeof sandboxEnv>>;
  let proxy: Awaited<ReturnType<typeof classesWithout>>;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    ctx = await sandboxEnv();
    proxy = await classesWithout(ctx.sb.url, 2);
    env = { ...ctx.env, RENTCTL_BASE_URL: proxy.url };
  });
  afterAll(async () => {
    await proxy.close();
    await ctx.cleanup();
  });

  it("the proxy's classes catalog lacks id 2", async () => {
    const r = await runMain(["catalog", "classes", "-o", "json"], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/"id": \d+/);
    expect(r.stdout).not.toMatch(/"id": 2\b/);
  });

  it("a create with vehicle_class_id 2 (file, --set and flag) is sent and succeeds", async () => {
    const path = join(ctx.env.HOME ?? "", "car.json");
    writeFileSync(path, JSON.stringify(vehicleRow("ID-AS-GIVEN-1", { vehicle_class_id: 2 })));
    const r = await runMain(["vehicle", "create", "--from-file", path, "-o", "json"], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/no item with id/);
    expect(json<{ vehicle_class_id: number }>(r.stdout).vehicle_class_id).toBe(2);
    const flag = await runMain(
      ["vehicle", "create", "--from-file", path, "--reg", "ID-AS-GIVEN-2", "--class", "id:2", "-o", "json"],
      env,
    );
    expect(flag.code, flag.stderr).toBe(0);
    expect(json<{ vehicle_class_id: number }>(flag.stdout).vehicle_class_id).toBe(2);
  });
});

describe("local checks first in a fleet file", () => {
  let sb: Awaited<ReturnType<typeof countedSandbox>>;
  beforeAll(async () => {
    sb = await countedSandbox();
    sb.proxy.decide = () => ({ kind: "fail", status: 503 });
  });
  afterAll(() => sb.close());

  it("vehicle import: every row's local problems listed (exit 2), no catalog read and nothing written", async () => {
    const { price_per_day: _p, ...missing } = vehicleRow("IMP-1", { vehicle_currency_id: "EUR" });
    const rows = [missing, vehicleRow("IMP-2", { vehicle_class_id: "Compact", vehicle_booking_lead_time: 9 })];
    const path = join(sb.env.HOME ?? "", "fleet.ndjson");
    writeFileSync(path, ndjson(rows));
    const r = await runMain(["vehicle", "import", path, "--yes"], sb.env);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/row 1.*price_per_day.*is required/);
    expect(r.stderr).toMatch(/row 2.*vehicle_booking_lead_time.*at most 3/);
    expect(r.stderr).not.toMatch(/EUR|Compact|503/);
    // the account may be listed meanwhile (a resume needs it); no catalog is read, nothing is written
    const seen = [...sb.proxy.counts.keys()].filter((k) => !k.startsWith("GET /api/v302/vehicles/list"));
    expect(seen).toEqual([]);
  });

  it("vehicle apply: a row's local problems listed (exit 2), no catalog read and nothing written", async () => {
    sb.proxy.counts.clear();
    const rows = [vehicleRow("APP-1", { vehicle_class_id: "Compact", vehicle_description: "x".repeat(5001) })];
    const path = join(sb.env.HOME ?? "", "apply.ndjson");
    writeFileSync(path, ndjson(rows));
    const r = await runMain(["vehicle", "apply", "-f", path, "--yes"], sb.env);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/vehicle_description.*at most 5000 characters/);
    expect(r.stderr).not.toMatch(/Compact|503/);
    const seen = [...sb.proxy.counts.keys()].filter((k) => !k.startsWith("GET /api/v302/vehicles/list"));
    expect(seen).toEqual([]);
  });
});
