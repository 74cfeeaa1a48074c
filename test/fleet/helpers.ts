import { spawn } from "node:child_process";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { sampleVehicleInput } from "../../src/sandbox/server.js";
import { BIN, json, runBuilt } from "../helpers/cli.js";

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

/** The registration numbers of an owner's vehicles (through the built CLI, straight to the sandbox). */
export async function accountRegs(env: NodeJS.ProcessEnv, user: number): Promise<string[]> {
  const r = await runBuilt(["vehicle", "list", "--all", "-o", "ndjson", "--user", String(user)], env);
  if (r.code !== 0) throw new Error(`list failed: ${r.stderr}`);
  return r.stdout
    .split("\n")
    .filter(Boolean)
    .map((l) => String(json<Record<string, unknown>>(l).vehicle_reg_number));
}

/** Spawn the built CLI and keep the handle (for kill / SIGINT tests). */
export function spawnBuilt(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => {
    stdout += d;
  });
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
    (resolve) => child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done, stderr: () => stderr };
}

/** Poll until `check` holds (bounded). */
export async function waitFor(check: () => boolean, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * The kill loop of the crash-safety tests: run the built CLI again and again,
 * SIGKILLing each run at a random moment (after a random time, or once it has
 * sent a random number of writes), until `minKills` kills happened or a run
 * completed. Then rerun without kills (faults cleared after 5 tries by
 * `clearFaults`) until the command exits 0. Returns the kill count and the
 * last run.
 */
export async function killAndRerun(opts: {
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Writes the server has seen so far. */
  writes: () => number;
  /** A killed run sends at most this many writes (random from 1). */
  maxWritesPerRun: number;
  /** A killed run lives at most this long (random from 300 ms). */
  maxMs: number;
  minKills?: number;
  clearFaults: () => void;
}): Promise<{ kills: number; last: { code: number | null; stderr: string } }> {
  const minKills = opts.minKills ?? 20;
  const pause = (ms: number) => new Promise<null>((r) => setTimeout(() => r(null), ms));
  let kills = 0;
  let finished = false;
  let last: { code: number | null; stderr: string } = { code: -1, stderr: "" };
  for (let run = 0; run < 120 && !finished && kills < 2 * minKills; run++) {
    const start = opts.writes();
    const budget = 1 + Math.floor(Math.random() * opts.maxWritesPerRun);
    const p = spawnBuilt(opts.args, opts.env);
    const timer = pause(300 + Math.random() * (opts.maxMs - 300));
    const enough = waitFor(() => opts.writes() - start >= budget, 120_000).then(() => null);
    const first = await Promise.race([p.done, timer, enough]);
    if (first === null) {
      p.child.kill("SIGKILL");
      const r = await p.done;
      if (r.signal === "SIGKILL") kills++;
      else finished = r.code === 0;
      last = r;
    } else {
      finished = first.code === 0;
      last = first;
    }
    if (kills >= minKills && !finished) break;
  }
  for (let i = 0; i < 15 && !finished; i++) {
    if (i >= 5) opts.clearFaults();
    last = await spawnBuilt(opts.args, opts.env).done;
    finished = last.code === 0;
  }
  return { kills, last };
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
