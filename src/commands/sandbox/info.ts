import { existsSync, readFileSync } from "node:fs";
import type { JsonObject } from "../../contract/records.js";
import type { Deps } from "../../deps.js";
import { DEMO_OWNERS } from "../../sandbox/server.js";
import { defineVerb } from "../verb.js";
import { dataFileOf, dataFlag, stateFile } from "./data.js";

export const verb = defineVerb({
  name: "info",
  description: "Show the sandbox's data file, running address and demo owners with their keys",
  flags: { data: dataFlag },
  run: (deps, _args, opts) => info(deps, opts),
});

/** `rentctl sandbox info`: the data file, the running address (a server or the embedded sandbox), the demo owners. */

/** The `sandbox serve` process recorded beside `dataFile`, if it still runs. */
function runningServer(dataFile: string): JsonObject | undefined {
  const sf = stateFile(dataFile);
  if (!existsSync(sf)) return undefined;
  try {
    const s = JSON.parse(readFileSync(sf, "utf8")) as JsonObject;
    return typeof s.pid === "number" && isAlive(s.pid) ? s : undefined;
  } catch {
    return undefined; // a stale or broken state file means: not running
  }
}

export async function info(deps: Deps, opts: { data?: string }): Promise<void> {
  const file = dataFileOf(deps, opts);
  const served = runningServer(file);
  let url = typeof served?.url === "string" ? served.url : null;
  let mode = served ? "server" : "stopped";
  const s = deps.settings();
  // With --env sandbox and no address, commands run the embedded sandbox: that is the target, so show it.
  if (!served && !opts.data && s.env === "sandbox" && !s.baseUrl) {
    const target = await deps.target();
    if (target.embeddedSandbox) {
      url = target.baseUrl;
      mode = "embedded";
    }
  }
  const owners = DEMO_OWNERS.map((o) => ({ user_id: o.userId, name: o.name, api_key: o.apiKey }));
  const record: JsonObject = {
    url,
    running: mode !== "stopped",
    mode,
    pid: typeof served?.pid === "number" ? served.pid : mode === "embedded" ? process.pid : null,
    data_file: file,
    data_exists: existsSync(file),
    note:
      mode === "embedded"
        ? "embedded: each rentctl command runs it in-process on the data file (the address changes per command); a local stand-in, not the marketplace"
        : "a local stand-in for the marketplace, not the marketplace",
  };
  if (s.output === "table") {
    // Two readable tables instead of a JSON blob in a cell: the sandbox, then its owners and keys.
    await deps.out.record(record);
    deps.io.stdout.write("\n");
    await deps.out.list(owners, [
      { key: "user_id", header: "USER ID" },
      { key: "name", header: "OWNER" },
      { key: "api_key", header: "API KEY" },
    ]);
    return;
  }
  await deps.out.record({ ...record, owners });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
