import { Writable } from "node:stream";
import type { ChalkInstance } from "chalk";
import type { ApiClient } from "./api/client.js";
import { listAllExtras } from "./api/extras-list.js";
import type { IO } from "./base/io.js";
import { FieldNames } from "./catalog/names.js";
import type { Catalogs } from "./catalog/service.js";
import { type Paths, resolvePaths } from "./config/paths.js";
import { catalogMembers, clientFor, onFirstUse } from "./config/services.js";
import { type GlobalFlags, resolveSettings, type Settings } from "./config/settings.js";
import { ConfigStore } from "./config/store.js";
import { requireUser, resolveTarget, type Target } from "./config/target.js";
import type { JsonObject } from "./contract/records.js";
import { colorEnabled, makeChalk } from "./output/color.js";
import type { Messages } from "./output/messages.js";
import { createMessages } from "./output/messages.js";
import type { Output } from "./output/output.js";
import { createOutput, silentOutput } from "./output/output.js";
import { plainColor } from "./output/plain.js";
import { resultWidth } from "./output/terminal.js";
import { inquirerPrompter, type Prompter } from "./prompt.js";

export type { Messages, Output, Prompter, Target };
// Declared beside the target it reads (src/config/target.ts), so that ops, the gateway and the library reach
// it without this module's output and prompts.
export { requireUser };

/** Everything a command may use. Built lazily: a command that needs no key never builds a client. */
export interface Deps {
  io: IO;
  env: NodeJS.ProcessEnv;
  paths: Paths;
  flags: GlobalFlags;
  /** Colour for stderr (messages, progress, prompts): on only when stderr is a terminal. */
  color: ChalkInstance;
  /** Colour for stdout (results): on only when stdout is a terminal. */
  outColor: ChalkInstance;
  store(): ConfigStore;
  settings(): Settings;
  target(): Promise<Target>;
  client(): Promise<ApiClient>;
  /** The locale id to send (a name given by the user is resolved through the locales catalog). */
  locale(): Promise<number>;
  /** The catalog service (fetch, cache, names <-> ids, locale), built on first use. */
  catalogs(): Catalogs;
  out: Output;
  msg: Messages;
  prompt: Prompter;
  now(): number;
  /** false: no undo history is kept (the library without a dataDir); the CLI always keeps one. */
  history?: false;
  /** Run at exit (closing the client, stopping an embedded sandbox). */
  onExit(fn: () => Promise<void> | void): void;
}

/**
 * The part of Deps an operation, the gateway and the resources below it may use: the target, the
 * API client, the catalogs, the data dir (undo history, row logs, locks), the clock and a place for
 * notes to a person. Never stdout, flags, colours or prompts (those are a front end's). The CLI's
 * Deps satisfies it; the library builds one of its own. `src/ops/context.ts` names it `OpContext`.
 */
export type CoreDeps = Pick<
  Deps,
  "client" | "catalogs" | "locale" | "target" | "paths" | "settings" | "env" | "now" | "history" | "msg" | "onExit"
>;

/**
 * The factory of a command's dependencies (as GitHub CLI's Factory): every
 * member is built on first use, so a command that needs no key never reads
 * the config or builds a client.
 */

export interface ContextOverrides {
  prompt?: Prompter;
  now?: () => number;
  /** Use this client factory instead of the real one (tests). */
  client?: (target: Target, settings: Settings) => ApiClient;
  paths?: Paths;
}

/** Deps plus what only main may do with them: run the exit hooks. */
export interface OwnedDeps extends Deps {
  runExitHooks(): Promise<void>;
}

