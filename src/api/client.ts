import { type Dispatcher, Pool } from "undici";
import { findOperation, operation as opById } from "../contract/operations.js";
import { isObject, type Json } from "../contract/records.js";
import type { Operation } from "../contract/types.js";
import { Cancel, type CancelSignal } from "./cancel.js";
import { type Decoded, decodeEnvelope, errorFor, parseJson } from "./decode.js";
import {
  buildMultipart,
  type EncodableRecord,
  encodeForm,
  encodeMultipart,
  encodeQuery,
  type FilePart,
} from "./encode.js";
import {
  ApiError,
  type ApiHints,
  CLI_HINTS,
  MalformedResponseError,
  NetworkError,
  NotConfiguredError,
  TimeoutError,
} from "./errors.js";
import { backoffDelay, MAX_ATTEMPTS, NOT_SENT_CODES, parseRetryAfter, shouldRetry } from "./retry.js";
import { WRITE_GRANT, type WriteGrant } from "./write-grant.js";

export interface ClientOptions {
  baseUrl: string;
  apiKey?: string;
  /** Bound on each attempt (connect, headers and body), in ms. */
  timeoutMs: number;
  /** Called with one line per event for `--verbose` (never contains the key). */
  trace?: (line: string) => void;
  dispatcher?: Dispatcher;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
  userAgent?: string;
  /** Attempts of a request that may be repeated safely (default MAX_ATTEMPTS; the library's `retries`). */
  maxAttempts?: number;
  /** The hints of its errors, in the words of the front end (default: the CLI's, `CLI_HINTS`; the library: `LIBRARY_HINTS`). */
  hints?: Partial<ApiHints>;
  /** Called with every final 2xx body exactly as received (`--raw` prints them). */
  onBody?: (text: string) => void;
  /**
   * Why the server cannot answer any more, when it knows (the embedded sandbox lost its data
   * file): checked after each answer and thrown instead of it, so the command stops with that
   * error (a busy lock, exit 9; a `sandbox serve` holding the file, exit 2).
   */
  serverFailure?: () => Error | undefined;
}

export interface RawRequest {
  method: string;
  /** Path relative to the base address (with `/api/v302`). */
  path: string;
  query?: EncodableRecord;
  form?: EncodableRecord;
  files?: FilePart[];
  /** Force multipart even without files. */
  multipart?: boolean;
  auth: boolean;
  signal?: CancelSignal;
  /** Bound on each attempt of this request, in ms (default: the client's `timeoutMs`). */
  timeoutMs?: number;
  /** Required for anything but GET: only the gateway holds it (src/api/write-grant.ts). */
  grant?: WriteGrant;
}

export interface RawResponse {
  /** The request's method and path (without the query), for the errors decode throws. */
  method?: string;
  path?: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** Parsed JSON, undefined for an empty body; `parseError` set when the body is not JSON. */
  json: Json | undefined;
  parseError?: string;
  attempts: number;
}

export interface CallResult {
  /** The body as received (meta included), for `--raw`. */
  body: Json;
  decoded: Decoded;
  status: number;
}

