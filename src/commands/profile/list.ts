import type { Deps } from "../../deps.js";
import { defineVerb } from "../verb.js";
import { view } from "./profile.js";

export const verb = defineVerb({
  name: "list",
  description: "List profiles (keys masked)",
  run: (deps) => list(deps),
});

export async function list(deps: Deps): Promise<void> {
  const store = deps.store();
  const rows = store.names().map((n) => view(n, store.get(n)!, n === store.current));
  if (deps.flags.quiet) return deps.out.ids(store.names());
  await deps.out.list(rows, [
    { key: "current", header: " ", display: "mark" },
    { key: "name" },
    { key: "env" },
    { key: "base_url" },
    { key: "user_id" },
    { key: "api_key" },
  ]);
  if (rows.length === 0) deps.msg.info("no profiles yet: rentctl auth login, or try --env sandbox");
}