/** Build the dependencies of a command from the parsed global flags. Nothing is read until asked for. */
export function createDeps(
  io: IO,
  env: NodeJS.ProcessEnv,
  flags: GlobalFlags,
  overrides: ContextOverrides = {},
): OwnedDeps {
  const paths = overrides.paths ?? resolvePaths(env);
  const color = makeChalk(colorEnabled(flags.color, env, io.stderrTTY));
  const outColor = makeChalk(colorEnabled(flags.color, env, io.stdoutTTY));
  const exitHooks: Array<() => Promise<void> | void> = [];
  let store: ConfigStore | undefined;
  let settings: Settings | undefined;
  let targetP: Promise<Target> | undefined;
  let names: FieldNames | undefined;

  const deps: OwnedDeps = {
    io,
    env,
    paths,
    flags,
    color,
    outColor,
    store: () => {
      store ??= new ConfigStore(paths.configDir);
      return store;
    },
    settings: () => {
      settings ??= resolveSettings(flags, env, deps.store());
      return settings;
    },
    target: () => {
      targetP ??= resolveTarget({
        settings: deps.settings(),
        env,
        paths,
        onExit: deps.onExit,
        warn: (m) => deps.msg.warn(m),
      });
      return targetP;
    },
    client: onFirstUse(async () => {
      const target = await deps.target();
      const s = deps.settings();
      if (overrides.client) return overrides.client(target, s);
      return clientFor(
        target,
        {
          timeoutMs: s.timeoutMs,
          trace: flags.verbose ? (line) => io.stderr.write(`${color.dim(line)}\n`) : undefined,
          userAgent: "rentctl/0.1",
          // --raw: each body exactly as received (meta included) is the result; nothing is rendered.
          onBody: flags.raw ? (text) => io.stdout.write(text.endsWith("\n") ? text : `${text}\n`) : undefined,
        },
        (fn) => exitHooks.push(fn),
      );
    }),
    ...catalogMembers(() => deps.client(), {
      dataDir: paths.dataDir,
      scope: () => catalogScope(deps.settings()),
      locale: () => deps.settings().locale,
      now: () => deps.now(),
    }),
    out: flags.raw
      ? silentOutput()
      : createOutput(
          io,
          outColor,
          () => deps.settings(),
          (fn) => deps.onExit(fn),
          {
            names: () => {
              names ??= new FieldNames(deps.catalogs(), () => accountExtras(deps));
              return names;
            },
            width: () => resultWidth(io, env),
          },
        ),
    msg: createMessages(io.stderr, color, Boolean(flags.quiet)),
    prompt: overrides.prompt ?? inquirerPrompter(io),
    now: overrides.now ?? Date.now,
    onExit: (fn) => {
      exitHooks.push(fn);
    },
    runExitHooks: async () => {
      for (const fn of exitHooks.splice(0).reverse()) await fn();
    },
  };
  return deps;
}

/** Whose catalogs the cache holds: the embedded sandbox's, or the server's at this address. */
function catalogScope(s: Settings): string {
  return s.baseUrl ?? (s.env === "sandbox" ? "sandbox" : String(s.env));
}

/** The account's extras (the one listing), for names of `vehicle_extras` (read once per run, only by a view that shows them). */
async function accountExtras(deps: Deps): Promise<JsonObject[]> {
  return listAllExtras(await deps.client(), await deps.locale());
}

/**
 * The same Deps for a front end that returns data and prints nothing (the MCP
 * server: its stdout is the protocol): results go nowhere, no colour, no
 * question (`yes`), json settings; notes for a person go to `msg`.
 */
export function dataOnlyDeps(deps: Deps, msg: Messages): Deps {
  const nowhere = () => new Writable({ write: (_c, _e, cb) => cb() });
  const io: IO = {
    stdout: nowhere(),
    stderr: nowhere(),
    stdin: deps.io.stdin,
    stdoutTTY: false,
    stderrTTY: false,
    stdinTTY: false,
  };
  const settings = (): Settings => ({ ...deps.settings(), output: "json", fields: undefined });
  return {
    ...deps,
    io,
    flags: { ...deps.flags, yes: true, quiet: false, raw: false, dryRun: false, verbose: false, fields: undefined },
    color: plainColor,
    outColor: plainColor,
    settings,
    out: silentOutput(),
    msg,
  };
}
