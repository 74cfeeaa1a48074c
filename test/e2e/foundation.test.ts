import { spawn } from "node:child_process";
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BIN, json, runBuilt, runMain, sandboxEnv, tempHome } from "../helpers/cli.js";

/** A scripted HTTP server on 127.0.0.1: each test says how it answers. */
let server: Server;
let base: string;
let handler: (req: IncomingMessage, res: ServerResponse) => void;
const hits: Array<{ method: string; url: string; auth?: string; body: string }> = [];
let home: ReturnType<typeof tempHome>;

beforeEach(async () => {
  hits.length = 0;
  home = tempHome();
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => {
      body += d;
    });
    req.on("end", () => {
      hits.push({ method: req.method!, url: req.url!, auth: req.headers.authorization, body });
      handler(req, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  home.cleanup();
});

const KEY = "sk_live_SECRET_1234567890";
const envFor = (extra: NodeJS.ProcessEnv = {}) => ({
  ...home.env,
  RENTCTL_BASE_URL: base,
  RENTCTL_API_KEY: KEY,
  RENTCTL_USER_ID: "7",
  ...extra,
});
const answer =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(typeof body === "string" ? body : JSON.stringify(body));
  };

describe("the built CLI against a local server", () => {
  it("catalog currencies -o json prints the list (meta dropped), without the key", async () => {
    handler = answer(200, { meta: { api_version: 302 }, list: [{ id: 1, code: "EUR", symbol: "€" }] });
    const r = await runBuilt(["catalog", "currencies", "-o", "json"], envFor());
    expect(r.code, r.stderr).toBe(0);
    expect(json(r.stdout)).toEqual([{ id: 1, code: "EUR", symbol: "€" }]);
    expect(hits[0]?.url).toBe("/api/v302/currencies");
    expect(hits[0]?.auth).toBeUndefined();
  });

  it("--raw prints the body as received, meta included", async () => {
    handler = answer(200, { meta: { api_version: 302 }, list: [] });
    const r = await runBuilt(["catalog", "locales", "--raw", "-o", "json"], envFor());
    expect(json(r.stdout)).toEqual({ meta: { api_version: 302 }, list: [] });
  });

  it("400 → exit 3 with the field details; json errors are an object on stderr", async () => {
    handler = answer(400, {
      is_success: false,
      errors: { message: "validation error", code: 400, fields: { limit: ["must be at least 1"] } },
    });
    const r = await runBuilt(["vehicle", "list"], envFor());
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^error: request rejected \(400\): validation error$/m);
    expect(r.stderr).toMatch(/limit: must be at least 1/);
    const j = await runBuilt(["vehicle", "list", "-o", "json"], envFor());
    expect(j.stdout).toBe("");
    expect(json<{ error: { status: number; details: unknown[] } }>(j.stderr).error).toMatchObject({
      status: 400,
      kind: "rejected",
      exit_code: 3,
    });
  });

  it("a 200 with is_success false is exit 3", async () => {
    handler = answer(200, { is_success: false, errors: "owner is locked" });
    const r = await runBuilt(["vehicle", "get", "1"], envFor());
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("owner is locked");
  });

  it("401 → exit 4, 404 → exit 5", async () => {
    handler = answer(401, { is_success: false, errors: { message: "unauthorized", code: 401 } });
    expect((await runBuilt(["vehicle", "get", "1"], envFor())).code).toBe(4);
    handler = answer(404, { is_success: false, errors: [{ message: "vehicle not found" }] });
    const nf = await runBuilt(["vehicle", "get", "1"], envFor());
    expect(nf.code).toBe(5);
    expect(nf.stderr).toContain("vehicle not found");
  });

  it("5xx is retried for GET (3 attempts), then exit 6; a POST is sent once", async () => {
    handler = answer(503, { is_success: false, errors: "down" });
    const r = await runBuilt(["catalog", "currencies"], envFor());
    expect(r.code).toBe(6);
    expect(hits).toHaveLength(3);
    hits.length = 0;
    // the switch reads the extra first (its undo entry keeps the state before), then sends one POST
    const down = answer(503, { is_success: false, errors: "down" });
    const extra = answer(200, {
      is_success: true,
      data: { id: 3, option_id: 1, price: 5, currency_id: 1, period: 1, quantity: 1, is_active: 1 },
    });
    handler = (req, res) => (req.method === "POST" ? down : extra)(req, res);
    const p = await runBuilt(["extra", "switch", "3"], envFor());
    expect(p.code).toBe(6);
    expect(hits.filter((h) => h.method === "POST")).toHaveLength(1);
  });

  it("an HTML 502 and a non-JSON 200 are exit 6 with a clear line, never a stack trace", async () => {
    handler = (_req, res) => {
      res.writeHead(502, { "content-type": "text/html" });
      res.end("<html><body>Bad gateway</body></html>");
    };
    const a = await runBuilt(["catalog", "currencies", "--timeout", "5"], envFor());
    expect(a.code).toBe(6);
    expect(a.stderr).toMatch(/server error \(502\)/);
    handler = (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("hello");
    };
    const b = await runBuilt(["catalog", "currencies"], envFor());
    expect(b.code).toBe(6);
    expect(b.stderr).toMatch(/malformed response/);
    expect(b.stderr).not.toMatch(/\n\s+at /);
  });

  it("a hung server with --timeout 0.25 ends with exit 6", async () => {
    handler = () => {}; // never answers
    // a quarter of a second: the three attempts of a GET run into it (a second each was 3 s of waiting)
    const r = await runBuilt(["vehicle", "get", "1", "--timeout", "0.25"], envFor());
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/timed out after 0.25s/);
  });

  it("--verbose traces method, URL, status and duration, and never the key", async () => {
    handler = answer(200, { data: { id: 1 } });
    const r = await runBuilt(["vehicle", "get", "1", "-v"], envFor());
    expect(r.code, r.stderr).toBe(0);
    expect(hits[0]?.auth).toBe(`Bearer ${KEY}`);
    expect(r.stderr).toMatch(
      /→ GET http:\/\/127\.0\.0\.1:\d+\/api\/v302\/vehicles\/list\/id\?vehicle_id=1&locale_id=40/,
    );
    expect(r.stderr).toMatch(/← 200 GET .* \d+ms/);
    expect(r.stderr + r.stdout).not.toContain(KEY);
    expect(r.stderr + r.stdout).not.toContain("SECRET");
  });

  it("a closed pipe (| head -1) ends quietly with exit 0", async () => {
    handler = answer(200, { list: Array.from({ length: 5000 }, (_, i) => ({ id: i + 1, name: `brand ${i}` })) });
    const code = await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, [BIN, "catalog", "models", "--brand", "1", "-o", "ndjson"], {
        env: envFor(),
      });
      let err = "";
      child.stderr.on("data", (d) => {
        err += d;
      });
      child.stdout.once("data", () => child.stdout.destroy());
      child.on("close", (c) => {
        expect(err).not.toMatch(/EPIPE|at /);
        resolve(c ?? -1);
      });
    });
    expect(code).toBe(0);
  });
});

