import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { sampleVehicleInput } from "../../src/sandbox/server.js";
import { json, runMain } from "../helpers/cli.js";

/** A valid fleet row (wire names, ids) with a unique registration number. */
export function vehicleRow(reg: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const { user_id: _u, ...row } = sampleVehicleInput(1001);
  return { ...row, vehicle_reg_number: reg, ...extra };
}

export const ndjson = (rows: Record<string, unknown>[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";

export type Decision =
  | { kind: "pass" }
  | { kind: "fail"; status: number }
  /** Forward after `delayMs` (the answer is relayed if the client is still there). */
  | { kind: "late"; delayMs: number }
  /** Forward once `until` settles (e.g. after the test changed the record behind the CLI's back). */
  | { kind: "wait"; until: Promise<unknown> }
  /** Forward, let it commit, then drop the connection without an answer. */
  | { kind: "drop" }
  /** Forward, let it commit, never answer. */
  | { kind: "hang" };

export interface FaultProxy {
  url: string;
  /** Requests seen, by `METHOD path` (no query). */
  counts: Map<string, number>;
  /** Requests seen, by `METHOD url` (query included: a catalog per parameters). */
  urls: Map<string, number>;
  creates(): number;
  /** Connections accepted so far. */
  connections(): number;
  decide: (req: { method: string; path: string; body: Buffer }) => Decision;
  close(): Promise<void>;
}

// The kill-test setup moved to test/helpers/kill.ts; named here too for the tests that import it from here.
export { killAndRerun, spawnBuilt, waitFor } from "../helpers/kill.js";

/** A fault-injecting HTTP proxy in front of the sandbox: the "test server" of the fleet tests. */
export async function startProxy(upstream: string): Promise<FaultProxy> {
  const counts = new Map<string, number>();
  const urls = new Map<string, number>();
  const sockets = new Set<Socket>();
  let accepted = 0;
  const proxy: FaultProxy = {
    url: "",
    counts,
    urls,
    creates: () => counts.get("POST /api/v302/vehicles/create") ?? 0,
    connections: () => accepted,
    decide: () => ({ kind: "pass" }),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  const forward = async (req: IncomingMessage, body: Buffer) => {
    const headers: Record<string, string> = {};
    for (const h of ["authorization", "content-type", "accept"]) {
      const v = req.headers[h];
      if (typeof v === "string") headers[h] = v;
    }
    const res = await fetch(`${upstream}${req.url}`, {
      method: req.method,
      headers,
      body: req.method === "GET" ? undefined : body,
    });
    return { status: res.status, text: await res.text(), type: res.headers.get("content-type") ?? "application/json" };
  };
  const answer = (res: ServerResponse, r: { status: number; text: string; type: string }) => {
    if (res.destroyed || res.writableEnded) return;
    res.writeHead(r.status, { "content-type": r.type });
    res.end(r.text);
  };
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const path = (req.url ?? "").split("?")[0]!;
    const key = `${req.method} ${path}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    const full = `${req.method} ${req.url ?? ""}`;
    urls.set(full, (urls.get(full) ?? 0) + 1);
    const d = proxy.decide({ method: req.method ?? "GET", path, body });
    try {
      if (d.kind === "fail") {
        res.writeHead(d.status, { "content-type": "application/json" });
        res.end(JSON.stringify({ is_success: false, message: `injected ${d.status}` }));
        return;
      }
      if (d.kind === "late") await new Promise((r) => setTimeout(r, d.delayMs));
      if (d.kind === "wait") await d.until.catch(() => {});
      const r = await forward(req, body);
      if (d.kind === "drop") {
        req.socket.destroy();
        return;
      }
      if (d.kind === "hang") return;
      answer(res, r);
    } catch {
      req.socket.destroy();
    }
  });
  server.on("connection", (s) => {
    accepted++;
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}

/** The registration numbers of an owner's vehicles (the CLI in-process, straight to the sandbox). */
export async function accountRegs(env: NodeJS.ProcessEnv, user: number): Promise<string[]> {
  const r = await runMain(["vehicle", "list", "--all", "-o", "ndjson", "--user", String(user)], env);
  if (r.code !== 0) throw new Error(`list failed: ${r.stderr}`);
  return r.stdout
    .split("\n")
    .filter(Boolean)
    .map((l) => String(json<Record<string, unknown>>(l).vehicle_reg_number));
}

/**
 * The sandbox behind a counting proxy, for tests that prove "nothing was sent":
 * `env` points the CLI at the proxy, `ctx.env` straight at the sandbox (reads
 * for checking), `writes()` counts the POSTs that went through.
 */
export async function countedSandbox() {
  const { sandboxEnv } = await import("../helpers/cli.js");
  const ctx = await sandboxEnv();
  const proxy = await startProxy(ctx.sb.url);
  return {
    ctx,
    proxy,
    env: { ...ctx.env, RENTCTL_BASE_URL: proxy.url } as NodeJS.ProcessEnv,
    writes: () => [...proxy.counts.entries()].filter(([k]) => k.startsWith("POST ")).reduce((n, [, c]) => n + c, 0),
    close: async () => {
      await proxy.close();
      await ctx.cleanup();
    },
  };
}
