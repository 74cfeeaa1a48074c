import { completionValues, lineFlags } from "../../completion/provide.js";
import type { Deps } from "../../deps.js";
import { createDeps } from "../../deps.js";
import { arg, flag } from "../flags.js";
import { defineVerb } from "../verb.js";
import { write } from "./completion.js";

/** `rentctl completion __complete KIND [ARGS…]`: dynamic values for the scripts, one per line. */
export const verb = defineVerb({
  name: "__complete",
  hidden: true,
  description: "Print dynamic completion values, one per line (used by the completion scripts)",
  args: { kind: arg.required("profiles | catalog"), args: arg.variadic() },
  flags: { ids: flag.bool("--ids", "catalog ids instead of names") },
  // A TAB press must not hang: a short bound for the opt-in fetch of a catalog.
  timeout: "3",
  run: (deps, args, opts) => printValues(deps, args.kind, opts.ids ? [...args.args, "--ids"] : args.args),
});

/** The global flags that choose whose values are offered, by their long names on the line. */
const TARGET_FLAGS = { env: "env", profile: "profile", "base-url": "baseUrl", user: "user", locale: "locale" } as const;

/**
 * The deps of the line being completed: `rentctl --env sandbox vehicle get <TAB>`
 * offers the sandbox's vehicles, whatever the shell's environment says. The
 * scripts pass the line's words in RENTCTL_COMPLETE_WORDS.
 */
async function lineDeps(deps: Deps): Promise<{ deps: Deps; close(): Promise<void> }> {
  const line = lineFlags(deps.env.RENTCTL_COMPLETE_WORDS);
  const given = Object.entries(TARGET_FLAGS).filter(([long]) => line.get(long));
  if (!given.length) return { deps, close: async () => {} };
  const flags = { ...deps.flags };
  for (const [long, key] of given) flags[key] = line.get(long);
  const own = createDeps(deps.io, deps.env, flags, { paths: deps.paths });
  return { deps: own, close: () => own.runExitHooks() };
}

export async function printValues(given: Deps, kind: string, args: readonly string[]): Promise<void> {
  const line = await lineDeps(given);
  const deps = line.deps;
  let values: string[];
  try {
    values = await completionValues(deps, kind, args);
  } finally {
    await line.close();
  }
  if (values.length) await write(deps, `${values.join("\n")}\n`);
}