describe("configuration", () => {
  it("with nothing selected an API command exits 4 naming auth login and --env sandbox", async () => {
    const r = await runBuilt(["vehicle", "list"], home.env);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain("rentctl auth login");
    expect(r.stderr).toContain("--env sandbox");
  });

  it("a corrupt config file is exit 2 naming the file", async () => {
    mkdirSync(home.env.RENTCTL_CONFIG_DIR!, { recursive: true });
    const file = join(home.env.RENTCTL_CONFIG_DIR!, "config.json");
    writeFileSync(file, "{ not json");
    const r = await runBuilt(["vehicle", "list"], home.env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(file);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("auth login --with-token checks the key, saves a 0600 profile, masks the key everywhere", async () => {
    handler = answer(200, { total: 2, per_page: 1, current_page: 1, limit: 1, last_page: 2, data: [{ id: 1 }] });
    const env = { ...home.env };
    const login = await runBuilt(
      ["auth", "login", "--with-token", "--env", "test", "--base-url", base, "--user", "7"],
      env,
      `${KEY}\n`,
    );
    expect(login.code, login.stderr).toBe(0);
    expect(hits[0]?.auth).toBe(`Bearer ${KEY}`);
    const file = join(home.env.RENTCTL_CONFIG_DIR!, "config.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const status = await runBuilt(["auth", "status", "-o", "json"], env);
    expect(status.code, status.stderr).toBe(0);
    expect(json(status.stdout)).toMatchObject({ env: "test", user_id: 7, key_valid: true, profile: "default" });
    const list = await runBuilt(["profile", "list"], env);
    for (const out of [login.stdout, login.stderr, status.stdout, status.stderr, list.stdout])
      expect(out).not.toContain(KEY);
    handler = answer(401, { is_success: false, errors: { message: "unauthorized", code: 401 } });
    const bad = await runBuilt(
      ["auth", "login", "--with-token", "--profile", "bad", "--env", "test", "--base-url", base, "--user", "7"],
      env,
      "wrong-key",
    );
    expect(bad.code).toBe(4);
    expect((await runBuilt(["profile", "show", "bad"], env)).code).toBe(2);
  });

  it("precedence: --env beats RENTCTL_ENV beats the profile", async () => {
    const sb = await sandboxEnv();
    try {
      const env = { ...sb.env, RENTCTL_ENV: "production" };
      const viaFlag = await runMain(["--env", "sandbox", "auth", "status", "--no-verify", "-o", "json"], env);
      expect(json<{ env: string; sources: Record<string, string> }>(viaFlag.stdout)).toMatchObject({
        env: "sandbox",
        sources: { env: "flag" },
      });
    } finally {
      await sb.cleanup();
    }
  });
});

describe("catalog names and the api command (sandbox)", () => {
  let sb: Awaited<ReturnType<typeof sandboxEnv>>;
  beforeEach(async () => {
    sb = await sandboxEnv();
  });
  afterEach(async () => sb.cleanup());

  it("--brand takes a name; an unknown one lists the known brands", async () => {
    const ok = await runMain(["catalog", "models", "--brand", "toyota", "-o", "json"], sb.env);
    expect(ok.code, ok.stderr).toBe(0);
    expect(json<Array<{ name: string }>>(ok.stdout).map((m) => m.name)).toContain("Corolla");
    const bad = await runMain(["catalog", "models", "--brand", "nosuchbrand"], sb.env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/no brand named "nosuchbrand"/);
    expect(bad.stderr).toMatch(/known: .*Toyota/);
  });

  it("every catalog command answers", async () => {
    const names = [
      "setup",
      "currencies",
      "locales",
      "segments",
      "brands",
      "years",
      "classes",
      "transmissions",
      "benefits",
      "features",
      "options",
      "protection-plans",
      "delivery",
      "fuel-policies",
      "distance-units",
      "payment-systems",
      "payment-types",
      "extra-options",
    ];
    for (const n of names) {
      const r = await runMain(["catalog", n, "-o", "json"], sb.env);
      expect(r.code, `${n}: ${r.stderr}`).toBe(0);
      expect(r.stdout.length).toBeGreaterThan(2);
    }
    const eq = await runMain(
      ["catalog", "equipments", "--brand", "toyota", "--model", "corolla", "-o", "json"],
      sb.env,
    );
    expect(eq.code, eq.stderr).toBe(0);
  });

  it("api --list prints all 32 operations; api calls a path raw with auth", async () => {
    const list = await runMain(["api", "--list", "-o", "json"], sb.env);
    expect(json<unknown[]>(list.stdout)).toHaveLength(32);
    const r = await runMain(
      ["api", "vehicles/list", "-f", "user_id=1001", "-f", "locale_id=40", "-f", "limit=1"],
      sb.env,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(json<{ data: unknown[]; per_page: number }>(r.stdout)).toMatchObject({ per_page: 1 });
    const missing = await runMain(["api", "vehicles/list/id", "-f", "vehicle_id=999999", "-f", "locale_id=40"], sb.env);
    expect(missing.code).toBe(5);
  });
});
