import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { VERSION } from "../base/version.js";
import { API_VERSION, OPERATIONS } from "../contract/operations.js";
import type { Operation } from "../contract/types.js";
import { HANDLERS, SandboxHttpError } from "./handlers.js";
import { DEMO_OWNERS, type DemoOwner } from "./owners.js";
import type { LockHolder } from "./persistence/lock.js";
import {
  BodyTooLarge,
  bodyLimit,
  discardBody,
  MAX_FORM_BODY_BYTES,
  MAX_UPLOAD_BODY_BYTES,
  MalformedRequest,
  type ParsedInput,
  parseBody,
  parseQuery,
  readBody,
} from "./request.js";
import type { SandboxState } from "./rows.js";
import { seedState } from "./seed.js";
import { resetData, Store } from "./store.js";

export type { DemoOwner } from "./owners.js";
export { DEMO_OWNERS } from "./owners.js";
export type { LockHolder } from "./persistence/lock.js";
export type { RepairReport } from "./repair.js";
export { repairData as repairSandboxData } from "./repair.js";
export { sampleVehicleInput } from "./seed.js";
export { SandboxDataCorruptError, SandboxDataInUseError } from "./store.js";

/**
 * The sandbox: a real HTTP server implementing every operation of the
 * Partner API v302 (src/contract/operations.ts) on loopback, with the demo
 * accounts of DEMO_OWNERS, persistent state and switchable faults. See
 * handlers.ts for the behaviour of each operation and store.ts for the data
 * file.
 */

export interface SandboxFaults {
  /** Delay before each answer (every request, also after `faultFirst` is used up). */
  latencyMs?: number;
  /** 0..1: answer 500 or 503 (alternating) with a JSON error body. */
  failRate?: number;
  /** 0..1: answer 502 with an HTML body (text/html). */
  html502Rate?: number;
  /** 0..1: destroy the socket (TCP reset) without answering. */
  resetRate?: number;
  /** 0..1: answer 429 with Retry-After. */
  throttleRate?: number;
  /** Retry-After value (seconds) for 429; default 1. */
  retryAfterSeconds?: number;
  /**
   * If set, faults hit exactly the first N requests and no other: request k
   * (1-based, k <= N) gets the enabled fault kinds (rate > 0) in turn, in the
   * order reset, html502, throttle, fail. Without it, each request draws each
   * kind independently by its rate.
   */
  faultFirst?: number;
  /** Injectable RNG (default Math.random). */
  random?: () => number;
  /**
   * Aim the faults at these operations only (`"vehicles.create"`, or a list): other requests are
   * answered normally, and `faultFirst` counts the requests of these operations only.
   */
  only?: string | readonly string[];
}

export interface RequestLogEntry {
  method: string;
  path: string;
  /** 0 when the socket was reset without an answer. */
  status: number;
  ms: number;
  fault?: FaultKind;
}

/** What one request carried, as `createSandbox().requests()` lists it. */
export interface RecordedRequest {
  method: string;
  path: string;
  /** The contract operation, e.g. `vehicles.create`. */
  operation: string;
  /** Query members (GET) or form / multipart fields (POST), by wire name; arrays as lists. */
  fields: Record<string, string | string[]>;
  /** File parts of a multipart body: part name and file name. */
  files: Array<{ field: string; fileName: string }>;
  /**
   * The fault the attempt got instead of its answer (`reset`: the connection dropped; `html502`;
   * `throttle`: 429; `fail`: 500 or 503, in turn); absent when it was answered. Each attempt of
   * a retried request is recorded, so a test counts the retries.
   */
  fault?: FaultKind;
}

export interface SandboxOptions extends SandboxFaults {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 4010; 0 = ephemeral. */
  port?: number;
  /** Persistence path; null or omitted = in memory only. */
  dataFile?: string | null;
  /** Largest request body (a multipart upload); beyond it the answer is 413 (default 12 MiB). */
  maxBodyBytes?: number;
  /** Largest form-urlencoded or other non-multipart body (default 1 MiB; never above maxBodyBytes). */
  maxFormBodyBytes?: number;
  /** Compact the journal after this many lines (default: by size). */
  walLimit?: number;
  /**
   * Run inside a CLI command: the data file is held only while a request is answered (others wait
   * their turn, and each request sees every write answered before it, by any process).
   */
  embedded?: boolean;
  /** Bound on each wait for the data file held by another process (default RENTCTL_LOCK_TIMEOUT seconds, else 60 s). */
  lockTimeoutMs?: number;
  /** Called once when a wait for the data file has lasted a second, with who holds it. */
  onLockWait?: (holder: LockHolder) => void;
  /** Compact the journal once it holds this many bytes (default: the snapshot's size, at least 1 MiB). */
  compactBytes?: number;
  /** On close, always fold the journal into the snapshot (default: only when it is an eighth of its size). */
  compactOnClose?: boolean;
  /** Called after each request (e.g. for an access log on stderr). Never given the key. */
  onRequest?: (entry: RequestLogEntry) => void;
  /**
   * Called with what each routed request carried (its operation, query, form fields, file part
   * names), after faults and before it is answered: `createSandbox().requests()`. Never given the key.
   */
  onInput?: (entry: RecordedRequest) => void | Promise<void>;
  /** In memory only: the state to start from and to reset to (default the demo seed). */
  seed?: () => SandboxState;
  /** Called with unexpected errors (a handler bug answered 500, a failed compaction). */
  onError?: (err: unknown) => void;
  /** Called with what was recovered when the data file was opened (a torn last journal line). */
  onWarning?: (message: string) => void;
}

