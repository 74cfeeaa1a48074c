import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ApiClient, type ClientOptions } from "../../src/api/client.js";
import {
  ApiValidationError,
  AuthError,
  MalformedResponseError,
  NetworkError,
  NotConfiguredError,
  NotFoundError,
  ServerError,
  TimeoutError,
} from "../../src/api/errors.js";
import { WRITE_GRANT } from "../../src/api/write-grant.js";
import { EXIT } from "../../src/base/errors.js";
import { BusyError } from "../../src/base/lock.js";

interface Hit {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: Buffer;
}

type Handler = (hit: Hit, res: ServerResponse, n: number) => void;

interface TestServer {
  url: string;
  hits: Hit[];
  server: Server;
}

const servers: Server[] = [];
const clients: ApiClient[] = [];

async function startServer(handler: Handler): Promise<TestServer> {
  const hits: Hit[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const hit = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) };
      hits.push(hit);
      handler(hit, res, hits.length);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, hits, server };
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

const KEY = "sk_live_SuperSecretKey_1234567890";

function makeClient(baseUrl: string, opts: Partial<ClientOptions> = {}): { client: ApiClient; sleeps: number[] } {
  const sleeps: number[] = [];
  const client = new ApiClient({
    baseUrl,
    apiKey: KEY,
    timeoutMs: 5_000,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0,
    ...opts,
  });
  clients.push(client);
  return { client, sleeps };
}

async function caught(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected the promise to reject");
}

afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

const PAGE = { meta: { api_version: 302 }, data: [{ id: 1 }], total: 1, per_page: 15, current_page: 1, limit: 15 };

