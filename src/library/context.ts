import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import type { ChalkInstance } from "chalk";
import { LIBRARY_HINTS } from "../api/errors.js";
import { UsageError } from "../base/errors.js";
import type { IO } from "../base/io.js";
import type { Paths } from "../config/paths.js";
import { catalogMembers, clientFor, onFirstUse } from "../config/services.js";
import { ENVIRONMENTS, type Environment, type Settings } from "../config/settings.js";
import type { ConfigStore } from "../config/store.js";
import { resolveTarget, type Target } from "../config/target.js";
import type { Deps, Messages, OwnedDeps } from "../deps.js";

/**
 * The dependencies of the library's calls (the same `Deps` every CLI
 * command receives, src/deps.ts), built from the options of one
 * `createClient` instead of flags, environment variables and profiles: no
 * terminal (results are returned, nothing is printed, nothing is asked),
 * no config file, no global state. Two clients are two contexts that share
 * nothing. Files: the catalog cache, the undo history and row logs of bulk jobs go to
 * `dataDir` when the caller gives one; without it, catalogs stay in memory and
 * a job's journal lives in a private temporary directory removed by close().
 */

export interface LibraryOptions {
  /** `production`, `test` (with `baseUrl`) or `sandbox` (an in-memory sandbox in this process, unless `baseUrl`). */
  env?: Environment;
  /** The API's base address (without `/api/v302`). */
  baseUrl?: string;
  /** The owner id: every vehicle call is made for this owner. */
  userId?: number;
  /** Bearer key of the owner (the sandbox's demo key when env is `sandbox` and none is given). */
  apiKey?: string;
  /** Locale id (40 = English) or a name or code looked up in the locales catalog. */
  locale?: number | string;
  /** Bound on each attempt of a request, in milliseconds (default 30 000). */
  timeout?: number;
  /** Attempts of a request that can be repeated safely (reads; writes never blindly), 1-10 (default 3). */
  attempts?: number;
  /**
   * @deprecated Use `attempts` (it always counted attempts, not retries: `retries: 3` means 3
   * attempts). Kept for one release; when both are given, `attempts` wins.
   */
  retries?: number;
  /** Where the catalog cache, the undo history and row logs of bulk jobs are kept (as the CLI's data dir). */
  dataDir?: string;
  /** Called with one line per request (never with the key), like the CLI's --verbose. */
  trace?: (line: string) => void;
}

/** A sink: what a command would print goes nowhere (the library returns data). */
function sink(): Writable {
  return new Writable({ write: (_c, _e, cb) => cb() });
}

const silentMessages: Messages = { info() {}, warn() {}, success() {}, acting() {} };

/** No colour (chalk's interface, without loading chalk): the library returns data, nothing is printed. */
const noColor: ChalkInstance = new Proxy(() => {}, {
  get: (_t, key) => (key === "level" ? 0 : noColor),
  apply: (_t, _this, args: unknown[]) => args.join(" "),
}) as unknown as ChalkInstance;

/**
 * The CLI's output, silenced: the operations (src/ops) return data and never print; the
 * bulk jobs still under the CLI's Deps (account apply) get a place that prints nothing.
 */
const silentOutput: Deps["out"] = {
  list: async () => {},
  listWriter: () => ({ push: async () => {}, end: async () => {} }),
  record: async () => {},
  card: async () => {},
  document: async () => {},
  ids: async () => {},
  setView: () => {},
  view: () => ({ width: 80, color: noColor }),
};

export interface LibraryContext {
  deps: OwnedDeps;
  /** Stop what the context started (connections, an embedded sandbox) and remove its private directory. */
  close(): Promise<void>;
}

