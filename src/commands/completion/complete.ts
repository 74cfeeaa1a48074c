import type { Deps } from "../../deps.js";
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

export async function printValues(deps: Deps, kind: string, args: readonly string[]): Promise<void> {
  const { completionValues } = await import("../../completion/provide.js");
  const values = await completionValues(deps, kind, args);
  if (values.length) await write(deps, `${values.join("\n")}\n`);
}