export interface RunningSandbox {
  /** Base address without `/api/v302`, e.g. `http://127.0.0.1:4010`. */
  url: string;
  host: string;
  port: number;
  owners: DemoOwner[];
  /** What request bodies cost: the most bytes one body held in memory, and how many bodies were refused (413). */
  bodyStats(): { peakBufferedBytes: number; refused: number };
  /**
   * Embedded: why the sandbox lost its data file (a `sandbox serve` took it, the wait for another
   * command ran out, it became unreadable); from then on every request is answered 503 at once.
   */
  unavailable(): Error | undefined;
  /** Change the fault switches from now on (the given ones replace the current set). */
  setFaults(faults: SandboxFaults): void;
  /** In memory only: back to the seed state (ids start over). */
  reset(): void;
  close(): Promise<void>;
}

export type FaultKind = "reset" | "html502" | "throttle" | "fail";

export const DEFAULT_SANDBOX_HOST = "127.0.0.1";
export const DEFAULT_SANDBOX_PORT = 4010;

/** Wipe the persisted state in `dataFile` back to the seed (refused while a sandbox serves it). */
export function resetSandboxData(dataFile: string): Promise<void> {
  return resetData(dataFile);
}

function checkOptions(o: SandboxOptions): void {
  for (const k of ["failRate", "html502Rate", "resetRate", "throttleRate"] as const) {
    const v = o[k];
    if (v !== undefined && !(v >= 0 && v <= 1)) throw new RangeError(`${k} must be between 0 and 1, got ${v}`);
  }
  for (const k of [
    "latencyMs",
    "retryAfterSeconds",
    "faultFirst",
    "maxBodyBytes",
    "maxFormBodyBytes",
    "walLimit",
    "compactBytes",
  ] as const) {
    const v = o[k];
    if (v !== undefined && !(Number.isFinite(v) && v >= 0)) throw new RangeError(`${k} must be 0 or more, got ${v}`);
  }
  if (o.port !== undefined && !(Number.isInteger(o.port) && o.port >= 0 && o.port <= 65535)) {
    throw new RangeError(`port must be 0 to 65535, got ${o.port}`);
  }
  for (const op of OPERATIONS) if (!HANDLERS[op.id]) throw new Error(`sandbox: no handler for ${op.id}`);
  for (const id of onlyOf(o)) {
    if (!OPERATIONS.some((op) => op.id === id))
      throw new RangeError(`only: ${JSON.stringify(id)} is no operation of the contract (e.g. "vehicles.create")`);
  }
}

/** The operations `only` aims the faults at (empty: every request). */
function onlyOf(f: SandboxFaults): readonly string[] {
  return f.only === undefined ? [] : typeof f.only === "string" ? [f.only] : f.only;
}

const SECRET_NAME = /key|token|secret|password|authori[sz]ation/i;

/** Request variables as echoed in `meta.vars`: never a key, whatever the member is called. */
function publicVars(input: ParsedInput, secrets: ReadonlySet<string>): Record<string, unknown> {
  const vars: Record<string, unknown> = Object.create(null);
  const hide = (v: string) => (secrets.has(v.trim()) ? "[redacted]" : v);
  for (const [k, v] of Object.entries(input.fields)) {
    vars[k] = SECRET_NAME.test(k) ? "[redacted]" : Array.isArray(v) ? v.map(hide) : hide(v);
  }
  for (const f of input.files) {
    const prev = vars[f.field];
    vars[f.field] = [...(Array.isArray(prev) ? prev : prev === undefined ? [] : [prev]), f.fileName];
  }
  return vars;
}

function bearer(req: IncomingMessage): string | null {
  const m = /^\s*Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "");
  return m ? (m[1] as string) : null;
}

const HTML_502 =
  "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n";