const sleepReal = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class ApiClient {
  readonly baseUrl: string;
  #opts: ClientOptions;
  #hints: ApiHints;
  #dispatcher: Dispatcher | undefined;
  #ownsDispatcher: boolean;
  /** The base address's origin and path, parsed once (undefined when it is no URL: each request then says so). */
  #origin: string | undefined;
  #pathPrefix = "";
  /** The cap limitConnections set (undefined: as many as requests need). */
  #connections: number | undefined;
  /** Pools replaced by limitConnections, closing; destroyed by close(). */
  #retired: Dispatcher[] = [];

  constructor(opts: ClientOptions) {
    this.#opts = opts;
    this.#hints = { ...CLI_HINTS, ...opts.hints };
    this.baseUrl = opts.baseUrl.replace(/\/+$/, "");
    this.#ownsDispatcher = !opts.dispatcher;
    this.#dispatcher = opts.dispatcher;
    try {
      const u = new URL(this.baseUrl);
      this.#origin = u.origin;
      this.#pathPrefix = u.pathname.replace(/\/+$/, "");
    } catch {
      // reported by the first request, as a network error naming the address
    }
  }

  /**
   * Every request goes to the one base address: one connection pool for its
   * origin (an Agent would only add a lookup by origin to each request).
   */
  #pool(): Dispatcher {
    this.#dispatcher ??= new Pool(this.#origin ?? new URL(this.baseUrl).origin, {
      connect: { timeout: this.#opts.timeoutMs },
      headersTimeout: this.#opts.timeoutMs,
      bodyTimeout: this.#opts.timeoutMs,
      keepAliveTimeout: 4_000,
      connections: this.#connections ?? null,
    });
    return this.#dispatcher;
  }

  /**
   * At most `n` connections from now on (a bulk run: its --concurrency).
   * Unbounded, undici's pool opens one more whenever a request finds every
   * connection busy, even for the instant between an answer and the next
   * request: an import at concurrency 8 held 16 connections to the server.
   */
  limitConnections(n: number): void {
    if (this.#connections === n) return;
    this.#connections = n;
    if (this.#dispatcher && this.#ownsDispatcher) {
      // the old pool finishes what it has in flight and closes; close() destroys it if it is still open
      const old = this.#dispatcher;
      this.#dispatcher = undefined;
      this.#retired.push(old);
      old.close().catch(() => {});
    }
  }

  get #maxAttempts(): number {
    return this.#opts.maxAttempts ?? MAX_ATTEMPTS;
  }

  get hasKey(): boolean {
    return Boolean(this.#opts.apiKey);
  }

  async close(): Promise<void> {
    // Every body has been read by now: drop idle keep-alive sockets at once rather than waiting on them.
    if (!this.#ownsDispatcher) return;
    for (const d of [...this.#retired, this.#dispatcher]) await d?.destroy().catch(() => {});
  }

  /**
   * One exchange on the pool: the status, the headers and the whole body as
   * text. Through undici's dispatch with a handler that collects the body:
   * request() would add a stream and an async resource per response, a tenth
   * of a bulk run's client time. Aborting `cancel` aborts the exchange.
   */
  #exchange(opts: Dispatcher.DispatchOptions, cancel: Cancel): Promise<Exchange> {
    return new Promise<Exchange>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let statusCode = 0;
      let headers: Record<string, string | string[]> = {};
      let onAbort: (() => void) | undefined;
      const settled = () => {
        if (onAbort) cancel.removeEventListener("abort", onAbort);
      };
      this.#pool().dispatch(opts, {
        onConnect(abort) {
          if (cancel.aborted) abort(cancel.reason as Error);
          else {
            onAbort = () => abort(cancel.reason as Error);
            cancel.addEventListener("abort", onAbort);
          }
        },
        onHeaders(status, raw) {
          if (status < 200) return true; // informational (100 Continue): the answer follows
          statusCode = status;
          headers = headersOf(raw);
          return true;
        },
        onData(chunk) {
          chunks.push(chunk);
          return true;
        },
        onComplete() {
          settled();
          resolve({ statusCode, headers, text: Buffer.concat(chunks).toString("utf8") });
        },
        onError(err) {
          settled();
          reject(err);
        },
      });
    });
  }

  /** Call one contract operation by id: encoding, auth, retries, error mapping, envelope decoding. */
  async call(
    opId: string,
    params: EncodableRecord,
    extra: {
      files?: FilePart[];
      signal?: CancelSignal;
      /** Bound on each attempt of this call, in ms (default: the client's `timeoutMs`). */
      timeoutMs?: number;
      grant?: WriteGrant;
      /** A lookup the command makes on the way (a catalog name, the locale): not its result, so --raw does not print it. */
      lookup?: boolean;
    } = {},
  ): Promise<CallResult> {
    const op = opById(opId);
    const res = await this.request({
      grant: extra.grant,
      method: op.method,
      path: op.path,
      ...(op.method === "GET" ? { query: params } : { form: params }),
      files: extra.files,
      multipart: op.body === "multipart",
      auth: op.access === "auth",
      signal: extra.signal,
      ...(extra.timeoutMs !== undefined ? { timeoutMs: extra.timeoutMs } : {}),
    });
    return this.decode(op, res, extra.lookup);
  }

  /** Turn a raw response into a result or the right error. */
  decode(op: Pick<Operation, "envelope"> | undefined, res: RawResponse, lookup = false): CallResult {
    try {
      return this.#decode(op, res, lookup);
    } catch (e) {
      if (e instanceof ApiError) this.#locate(e, res.method, res.path);
      throw e;
    }
  }

  /** Where an error happened: the request's method and path, and the contract operation it is. */
  #locate(e: ApiError, method: string | undefined, path: string | undefined): void {
    e.method ??= method;
    e.path ??= path;
    if (e.operation === undefined && method && path) e.operation = findOperation(method, path)?.id;
  }

  #decode(op: Pick<Operation, "envelope"> | undefined, res: RawResponse, lookup: boolean): CallResult {
    const ok = res.status >= 200 && res.status < 300;
    if (!ok) throw errorFor(res.status, res.json, res.text, this.#hints);
    if (res.parseError !== undefined) {
      const e = new MalformedResponseError(
        `malformed response (${res.status}): the body is not JSON (${res.parseError})`,
      );
      e.status = res.status;
      throw e;
    }
    if (isObject(res.json) && res.json.is_success === false)
      throw errorFor(res.status, res.json, res.text, this.#hints);
    if (res.json === undefined) {
      const e = new MalformedResponseError(`malformed response (${res.status}): empty body`);
      e.status = res.status;
      throw e;
    }
    const decoded = decodeEnvelope(op?.envelope ?? "flexible", res.json);
    if (!lookup) this.#opts.onBody?.(res.text);
    return { body: res.json, decoded, status: res.status };
  }

  /** One HTTP exchange with retries. Non-2xx answers are returned, not thrown. */
  async request(req: RawRequest): Promise<RawResponse> {
    const { trace } = this.#opts;
    const sleep = this.#opts.sleep ?? sleepReal;
    const random = this.#opts.random ?? Math.random;
    const now = this.#opts.now ?? Date.now;
    const method = req.method.toUpperCase();
    const timeoutMs = req.timeoutMs ?? this.#opts.timeoutMs;
    if (method !== "GET" && req.grant !== WRITE_GRANT)
      throw new Error(`${method} ${req.path} changes the account: only the gateway (src/gateway/) sends it`);
    const query = req.query ? encodeQuery(req.query) : "";
    const url = `${this.baseUrl}${req.path}${query}`;
    if (req.auth && !this.#opts.apiKey) {
      const e = new NotConfiguredError("no API key configured for this operation", { hint: this.#hints.missingKey });
      e.suggests = "missingKey";
      this.#locate(e, method, req.path);
      throw e;
    }
    // A key an HTTP header cannot carry (a placeholder such as `…` copied from an example, a stray
    // newline): one clear line now, not three "network errors" from the header check.
    if (req.auth && !/^[\x21-\x7e]+$/.test(this.#opts.apiKey!)) {
      const e = new NotConfiguredError(
        "the API key has characters an API key cannot have (spaces, line breaks or non-ASCII)",
        { hint: this.#hints.badKey },
      );
      e.suggests = "badKey";
      this.#locate(e, method, req.path);
      throw e;
    }
    const useMultipart = Boolean(req.multipart || (req.files && req.files.length > 0));

    for (let attempt = 1; ; attempt++) {
      const started = now();
      let body: string | Uint8Array | undefined;
      const attemptHeaders: Record<string, string> = {
        accept: "application/json",
        "user-agent": this.#opts.userAgent ?? "rentctl",
      };
      if (req.auth) attemptHeaders.authorization = `Bearer ${this.#opts.apiKey}`;
      if (method !== "GET" && method !== "HEAD") {
        if (useMultipart) {
          const m = await encodeMultipart(await buildMultipart(req.form ?? {}, req.files ?? []));
          body = m.body;
          attemptHeaders["content-type"] = m.contentType;
        } else {
          body = encodeForm(req.form ?? {});
          attemptHeaders["content-type"] = "application/x-www-form-urlencoded";
        }
      }
      trace?.(
        `→ ${method} ${url}${req.auth ? " (Authorization: Bearer ***)" : ""}${attempt > 1 ? ` [attempt ${attempt}/${this.#maxAttempts}]` : ""}`,
      );
      // The bound on the whole attempt, and the caller's signal, through one
      // Cancel and one timer (AbortSignal.timeout + AbortSignal.any cost
      // ~50 µs a request: a tenth of a bulk run's client time).
      const attemptAbort = new Cancel();
      let timedOutNow = false;
      const timer = setTimeout(() => {
        timedOutNow = true;
        attemptAbort.abort(new DOMException("The operation timed out.", "TimeoutError"));
      }, timeoutMs);
      const onCallerAbort = () => attemptAbort.abort(req.signal?.reason);
      if (req.signal?.aborted) onCallerAbort();
      else req.signal?.addEventListener("abort", onCallerAbort, { once: true });
      try {
        const res = await this.#exchange(
          {
            origin: this.#origin ?? new URL(this.baseUrl).origin,
            path: `${this.#pathPrefix}${req.path}${query}`,
            method: method as Dispatcher.HttpMethod,
            headers: attemptHeaders,
            body: body as Dispatcher.DispatchOptions["body"],
            headersTimeout: timeoutMs,
            bodyTimeout: timeoutMs,
          },
          attemptAbort,
        );
        const failure = this.#opts.serverFailure?.();
        if (failure) throw failure;
        const text = res.text;
        const ms = now() - started;
        trace?.(`← ${res.statusCode} ${method} ${url} ${ms}ms`);
        const retryAfter = parseRetryAfter(headerValue(res.headers["retry-after"]), now());
        if (shouldRetry(method, { status: res.statusCode }, attempt, this.#maxAttempts)) {
          const delay = backoffDelay(attempt, random, retryAfter);
          trace?.(`↻ retry ${attempt}/${this.#maxAttempts - 1} in ${delay}ms after status ${res.statusCode}`);
          await sleep(delay);
          continue;
        }
        let json: Json | undefined;
        let parseError: string | undefined;
        try {
          json = parseJson(text);
        } catch (e) {
          parseError = e instanceof Error ? e.message : String(e);
        }
        return {
          method,
          path: req.path,
          status: res.statusCode,
          headers: res.headers,
          text,
          json,
          parseError,
          attempts: attempt,
        };
      } catch (err) {
        clearTimeout(timer);
        if (req.signal?.aborted || err === this.#opts.serverFailure?.()) throw err;
        const timedOut = timedOutNow || isTimeoutCode(errCode(err));
        const code = errCode(err);
        const ms = now() - started;
        trace?.(`✗ ${method} ${url} ${timedOut ? "timed out" : `failed (${code ?? describe(err)})`} after ${ms}ms`);
        if (shouldRetry(method, { error: { code, timeout: timedOut } }, attempt, this.#maxAttempts)) {
          const delay = backoffDelay(attempt, random);
          trace?.(`↻ retry ${attempt}/${this.#maxAttempts - 1} in ${delay}ms`);
          await sleep(delay);
          continue;
        }
        const tries = attempt > 1 ? ` (after ${attempt} attempts)` : "";
        // A write whose answer was lost may have been applied: say so, never retry it blindly.
        const sentCode = code !== undefined && NOT_SENT_CODES.has(code);
        if (method !== "GET" && method !== "HEAD" && !sentCode) {
          const e = new (timedOut ? TimeoutError : NetworkError)(
            `the answer to ${method} ${req.path} was lost (${timedOut ? "timed out" : describe(err)}): the server may have applied it`,
            {
              hint: "check the result before sending it again (rentctl never repeats a write on its own)",
              cause: err,
            },
          );
          this.#locate(e, method, req.path);
          e.answerLost = true;
          throw e;
        }
        const e = timedOut
          ? new TimeoutError(`request timed out after ${timeoutMs / 1000}s: ${method} ${req.path}${tries}`, {
              hint: this.#hints.timeout,
              cause: err,
            })
          : new NetworkError(`network error: ${describe(err)}: ${method} ${this.baseUrl}${req.path}${tries}`, {
              hint: this.#hints.network,
              cause: err,
            });
        e.suggests = timedOut ? "timeout" : "network";
        this.#locate(e, method, req.path);
        throw e;
      } finally {
        clearTimeout(timer);
        req.signal?.removeEventListener("abort", onCallerAbort);
      }
    }
  }
}

interface Exchange {
  statusCode: number;
  headers: Record<string, string | string[]>;
  text: string;
}

/** Raw header pairs as an object: names in lower case, a repeated header as a list (as undici's request() gives them). */
function headersOf(raw: Buffer[]): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toString("latin1").toLowerCase();
    const value = raw[i + 1]!.toString("latin1");
    const seen = out[name];
    if (seen === undefined) out[name] = value;
    else if (Array.isArray(seen)) seen.push(value);
    else out[name] = [seen, value];
  }
  return out;
}

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function errCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let i = 0; i < 4 && e; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

function isTimeoutCode(code: string | undefined): boolean {
  return code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT" || code === "UND_ERR_CONNECT_TIMEOUT";
}

function describe(err: unknown): string {
  const code = errCode(err);
  const msg = err instanceof Error ? err.message : String(err);
  return code && !msg.includes(code) ? `${code} ${msg}` : msg;
}

/** Whether an operation (or an unknown raw path) should carry the bearer header. */
export function needsAuth(method: string, path: string): boolean {
  const op = findOperation(method, path);
  return op ? op.access === "auth" : true;
}

export { ApiError };
