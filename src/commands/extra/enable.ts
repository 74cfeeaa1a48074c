import { NotFoundError } from "../../api/errors.js";
import type { JsonObject } from "../../contract/records.js";
import type { Deps } from "../../deps.js";
import { arg } from "../flags.js";
import { parseId } from "../ids.js";
import { defineVerb } from "../verb.js";
import { dryRunExtra } from "./switch.js";

export const enableVerb = defineVerb({
  name: "enable",
  description: "Turn an extra on (idempotent: reads its state, switches only when it is off)",
  args: { id: arg.required("extra id") },
  examples: ["rentctl extra enable 3"],
  run: (deps, args) => setActive(deps, args.id, true),
});

export const disableVerb = defineVerb({
  name: "disable",
  description: "Turn an extra off (idempotent: reads its state, switches only when it is on)",
  args: { id: arg.required("extra id") },
  examples: ["rentctl extra disable 3"],
  run: (deps, args) => setActive(deps, args.id, false),
});

/** `extra enable / disable ID`: the state wanted, whatever it was; `extra switch` stays the raw toggle. */
export async function setActive(deps: Deps, rawId: string, on: boolean): Promise<void> {
  const id = parseId(rawId, "extra");
  const word = on ? "on" : "off";
  if (deps.flags.dryRun) return dryRunExtra(deps, "extras.switch", `turn ${word}`, id);
  const target = await deps.target();
  deps.msg.acting(target, `turning extra ${id} ${word}`);
  const gateway = await import("../../gateway/index.js");
  const r = await gateway.setExtraActive(deps, id, on, { undo: gateway.OWN_ENTRY });
  if (r.status === "gone") throw new NotFoundError(`extra ${id} not found`);
  if (deps.flags.quiet) return deps.out.ids([id]);
  if (deps.settings().output !== "table")
    await deps.out.record({ id, state: word, switched: r.status === "switched" } as JsonObject);
  else deps.io.stdout.write(`${word}\n`);
  deps.msg.success(
    r.status === "switched" ? `extra ${id} switched ${word}` : `extra ${id} was already ${word}; nothing sent`,
  );
}