function now(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** Start a sandbox. Resolves once it listens; rejects (leaving nothing open) if it cannot. */
export async function startSandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  checkOptions(opts);
  const host = opts.host ?? DEFAULT_SANDBOX_HOST;
  const random = opts.random ?? Math.random;
  if (opts.seed && opts.dataFile) throw new Error("sandbox: a seed is for an in-memory sandbox (no data file)");
  const store = await Store.open(opts.dataFile ?? null, {
    seed: opts.seed,
    role: opts.embedded ? "embedded" : "serve",
    walLimit: opts.walLimit,
    compactBytes: opts.compactBytes,
    compactOnClose: opts.compactOnClose,
    lockTimeoutMs: opts.lockTimeoutMs,
    onLockWait: opts.onLockWait,
    onError: opts.onError,
    onWarning: opts.onWarning,
  });
  const owners = new Map(DEMO_OWNERS.map((o) => [o.apiKey, o.userId]));
  const secrets = new Set(DEMO_OWNERS.map((o) => o.apiKey));
  const routes = new Map<string, Operation[]>();
  for (const op of OPERATIONS) routes.set(op.path, [...(routes.get(op.path) ?? []), op]);
  const abort = new AbortController();
  const inflight = new Set<Promise<void>>();
  let requests = 0;
  let failures = 0;
  const caps = {
    upload: opts.maxBodyBytes ?? MAX_UPLOAD_BODY_BYTES,
    form: opts.maxFormBodyBytes ?? MAX_FORM_BODY_BYTES,
  };
  const bodyStats = { peakBufferedBytes: 0, refused: 0 };
  const buffered = (bytes: number): void => {
    if (bytes > bodyStats.peakBufferedBytes) bodyStats.peakBufferedBytes = bytes;
  };

  // The fault switches in force: the options', or what setFaults set since (counted from then).
  let faults: SandboxFaults = opts;
  let faultsFrom = 0;
  const kindsOf = (f: SandboxFaults) =>
    (
      [
        ["reset", f.resetRate],
        ["html502", f.html502Rate],
        ["throttle", f.throttleRate],
        ["fail", f.failRate],
      ] as const
    ).filter(([, rate]) => (rate ?? 0) > 0);
  let faultKinds = kindsOf(faults);
  let only = new Set(onlyOf(faults));
  /** Requests of the `only` operations since the switches were set (their `faultFirst` counts these). */
  let aimed = 0;

  function pickFault(n: number, op: Operation | undefined): FaultKind | undefined {
    if (faultKinds.length === 0) return undefined;
    if (only.size > 0 && !(op && only.has(op.id))) return undefined;
    if (faults.faultFirst !== undefined) {
      const k = only.size > 0 ? ++aimed : n - faultsFrom;
      return k <= faults.faultFirst ? faultKinds[(k - 1) % faultKinds.length]?.[0] : undefined;
    }
    for (const [kind, rate] of faultKinds) if (random() < (rate ?? 0)) return kind;
    return undefined;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const n = ++requests;
    const method = (req.method ?? "GET").toUpperCase();
    let url: URL;
    try {
      url = new URL(req.url ?? "/", "http://sandbox.invalid");
    } catch {
      // a request line no URL parser reads: answered (400) and the connection closed, never left hanging
      const text = JSON.stringify({ is_success: false, errors: { message: "the request URL cannot be parsed" } });
      res.writeHead(400, {
        "content-type": "application/json; charset=utf-8",
        "content-length": Buffer.byteLength(text),
        connection: "close",
      });
      res.end(text);
      opts.onRequest?.({ method, path: String(req.url), status: 400, ms: performance.now() - started });
      return;
    }
    const path = url.pathname;
    const query = parseQuery(url.searchParams);
    let status = 0;
    let fault: FaultKind | undefined;
    let meta: Record<string, unknown> = { method, path, vars: publicVars(query, secrets), api_version: API_VERSION };

    const send = (code: number, body: unknown, headers: Record<string, string | number> = {}): void => {
      status = code;
      if (res.headersSent || res.destroyed) return;
      const text = JSON.stringify(body);
      res.writeHead(code, {
        "content-type": "application/json; charset=utf-8",
        "content-length": Buffer.byteLength(text),
        ...headers,
      });
      res.end(text);
    };
    const sendError = (code: number, message: string, fields?: Record<string, string[]>, headers = {}): void =>
      send(code, { meta, is_success: false, errors: { message, code, ...(fields ? { fields } : {}) } }, headers);

    try {
      let body: Buffer;
      try {
        body = await readBody(req, bodyLimit(req.headers["content-type"], caps), buffered);
      } catch (err) {
        if (!(err instanceof BodyTooLarge)) throw err;
        bodyStats.refused++;
        discardBody(req);
        sendError(413, "payload too large", undefined, { connection: "close" });
        return;
      }
      // The contract this server implements, as OpenAPI 3.1 (the same document as `rentctl api --openapi`,
      // plus `servers`): no faults. Loaded on first ask (the record schemas bring zod).
      if ((method === "GET" || method === "HEAD") && path === "/openapi.json") {
        const { openApiDocument } = await import("../contract/openapi.js");
        send(200, openApiDocument({ version: VERSION, serverUrl: `http://${req.headers.host ?? "127.0.0.1"}` }));
        return;
      }
      if (faults.latencyMs) await sleep(faults.latencyMs, undefined, { signal: abort.signal });

      // Only the exact versioned paths route (a trailing slash is tolerated).
      const candidates = routes.get(path.replace(/\/+$/, ""));
      const op = candidates?.find((o) => o.method === method);
      // POST members come from the body only (a query string on a POST is ignored).
      let input: ParsedInput = query;
      let malformed: MalformedRequest | undefined;
      if (op && method === "POST") {
        try {
          input = await parseBody(req.headers["content-type"], body);
        } catch (err) {
          if (!(err instanceof MalformedRequest)) throw err;
          malformed = err;
          input = { fields: {}, files: [] };
        }
      }

      fault = pickFault(n, op);
      // every attempt of an operation is recorded, with the fault it got
      if (op && opts.onInput) {
        const vars = publicVars({ fields: input.fields, files: [] }, secrets) as Record<string, string | string[]>;
        await opts.onInput({
          method,
          path,
          operation: op.id,
          fields: { ...vars },
          files: input.files.map((f) => ({ field: f.field, fileName: f.fileName })),
          ...(fault ? { fault } : {}),
        });
      }
      if (fault === "reset") {
        req.socket.resetAndDestroy();
        return;
      }
      if (fault === "html502") {
        status = 502;
        res.writeHead(502, { "content-type": "text/html", "content-length": Buffer.byteLength(HTML_502) });
        res.end(HTML_502);
        return;
      }
      if (fault === "throttle") {
        sendError(429, "too many requests", undefined, { "retry-after": String(faults.retryAfterSeconds ?? 1) });
        return;
      }
      if (fault === "fail") {
        failures++;
        if (failures % 2 === 1) sendError(500, "internal server error");
        else sendError(503, "service unavailable");
        return;
      }

      if (!candidates) {
        sendError(404, "not found");
        return;
      }
      if (!op) {
        sendError(405, "method not allowed", undefined, { allow: candidates.map((o) => o.method).join(", ") });
        return;
      }
      meta = { method, path, vars: publicVars(input, secrets), api_version: API_VERSION };

      let owner: number | null = null;
      if (op.access === "auth") {
        const key = bearer(req);
        owner = key === null ? null : (owners.get(key) ?? null);
        if (owner === null) {
          sendError(401, "unauthorized");
          return;
        }
      }
      if (malformed) {
        sendError(400, "validation error", { [malformed.field]: [malformed.message] });
        return;
      }
      const handler = HANDLERS[op.id] as (typeof HANDLERS)[string];
      try {
        const result = await store.turn(() => handler({ op, input, owner, store, now }));
        send(200, { meta, ...result });
      } catch (err) {
        if (err !== undefined && err === store.unavailable) {
          sendError(503, `sandbox unavailable: ${(err as Error).message}`);
          return;
        }
        if (!(err instanceof SandboxHttpError)) throw err;
        sendError(err.status, err.message, err.fields);
      }
    } catch (err) {
      if (abort.signal.aborted) {
        res.destroy();
        return;
      }
      opts.onError?.(err);
      sendError(500, "internal server error");
    } finally {
      opts.onRequest?.({ method, path, status, ms: performance.now() - started, ...(fault ? { fault } : {}) });
    }
  }

  const server: Server = createServer((req, res) => {
    const p = handle(req, res).catch((err) => opts.onError?.(err));
    inflight.add(p);
    void p.finally(() => inflight.delete(p));
  });

  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(opts.port ?? DEFAULT_SANDBOX_PORT, host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (err) {
    await store.close();
    throw err;
  }
  server.on("error", (err) => opts.onError?.(err));

  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}`,
    host,
    port,
    owners: DEMO_OWNERS.map((o) => ({ ...o })),
    bodyStats: () => ({ ...bodyStats }),
    unavailable: () => store.unavailable,
    setFaults(next) {
      checkOptions(next);
      faults = { ...next };
      faultKinds = kindsOf(faults);
      only = new Set(onlyOf(faults));
      aimed = 0;
      faultsFrom = requests;
    },
    reset() {
      if (opts.dataFile) throw new Error("sandbox: reset() is for an in-memory sandbox; use `rentctl sandbox reset`");
      store.resetInMemory((opts.seed ?? seedState)());
    },
    close() {
      closing ??= (async () => {
        abort.abort();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await Promise.allSettled([...inflight]);
        await store.close();
      })();
      return closing;
    },
  };
}
