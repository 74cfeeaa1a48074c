import type { JsonObject } from "../../contract/records.js";
import type { Deps } from "../../deps.js";
import { setExtraActive } from "../../ops/extra/enable.js";
import { extraId } from "../../ops/handles.js";
import { arg } from "../flags.js";
import { defineVerb } from "../verb.js";
import { printExtraDryRun } from "./switch.js";

/** `extra enable ID` / `extra disable ID`: one verb each, the state they want the only difference. */
function activeVerb(on: boolean) {
  const [name, state, other] = on ? ["enable", "on", "off"] : ["disable", "off", "on"];
  return defineVerb({
    name,
    description: `Turn an extra ${state} (idempotent: reads its state, switches only when it is ${other})`,
    args: { id: arg.required("extra id or option name") },
    examples: [`rentctl extra ${name} 3`],
    run: (deps, args) => setActive(deps, args.id, on),
  });
}

export const enableVerb = activeVerb(true);
export const disableVerb = activeVerb(false);

/** `extra enable / disable ID`: the state wanted, whatever it was; `extra switch` stays the raw toggle. */
export async function setActive(deps: Deps, rawId: string, on: boolean): Promise<void> {
  const id = await extraId(deps, rawId);
  const r = await setExtraActive(
    deps,
    { id, on, dryRun: deps.flags.dryRun },
    { onProgress: (p) => deps.msg.acting(p.target, p.what) },
  );
  const word = r.state;
  if (r.dryRun) return printExtraDryRun(deps, r.dryRun.request, `turn ${word}`, id);
  if (deps.flags.quiet) return deps.out.ids([id]);
  if (deps.settings().output !== "table")
    await deps.out.record({ id, state: word, switched: r.switched } as JsonObject);
  else deps.io.stdout.write(`${word}\n`);
  deps.msg.success(r.switched ? `extra ${id} switched ${word}` : `extra ${id} was already ${word}; nothing sent`);
}
