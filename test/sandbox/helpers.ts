import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { API_PREFIX } from "../../src/contract/operations.js";
import type { WireRecord } from "../../src/contract/validate.js";
import { type RunningSandbox, type SandboxOptions, startSandbox } from "../../src/sandbox/server.js";
import { BIN, ROOT } from "../helpers/cli.js";

export const KEY_1001 = "sandbox-key-1001";
export const KEY_1002 = "sandbox-key-1002";
export const KEY_1003 = "sandbox-key-1003";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely in tests
export type Body = any;

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  body: Body;
}

type FormValue = string | number | readonly (string | number)[];

async function reply(res: Response): Promise<Reply> {
  const text = await res.text();
  let body: Body;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body };
}

/** Form-urlencoded body with arrays as repeated `key[]=v`. */
export function form(fields: Record<string, FormValue | undefined>): URLSearchParams {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const item of v) out.append(`${k}[]`, String(item));
    else out.append(k, String(v));
  }
  return out;
}

export class Api {
  constructor(
    readonly base: string,
    readonly key?: string,
  ) {}

  as(key: string | undefined): Api {
    return new Api(this.base, key);
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return this.key ? { authorization: `Bearer ${this.key}`, ...extra } : extra;
  }

  async get(path: string, query: Record<string, FormValue | undefined> = {}): Promise<Reply> {
    const qs = form(query).toString();
    return reply(await fetch(`${this.base}${API_PREFIX}/${path}${qs ? `?${qs}` : ""}`, { headers: this.headers() }));
  }

  async post(path: string, fields: Record<string, FormValue | undefined> | URLSearchParams = {}): Promise<Reply> {
    const body = fields instanceof URLSearchParams ? fields : form(fields);
    return reply(await fetch(`${this.base}${API_PREFIX}/${path}`, { method: "POST", headers: this.headers(), body }));
  }

  async multipart(path: string, body: FormData): Promise<Reply> {
    return reply(await fetch(`${this.base}${API_PREFIX}/${path}`, { method: "POST", headers: this.headers(), body }));
  }

  async raw(path: string, init: RequestInit = {}): Promise<Reply> {
    return reply(
      await fetch(`${this.base}${path}`, {
        ...init,
        headers: { ...this.headers(), ...((init.headers as Record<string, string>) ?? {}) },
      }),
    );
  }
}

/** A multipart upload body: `user_id` plus `count` small files under `name`. */
export function uploadForm(userId: number, count: number, name = "file", extra: Record<string, string> = {}): FormData {
  const fd = new FormData();
  fd.append("user_id", String(userId));
  for (const [k, v] of Object.entries(extra)) fd.append(k, v);
  for (let i = 0; i < count; i++) {
    fd.append(name, new Blob([`image-bytes-${i}`], { type: "image/jpeg" }), `photo-${i + 1}.jpg`);
  }
  return fd;
}

/**
 * The one sandbox set-up of the tests: an ephemeral port, in memory unless
 * `dataFile` is given, and a client with owner 1001's key.
 */
export async function start(opts: SandboxOptions = {}): Promise<{ sb: RunningSandbox; api: Api }> {
  const sb = await startSandbox({ port: 0, dataFile: null, ...opts });
  return { sb, api: new Api(sb.url, KEY_1001) };
}

/** Run `fn` against a sandbox started by `start(opts)`, closing it afterwards. */
export async function withSandbox<T>(
  opts: SandboxOptions,
  fn: (ctx: { sb: RunningSandbox; api: Api; url: string }) => Promise<T>,
): Promise<T> {
  const { sb, api } = await start(opts);
  try {
    return await fn({ sb, api, url: sb.url });
  } finally {
    await sb.close();
  }
}

export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "rentctl-sandbox-test-"));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Stringify every value the way a form would carry it. */
export function asForm(record: WireRecord): Record<string, FormValue> {
  return { ...record };
}

/** The exact error envelope (meta aside). */
export function envelope(body: Body): Body {
  const { meta: _meta, ...rest } = body;
  return rest;
}

/** A `rentctl sandbox serve` process of the built CLI, once it printed its address. */
export interface ServeProcess {
  child: ChildProcess;
  url: string;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  /** Resolves with the exit code (or the signal name) once it exited. */
  exited: Promise<number | string>;
}

/**
 * Spawn the built CLI's `sandbox serve` (port 0 unless `args` says otherwise)
 * and wait until it prints its address; rejects with its stderr if it exits first.
 */
export async function spawnServe(args: string[], env: NodeJS.ProcessEnv): Promise<ServeProcess> {
  if (!existsSync(join(ROOT, "dist", "rentctl.cjs")))
    throw new Error("dist/rentctl.cjs is missing: run `npm run build`");
  const portArgs = args.includes("--port") ? [] : ["--port", "0"];
  const child = spawn(process.execPath, [BIN, "sandbox", "serve", ...portArgs, ...args], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  child.stderr?.on("data", (d) => {
    err += d;
  });
  const exited = new Promise<number | string>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal ?? -1)),
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (d: Buffer) => {
      out += d;
      const line = out.split("\n")[0] as string;
      if (out.includes("\n")) resolve(line.trim());
    });
    void exited.then((code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
  return { child, url, stderr: () => err, exited };
}

/** Every vehicle of `owner`, page by page. */
export async function allVehicles(api: Api, owner = 1001): Promise<Array<{ id: number } & Record<string, unknown>>> {
  const out: Array<{ id: number } & Record<string, unknown>> = [];
  for (let offset = 0; ; offset += 100) {
    const r = await api.get("vehicles/list", { user_id: owner, locale_id: 40, limit: 100, offset });
    if (r.status !== 200) throw new Error(`list failed: ${r.status} ${r.text}`);
    out.push(...r.body.data);
    if (r.body.data.length < 100) return out;
  }
}

/** Poll `cond` every few milliseconds until it holds; false when `timeoutMs` passed first. */
export async function until(cond: () => boolean, timeoutMs = 60_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 2));
  }
  return true;
}
