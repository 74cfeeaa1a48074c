import type { ApiClient } from "./api/client.js";
import { NotConfiguredError } from "./api/errors.js";
import { type Paths, resolvePaths, sandboxDataFile } from "./config/paths.js";
import { type GlobalFlags, resolveSettings, type Settings } from "./config/settings.js";
import { ConfigStore } from "./config/store.js";
import type { Deps, Messages, Output, Prompter, Target } from "./deps.js";
import { UsageError } from "./errors.js";
import type { IO } from "./io.js";
import { colorEnabled, makeChalk } from "./output/color.js";
import { createListWriter, renderIds, renderList, renderRecord } from "./output/render.js";

export interface ContextOverrides {
  prompt?: Prompter;
  now?: () => number;
  /** Use this client factory instead of the real one (tests). */
  client?: (target: Target, settings: Settings) => ApiClient;
  paths?: Paths;
}

/** Build the dependencies of a command from the parsed global flags. Nothing is read until asked for. */
export function createDeps(io: IO, env: NodeJS.ProcessEnv, flags: GlobalFlags, overrides: ContextOverrides = {}): Deps {
  const paths = overrides.paths ?? resolvePaths(env);
  const color = makeChalk(colorEnabled(flags.color, env, io.stderrTTY));
  const exitHooks: Array<() => Promise<void> | void> = [];
  let store: ConfigStore | undefined;
  let settings: Settings | undefined;
  let targetP: Promise<Target> | undefined;
  let clientP: Promise<ApiClient> | undefined;
  let localeP: Promise<number> | undefined;

  const deps: Deps = {
    io,
    env,
    paths,
    flags,
    color,
    store: () => {
      store ??= new ConfigStore(paths.configDir);
      return store;
    },
    settings: () => {
      settings ??= resolveSettings(flags, env, deps.store());
      return settings;
    },
    target: () => {
      targetP ??= resolveTarget(deps);
      return targetP;
    },
    client: () => {
      clientP ??= (async () => {
        const target = await deps.target();
        const s = deps.settings();
        if (overrides.client) return overrides.client(target, s);
        const { ApiClient } = await import("./api/client.js");
        const client = new ApiClient({
          baseUrl: target.baseUrl,
          apiKey: target.apiKey,
          timeoutMs: s.timeoutMs,
          trace: flags.verbose ? (line) => io.stderr.write(`${color.dim(line)}\n`) : undefined,
          userAgent: "rentctl/0.1",
        });
        exitHooks.push(() => client.close());
        return client;
      })();
      return clientP;
    },
    locale: () => {
      localeP ??= (async () => {
        const l = deps.settings().locale;
        if (typeof l === "number") return l;
        const { resolveLocale } = await import("./commands/catalog/resolve.js");
        return resolveLocale(deps, l);
      })();
      return localeP;
    },
    out: undefined as unknown as Output,
    msg: undefined as unknown as Messages,
    prompt: overrides.prompt ?? inquirerPrompter(io),
    now: overrides.now ?? Date.now,
    onExit: (fn) => exitHooks.push(fn),
  };
  deps.out = makeOutput(deps);
  deps.msg = makeMessages(deps);
  (deps as Deps & { runExitHooks: () => Promise<void> }).runExitHooks = async () => {
    for (const fn of exitHooks.reverse()) await fn();
  };
  return deps;
}

export async function runExitHooks(deps: Deps): Promise<void> {
  await (deps as Deps & { runExitHooks?: () => Promise<void> }).runExitHooks?.();
}

function makeOutput(deps: Deps): Output {
  const opts = (columns?: { key: string; header?: string }[]) => {
    const s = deps.settings();
    return { format: s.output, fields: s.fields, columns, color: deps.color, io: deps.io };
  };
  return {
    list: (items, columns) => renderList(items, opts(columns)),
    listWriter: (columns) => createListWriter(opts(columns)),
    record: (record) => renderRecord(record, opts()),
    ids: (ids) => renderIds(deps.io, ids),
  };
}

