import { UsageError } from "../../base/errors.js";
import { maskKey, type Profile } from "../../config/settings.js";
import type { JsonObject } from "../../contract/records.js";
import type { Deps } from "../../deps.js";

/** What the profile verbs share (one verb per module beside this one: list, show, use, set, remove). */

export function view(name: string, p: Profile, current: boolean): JsonObject {
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

export function need(deps: Deps, name: string): Profile {
  const p = deps.store().get(name);
  if (!p)
    throw new UsageError(`no profile named ${JSON.stringify(name)}`, {
      hint: `known: ${deps.store().names().join(", ") || "(none)"}`,
    });
  return p;
}
