import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import type { Deps } from "../../deps.js";
import { resetSandboxData } from "../../sandbox/server.js";
import { defineVerb } from "../verb.js";
import { dataFileOf, dataFlag, expectedSandboxError } from "./data.js";

export const verb = defineVerb({
  name: "reset",
  description: "Reset the sandbox data file to the seed data",
  flags: { data: dataFlag },
  run: (deps, _args, opts) => reset(deps, opts),
});

/** `rentctl sandbox reset`: put the data file back to the seed (refused while a server holds it). */
export async function reset(deps: Deps, opts: { data?: string }): Promise<void> {
  const file = dataFileOf(deps, opts);
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await resetSandboxData(file).catch((err: unknown) => {
    throw expectedSandboxError(err, { ...opts, file });
  });
  deps.msg.success(`sandbox data reset to the seed: ${file}`);
}
