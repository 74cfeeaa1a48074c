import {
  maskKey,
  PROFILE_KEYS,
  type Profile,
  parseEnvironment,
  parseFormat,
  parsePositiveInt,
  validateUrl,
} from "../../config/settings.js";
import type { JsonObject } from "../../contract/records.js";
import type { Deps } from "../../deps.js";
import { UsageError } from "../../errors.js";
import { confirmDestructive } from "../confirm.js";

function view(name: string, p: Profile, current: boolean): JsonObject {
  return {
    name,
    current,
    env: p.env ?? null,
    base_url: p.baseUrl ?? null,
    user_id: p.userId ?? null,
    api_key: p.apiKey ? maskKey(p.apiKey) : null,
    locale: p.locale ?? null,
    output: p.output ?? null,
    timeout: p.timeout ?? null,
  };
}

function need(deps: Deps, name: string): Profile {
  const p = deps.store().get(name);
  if (!p)
    throw new UsageError(`no profile named ${JSON.stringify(name)}`, {
      hint: `known: ${deps.store().names().join(", ") || "(none)"}`,
    });
  return p;
}

export async function list(deps: Deps): Promise<void> {
  const store = deps.store();
  const rows = store.names().map((n) => view(n, store.get(n)!, n === store.current));
  if (deps.flags.quiet) return deps.out.ids(rows.map((r) => r.name as string));
  await deps.out.list(rows, [
    { key: "current", header: " " },
    { key: "name" },
    { key: "env" },
    { key: "base_url" },
    { key: "user_id" },
    { key: "api_key" },
  ]);
  if (rows.length === 0) deps.msg.info("no profiles yet: rentctl auth login, or try --env sandbox");
}

export async function show(deps: Deps, name?: string): Promise<void> {
  const store = deps.store();
  const n = name ?? deps.flags.profile ?? store.current;
  if (!n) throw new UsageError("no profile is current", { hint: "rentctl profile list" });
  await deps.out.record(view(n, need(deps, n), n === store.current));
}

export async function use(deps: Deps, name: string): Promise<void> {
  need(deps, name);
  await deps.store().write((d) => {
    d.current = name;
  });
  deps.msg.success(`profile ${name} is now current`);
}

export async function set(deps: Deps, key: string, value: string): Promise<void> {
  const store = deps.store();
  const name = deps.flags.profile ?? store.current ?? "default";
  const patch: Partial<Profile> = {};
  switch (key) {
    case "env":
      patch.env = parseEnvironment(value, "env");
      break;
    case "base-url":
      validateUrl(value);
      patch.baseUrl = value;
      break;
    case "user":
      patch.userId = parsePositiveInt(value, "user");
      break;
    case "locale":
      patch.locale = /^\d+$/.test(value) ? Number(value) : value;
      break;
    case "output":
      patch.output = parseFormat(value, "output");
      break;
    case "timeout": {
      const n = Number(value);
      if (!Number.isFinite(n) || n <= 0)
        throw new UsageError(`timeout: expected seconds above 0, got ${JSON.stringify(value)}`);
      patch.timeout = n;
      break;
    }
    case "api-key":
      throw new UsageError("the API key is not taken on the command line", {
        hint: "use `rentctl auth login` (hidden prompt) or `--with-token` from stdin",
      });
    default:
      throw new UsageError(`unknown profile key ${JSON.stringify(key)}`, {
        hint: `keys: ${PROFILE_KEYS.filter((k) => k !== "api-key").join(", ")}`,
      });
  }
  await store.write((d) => {
    d.profiles[name] = { ...(d.profiles[name] ?? {}), ...patch };
    d.current ??= name;
  });
  deps.msg.success(`profile ${name}: ${key} = ${value}`);
}

export async function remove(deps: Deps, name: string): Promise<void> {
  need(deps, name);
  await confirmDestructive(deps, `Remove profile ${name} and its key?`, `remove profile ${name}`);
  await deps.store().write((d) => {
    delete d.profiles[name];
    if (d.current === name) d.current = undefined;
  });
  deps.msg.success(`profile ${name} removed`);
}