export function libraryContext(opts: LibraryOptions): LibraryContext {
  const env: Environment | undefined = opts.env;
  if (env !== undefined && !(ENVIRONMENTS as readonly string[]).includes(env))
    throw new UsageError(`env must be one of ${ENVIRONMENTS.join(", ")}, not ${JSON.stringify(env)}`);
  if (opts.baseUrl !== undefined) {
    let ok = false;
    try {
      ok = /^https?:$/.test(new URL(opts.baseUrl).protocol);
    } catch {
      // refused below
    }
    if (!ok) throw new UsageError(`baseUrl must be an http(s) address, not ${JSON.stringify(opts.baseUrl)}`);
  }
  if (!opts.baseUrl && env !== "sandbox")
    throw new UsageError("createClient needs baseUrl (or env: 'sandbox' for an in-process sandbox)");
  const attemptsName = opts.attempts !== undefined ? "attempts" : "retries";
  const attempts = opts.attempts ?? opts.retries;
  if (attempts !== undefined && !(Number.isInteger(attempts) && attempts >= 1 && attempts <= 10))
    throw new UsageError(`${attemptsName} must be a whole number from 1 to 10, not ${attempts}`);
  if (opts.timeout !== undefined && !(Number.isFinite(opts.timeout) && opts.timeout > 0))
    throw new UsageError(`timeout must be a positive number of milliseconds, not ${opts.timeout}`);
  let privateDir: string | undefined;
  const paths: Paths = {
    get configDir(): string {
      throw new UsageError("the library reads no config file: pass every setting to createClient");
    },
    get dataDir(): string {
      if (opts.dataDir) return opts.dataDir;
      privateDir ??= mkdtempSync(join(tmpdir(), "rentctl-lib-"));
      return privateDir;
    },
  };
  const settings: Settings = {
    env,
    baseUrl: opts.baseUrl?.replace(/\/+$/, ""),
    apiKey: opts.apiKey,
    userId: opts.userId,
    locale: opts.locale ?? 40,
    output: "json",
    timeoutMs: opts.timeout ?? 30_000,
    // as given by the caller: the sandbox's demo key applies when none is given (as `--env sandbox` does)
    sources: { env: "flag", baseUrl: "flag", apiKey: "flag", userId: "flag", locale: "flag" },
  };
  const io: IO = {
    stdout: sink(),
    stderr: sink(),
    // made on first use only (a library's caller may never read stdin)
    get stdin() {
      return process.stdin;
    },
    stdoutTTY: false,
    stderrTTY: false,
    stdinTTY: false,
  };
  const exitHooks: Array<() => Promise<void> | void> = [];
  let targetP: Promise<Target> | undefined;
  const deps: OwnedDeps = {
    io,
    env: opts.dataDir ? {} : { RENTCTL_SANDBOX_MEMORY: "1" },
    paths,
    // the call is the consent: no prompt (a library never asks), no --dry-run
    flags: { yes: true, quiet: true },
    color: noColor,
    outColor: noColor,
    store: (): ConfigStore => {
      throw new UsageError("the library reads no config file: pass every setting to createClient");
    },
    settings: () => settings,
    target: () => {
      targetP ??= resolveTarget({ settings, env: deps.env, paths, onExit: deps.onExit, warn: () => {} });
      return targetP;
    },
    client: onFirstUse(async () => {
      const target = await deps.target();
      return clientFor(
        target,
        {
          timeoutMs: settings.timeoutMs,
          maxAttempts: attempts,
          trace: opts.trace,
          userAgent: "rentctl-library/0.1",
          hints: LIBRARY_HINTS,
        },
        (fn) => exitHooks.push(fn),
      );
    }),
    ...catalogMembers(() => deps.client(), {
      dataDir: opts.dataDir,
      scope: () => settings.baseUrl ?? "sandbox",
      locale: () => settings.locale,
      now: () => Date.now(),
    }),
    out: silentOutput,
    msg: silentMessages,
    prompt: {
      confirm: async () => true,
      password: async () => {
        throw new UsageError("the library asks for nothing: pass apiKey to createClient");
      },
    },
    now: Date.now,
    // the undo history is the CLI's data: kept only in a data dir the caller chose
    ...(opts.dataDir ? {} : { history: false as const }),
    onExit: (fn) => {
      exitHooks.push(fn);
    },
    runExitHooks: async () => {
      for (const fn of exitHooks.splice(0).reverse()) await fn();
    },
  };
  return {
    deps,
    close: async () => {
      await deps.runExitHooks();
      if (privateDir) rmSync(privateDir, { recursive: true, force: true });
      privateDir = undefined;
    },
  };
}
