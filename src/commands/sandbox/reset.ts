import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import type { Deps } from "../../deps.js";
import { dataFileOf, expectedSandboxError } from "./data.js";

/** `rentctl sandbox reset`: put the data file back to the seed (refused while a server holds it). */
export async function reset(deps: Deps, opts: { data?: string }): Promise<void> {
  const { resetSandboxData } = await import("../../sandbox/server.js");
  const file = dataFileOf(deps, opts);
  await mkdir(dirname(file), { recursive: true });
  await resetSandboxData(file).catch((err: unknown) => {
    throw expectedSandboxError(err, { ...opts, file });
  });
  deps.msg.success(`sandbox data reset to the seed: ${file}`);
}