describe("ApiClient: auth header", () => {
  it("sends the bearer key on an auth operation", async () => {
    const srv = await startServer((_h, res) => json(res, 200, PAGE));
    const { client } = makeClient(srv.url);
    await client.call("vehicles.list", { user_id: 7, locale_id: 40 });
    expect(srv.hits).toHaveLength(1);
    expect(srv.hits[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(srv.hits[0]!.headers.accept).toBe("application/json");
  });

  it("does not send it on a public operation", async () => {
    const srv = await startServer((_h, res) => json(res, 200, { list: [{ id: 1, code: "EUR", symbol: "€" }] }));
    const { client } = makeClient(srv.url);
    const r = await client.call("catalog.currencies", {});
    expect(srv.hits[0]!.headers.authorization).toBeUndefined();
    expect(srv.hits[0]!.url).toBe("/api/v302/currencies");
    expect(r.decoded).toMatchObject({ kind: "list", items: [{ id: 1, code: "EUR", symbol: "€" }] });
  });

  it("throws NotConfiguredError (exit 4) for an auth operation without a key, sending nothing", async () => {
    const srv = await startServer((_h, res) => json(res, 200, PAGE));
    const { client } = makeClient(srv.url, { apiKey: undefined });
    expect(client.hasKey).toBe(false);
    const e = await caught(client.call("vehicles.list", { user_id: 7, locale_id: 40 }));
    expect(e).toBeInstanceOf(NotConfiguredError);
    expect((e as NotConfiguredError).exitCode).toBe(EXIT.auth);
    expect((e as NotConfiguredError).hint).toMatch(/auth login/);
    expect(srv.hits).toHaveLength(0);
    // a public operation still works without a key
    await client.call("catalog.currencies", {}).catch(() => {});
    expect(srv.hits).toHaveLength(1);
  });
});

describe("ApiClient: encoding on the wire", () => {
  it("GET puts parameters in the query string, arrays as key[], a trailing slash in the base trimmed", async () => {
    const srv = await startServer((_h, res) => json(res, 200, PAGE));
    const { client } = makeClient(`${srv.url}/`);
    await client.call("vehicles.list", { user_id: 7, locale_id: 40, limit: 15, offset: 0, missing: undefined });
    expect(srv.hits[0]!.method).toBe("GET");
    expect(srv.hits[0]!.url).toBe("/api/v302/vehicles/list?user_id=7&locale_id=40&limit=15&offset=0");
    expect(srv.hits[0]!.body.length).toBe(0);

    await client.request({ method: "GET", path: "/api/v302/x", query: { q: "a b&c", ids: [1, 2] }, auth: false });
    const u = new URL(srv.hits[1]!.url, "http://h");
    expect(u.pathname).toBe("/api/v302/x");
    expect(u.searchParams.get("q")).toBe("a b&c");
    expect(u.searchParams.getAll("ids[]")).toEqual(["1", "2"]);
  });

  it("refuses every write without the gateway's grant, sending nothing (only src/gateway/ holds it)", async () => {
    const srv = await startServer((_h, res) => json(res, 200, { is_success: true, data: { id: 9 } }));
    const { client } = makeClient(srv.url);
    for (const op of [
      "vehicles.create",
      "vehicles.edit",
      "vehicles.remove",
      "vehicles.upload",
      "extras.create",
      "extras.update",
      "extras.switch",
      "extras.delete",
    ])
      await expect(client.call(op, { user_id: 1 })).rejects.toThrow(/changes the account: only the gateway/);
    await expect(
      client.request({ method: "POST", path: "/api/v302/vehicles/create", form: {}, auth: true }),
    ).rejects.toThrow(/only the gateway/);
    expect(srv.hits).toEqual([]);
    // Reads need no grant.
    await client.call("vehicles.get", { vehicle_id: 1, locale_id: 40 });
    expect(srv.hits.map((h) => h.method)).toEqual(["GET"]);
  });

  it("POST sends a form body with repeated key[] and the form content type", async () => {
    const srv = await startServer((_h, res) => json(res, 200, { is_success: true, data: { id: 9 } }));
    const { client } = makeClient(srv.url);
    const r = await client.call(
      "vehicles.create",
      {
        user_id: 1,
        pickup_location: "Main St & 5th",
        vehicle_images: [11, 12],
        vehicle_vin: "",
        vehicle_activity: true,
      },
      { grant: WRITE_GRANT },
    );
    const hit = srv.hits[0]!;
    expect(hit.method).toBe("POST");
    expect(hit.url).toBe("/api/v302/vehicles/create");
    expect(hit.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(hit.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(hit.body.toString()).toBe(
      "user_id=1&pickup_location=Main%20St%20%26%205th&vehicle_images[]=11&vehicle_images[]=12&vehicle_activity=1",
    );
    expect([...new URLSearchParams(hit.body.toString())]).toEqual([
      ["user_id", "1"],
      ["pickup_location", "Main St & 5th"],
      ["vehicle_images[]", "11"],
      ["vehicle_images[]", "12"],
      ["vehicle_activity", "1"],
    ]);
    expect(r.body).toEqual({ is_success: true, data: { id: 9 } });
  });

  it("upload sends multipart with the text fields and every file part", async () => {
    const srv = await startServer((_h, res) => json(res, 200, { data: [{ id: 101 }, { id: 102 }] }));
    const { client } = makeClient(srv.url);
    await client.call(
      "vehicles.upload",
      { user_id: 3 },
      {
        files: [
          { field: "file", filename: "front.jpg", contentType: "image/jpeg", data: new Uint8Array([0xff, 0xd8, 0xff]) },
          { field: "file", filename: "rear.png", contentType: "image/png", data: new Uint8Array([0x89, 0x50]) },
        ],
        grant: WRITE_GRANT,
      },
    );
    const hit = srv.hits[0]!;
    const ct = String(hit.headers["content-type"]);
    expect(ct).toMatch(/^multipart\/form-data; boundary=/);
    const form = await new Response(new Uint8Array(hit.body), { headers: { "content-type": ct } }).formData();
    expect(form.get("user_id")).toBe("3");
    const files = form.getAll("file") as File[];
    expect(files.map((f) => [f.name, f.type, f.size])).toEqual([
      ["front.jpg", "image/jpeg", 3],
      ["rear.png", "image/png", 2],
    ]);
    expect([...new Uint8Array(await files[0]!.arrayBuffer())]).toEqual([0xff, 0xd8, 0xff]);
  });
});

describe("ApiClient: retries", () => {
  it("GET answered 503 twice then 200 succeeds on the 3rd attempt with growing backoff", async () => {
    const srv = await startServer((_h, res, n) => (n < 3 ? json(res, 503, { errors: "busy" }) : json(res, 200, PAGE)));
    const { client, sleeps } = makeClient(srv.url);
    const r = await client.call("vehicles.list", { user_id: 7, locale_id: 40 });
    expect(srv.hits).toHaveLength(3);
    expect(r.decoded.kind === "paginated" && r.decoded.page.items).toEqual([{ id: 1 }]);
    expect(sleeps).toEqual([125, 250]); // random() = 0 → half of 250 and of 500
  });

  it("GET gives up after exactly 3 attempts with a ServerError (exit 6)", async () => {
    const srv = await startServer((_h, res) => json(res, 502, { errors: { message: "upstream down" } }));
    const { client, sleeps } = makeClient(srv.url, { random: () => 0.999999 });
    const e = await caught(client.call("catalog.locales", {}));
    expect(srv.hits).toHaveLength(3);
    expect(sleeps).toEqual([250, 500]);
    expect(e).toBeInstanceOf(ServerError);
    expect((e as ServerError).exitCode).toBe(6);
    expect(e.message).toBe("server error (502): upstream down");
  });

  it("a server that says why it can answer no more (the embedded sandbox lost its data file): that error, no retry", async () => {
    const lost = new BusyError("the sandbox data file x is busy: another rentctl command (pid 42) uses it");
    let failure: Error | undefined;
    const srv = await startServer((_h, res) => {
      failure = lost;
      json(res, 503, { is_success: false, errors: { message: "sandbox unavailable" } });
    });
    const { client, sleeps } = makeClient(srv.url, { serverFailure: () => failure });
    const e = await caught(client.call("vehicles.list", { user_id: 7, locale_id: 40 }));
    expect(e).toBe(lost);
    expect((e as BusyError).exitCode).toBe(EXIT.busy);
    expect(srv.hits).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it("GET is not retried on 400, 401 or 404", async () => {
    for (const [status, cls] of [
      [400, ApiValidationError],
      [401, AuthError],
      [404, NotFoundError],
    ] as const) {
      const srv = await startServer((_h, res) => json(res, status, { is_success: false, errors: "x" }));
      const { client, sleeps } = makeClient(srv.url);
      const e = await caught(client.call("vehicles.get", { vehicle_id: 1, locale_id: 40 }));
      expect(e).toBeInstanceOf(cls);
      expect(srv.hits).toHaveLength(1);
      expect(sleeps).toEqual([]);
    }
  });

  it("POST answered 503 is NOT retried: exactly one hit", async () => {
    const srv = await startServer((_h, res) => json(res, 503, { errors: "busy" }));
    const { client, sleeps } = makeClient(srv.url);
    const e = await caught(client.call("extras.switch", { extra_id: 4 }, { grant: WRITE_GRANT }));
    expect(e).toBeInstanceOf(ServerError);
    expect(srv.hits).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it("POST to a refused connection (nothing sent) is retried, then a NetworkError (exit 6)", async () => {
    const srv = await startServer(() => {});
    const url = srv.url;
    await new Promise<void>((resolve) => srv.server.close(() => resolve()));
    servers.splice(servers.indexOf(srv.server), 1);
    const { client, sleeps } = makeClient(url);
    const e = await caught(client.call("extras.delete", { extra_id: 4 }, { grant: WRITE_GRANT }));
    expect(e).toBeInstanceOf(NetworkError);
    expect(e).not.toBeInstanceOf(TimeoutError);
    expect((e as NetworkError).exitCode).toBe(6);
    expect(sleeps).toHaveLength(2);
    expect(e.message).toMatch(/ECONNREFUSED/);
    expect(e.message).toMatch(/after 3 attempts/);
  });

  it("honours Retry-After in seconds", async () => {
    const srv = await startServer((_h, res, n) =>
      n === 1 ? json(res, 429, {}, { "retry-after": "2" }) : json(res, 200, { list: [] }),
    );
    const { client, sleeps } = makeClient(srv.url);
    await client.call("catalog.currencies", {});
    expect(srv.hits).toHaveLength(2);
    expect(sleeps).toEqual([2000]);
  });

  it("caps a long Retry-After at 10 s", async () => {
    const srv = await startServer((_h, res, n) =>
      n === 1 ? json(res, 503, {}, { "retry-after": "3600" }) : json(res, 200, { list: [] }),
    );
    const { client, sleeps } = makeClient(srv.url);
    await client.call("catalog.currencies", {});
    expect(sleeps).toEqual([10_000]);
  });

  it("honours Retry-After as an HTTP date against the injected clock", async () => {
    const now = Date.UTC(2026, 0, 1, 12, 0, 0);
    const srv = await startServer((_h, res, n) =>
      n === 1 ? json(res, 503, {}, { "retry-after": "Thu, 01 Jan 2026 12:00:03 GMT" }) : json(res, 200, { list: [] }),
    );
    const { client, sleeps } = makeClient(srv.url, { now: () => now });
    await client.call("catalog.currencies", {});
    expect(sleeps).toEqual([3000]);
  });

  it("a hung server with timeoutMs 200 → TimeoutError (exit 6) after 3 GET attempts", async () => {
    const srv = await startServer(() => {
      /* never answer */
    });
    const { client, sleeps } = makeClient(srv.url, { timeoutMs: 200 });
    const e = await caught(client.call("catalog.currencies", {}));
    expect(e).toBeInstanceOf(TimeoutError);
    expect((e as TimeoutError).exitCode).toBe(6);
    expect(e.message).toMatch(/timed out after 0.2s: GET \/api\/v302\/currencies \(after 3 attempts\)/);
    expect(srv.hits).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
  });

  it("a hung server on a POST → TimeoutError after a single attempt", async () => {
    const srv = await startServer(() => {});
    const { client, sleeps } = makeClient(srv.url, { timeoutMs: 200 });
    const e = await caught(client.call("extras.switch", { extra_id: 1 }, { grant: WRITE_GRANT }));
    expect(e).toBeInstanceOf(TimeoutError);
    expect(srv.hits).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });
});

describe("ApiClient: response decoding", () => {
  it("a non-JSON 200 body → MalformedResponseError (exit 6)", async () => {
    const srv = await startServer((_h, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html>maintenance</html>");
    });
    const { client } = makeClient(srv.url);
    const e = await caught(client.call("catalog.currencies", {}));
    expect(e).toBeInstanceOf(MalformedResponseError);
    expect((e as MalformedResponseError).exitCode).toBe(6);
    expect(e.message).toMatch(/not JSON/);
  });

  it("an empty 200 body → MalformedResponseError", async () => {
    const srv = await startServer((_h, res) => {
      res.writeHead(200);
      res.end();
    });
    const { client } = makeClient(srv.url);
    await expect(client.call("catalog.setup", {})).rejects.toThrow(/empty body/);
  });

  it("a 200 without the envelope's array → MalformedResponseError", async () => {
    const srv = await startServer((_h, res) => json(res, 200, { nothing: true }));
    const { client } = makeClient(srv.url);
    await expect(client.call("catalog.currencies", {})).rejects.toBeInstanceOf(MalformedResponseError);
  });

  it("a 200 with is_success:false → ApiValidationError (exit 3) with its details", async () => {
    const srv = await startServer((_h, res) =>
      json(res, 200, { is_success: false, errors: { message: "validation error", code: 400, fields: { a: ["b"] } } }),
    );
    const { client } = makeClient(srv.url);
    const e = (await caught(
      client.call("vehicles.remove", { user_id: 1, vehicle_id: 2 }, { grant: WRITE_GRANT }),
    )) as ApiValidationError;
    expect(e).toBeInstanceOf(ApiValidationError);
    expect(e.exitCode).toBe(3);
    expect(e.status).toBe(200);
    expect(e.details).toEqual([{ field: "a", message: "b" }]);
  });

  it("an HTML 502 → ServerError naming a non-JSON body", async () => {
    const srv = await startServer((_h, res) => {
      res.writeHead(502, { "content-type": "text/html" });
      res.end("<html><body>Bad Gateway</body></html>");
    });
    const { client } = makeClient(srv.url);
    const e = await caught(client.call("extras.delete", { extra_id: 1 }, { grant: WRITE_GRANT }));
    expect(e).toBeInstanceOf(ServerError);
    expect(e.message).toBe("server error (502): non-JSON (HTML) body");
  });

  it("keeps the raw body (meta included) and drops meta from the decoded body", async () => {
    const srv = await startServer((_h, res) => json(res, 200, { meta: { api_version: 302 }, data: { id: 5 } }));
    const { client } = makeClient(srv.url);
    const r = await client.call("vehicles.get", { vehicle_id: 5, locale_id: 40 });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ meta: { api_version: 302 }, data: { id: 5 } });
    expect(r.decoded).toEqual({ kind: "flexible", body: { data: { id: 5 } } });
  });
});

describe("ApiClient: trace", () => {
  it("traces requests, statuses and retries without ever printing the key", async () => {
    const srv = await startServer((_h, res, n) => (n === 1 ? json(res, 503, {}) : json(res, 200, PAGE)));
    const lines: string[] = [];
    const { client } = makeClient(srv.url, { trace: (l) => lines.push(l) });
    await client.call("vehicles.list", { user_id: 7, locale_id: 40 });
    await client.call("vehicles.create", { user_id: 7, pickup_location: "x" }, { grant: WRITE_GRANT }).catch(() => {});
    expect(lines.length).toBeGreaterThanOrEqual(5);
    expect(lines.some((l) => l.includes("Bearer ***"))).toBe(true);
    expect(lines.some((l) => l.startsWith("← 503 GET"))).toBe(true);
    expect(lines.some((l) => l.startsWith("↻ retry 1/2"))).toBe(true);
    expect(lines.some((l) => l.includes("[attempt 2/3]"))).toBe(true);
    for (const l of lines) {
      expect(l).not.toContain(KEY);
      expect(l).not.toContain("SuperSecret");
    }
  });
});