function makeMessages(deps: Deps): Messages {
  const err = (s: string) => deps.io.stderr.write(`${s}\n`);
  const c = deps.color;
  return {
    info: (t) => {
      if (!deps.flags.quiet) err(t);
    },
    warn: (t) => err(`${c.yellow("warning:")} ${t}`),
    success: (t) => {
      if (!deps.flags.quiet) err(`${c.green("✓")} ${t}`);
    },
    acting: (target, what) => {
      if (deps.flags.quiet) return;
      const env = target.env === "production" ? c.red.bold("production") : c.cyan(target.env);
      const owner = target.userId !== undefined ? ` as owner ${target.userId}` : "";
      const profile = target.profileName ? ` (profile ${target.profileName})` : "";
      err(`${what} on ${env}${owner}${profile} · ${target.baseUrl}`);
    },
  };
}

async function resolveTarget(deps: Deps): Promise<Target> {
  const s = deps.settings();
  if (s.env === "sandbox") {
    const { DEMO_OWNERS } = await import("./sandbox/server.js");
    const owner = DEMO_OWNERS.find((o: { userId: number }) => o.userId === s.userId) ?? DEMO_OWNERS[0]!;
    const apiKey = s.apiKey ?? owner.apiKey;
    const userId = s.userId ?? owner.userId;
    if (s.baseUrl)
      return { env: "sandbox", baseUrl: s.baseUrl, apiKey, userId, profileName: s.profileName, embeddedSandbox: false };
    const { startSandbox } = await import("./sandbox/server.js");
    const dataFile = deps.env.RENTCTL_SANDBOX_MEMORY ? null : sandboxDataFile(deps.paths);
    const onWarning = (text: string) => deps.msg.warn(text); // e.g. a torn last journal line dropped
    const sb = await startSandbox({ host: "127.0.0.1", port: 0, dataFile, onWarning }).catch((err: unknown) => {
      if ((err as { code?: string }).code === "ESANDBOXBUSY") {
        throw new UsageError(`the sandbox data file ${dataFile} is in use by a running \`rentctl sandbox serve\``, {
          hint: "talk to that server instead: add --base-url http://127.0.0.1:4010 (its address), or set RENTCTL_SANDBOX_MEMORY=1 for a throw-away in-memory sandbox",
        });
      }
      throw err;
    });
    deps.onExit(() => sb.close());
    return { env: "sandbox", baseUrl: sb.url, apiKey, userId, profileName: s.profileName, embeddedSandbox: true };
  }
  if (!s.baseUrl) {
    if (s.env === undefined) {
      throw new NotConfiguredError("no environment selected", {
        hint: "run `rentctl auth login` to set up a profile, or add `--env sandbox` to try the built-in sandbox",
      });
    }
    throw new NotConfiguredError(`no base address for the ${s.env} environment`, {
      hint: "the marketplace issues it: pass --base-url URL, set RENTCTL_BASE_URL, or save it with `rentctl auth login --base-url URL`; or use --env sandbox",
    });
  }
  return {
    env: s.env ?? "custom",
    baseUrl: s.baseUrl,
    apiKey: s.apiKey,
    userId: s.userId,
    profileName: s.profileName,
    embeddedSandbox: false,
  };
}

/** The owner id for account operations, or a clear error. */
export async function requireUser(deps: Deps): Promise<number> {
  const t = await deps.target();
  if (t.userId === undefined) {
    throw new UsageError("no owner id configured", {
      hint: "pass --user ID, set RENTCTL_USER_ID, or save it in the profile (`rentctl profile set user ID`)",
    });
  }
  return t.userId;
}

function inquirerPrompter(io: IO): Prompter {
  const ctx = { input: io.stdin as NodeJS.ReadableStream, output: io.stderr as NodeJS.WritableStream };
  return {
    async confirm(message, defaultValue = false) {
      const { confirm } = await import("@inquirer/prompts");
      return confirm({ message, default: defaultValue }, ctx as never);
    },
    async password(message) {
      const { password } = await import("@inquirer/prompts");
      return password({ message, mask: "*" }, ctx as never);
    },
  };
}
