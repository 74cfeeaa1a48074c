import { UsageError } from "../../base/errors.js";
import { EXTRA_FIELDS } from "../../contract/extra-fields.js";
import type { Deps } from "../../deps.js";
import { updateExtra } from "../../ops/extra/update.js";
import { extraId } from "../../ops/handles.js";
import { EXTRA } from "../../resources/safe-edit.js";
import { arg, flag } from "../flags.js";
import type { InputSources } from "../input.js";
import { gatherInput, resolveNamedRefs } from "../input.js";
import { printOneEdit } from "../record-output.js";
import { defineVerb } from "../verb.js";
import { extraInput, extraInputFlags } from "./input-flags.js";

export const verb = defineVerb({
  name: "update",
  description: "Change an extra safely: reads it and sends every member (the API replaces the whole extra)",
  args: { id: arg.required("extra id or option name") },
  flags: { replace: flag.bool("--replace", "send exactly the members given"), ...extraInputFlags },
  examples: ["rentctl extra update 2 --price 12", "rentctl extra update 2 --quantity 4 --dry-run"],
  run: (deps, args, opts) => update(deps, args.id, { ...extraInput(opts), replace: opts.replace }),
});

export async function update(deps: Deps, rawId: string, src: InputSources & { replace?: boolean }): Promise<void> {
  // the checks that need no server first: a mistake is refused before the handle is looked up
  const changes = await gatherInput(deps, EXTRA_FIELDS, src, { noun: `extra ${rawId}` });
  const id = await extraId(deps, rawId);
  delete changes.locale_id;
  if (Object.keys(changes).length === 0) {
    throw new UsageError("nothing to change: give --option, --price, --currency, --period, --quantity or --set", {
      hint: "example: rentctl extra update 7 --price 12",
    });
  }
  await resolveNamedRefs(deps, EXTRA_FIELDS, changes);
  const r = await updateExtra(
    deps,
    { id, changes, replace: src.replace, dryRun: deps.flags.dryRun },
    { onProgress: (p) => deps.msg.acting(p.target, p.what) },
  );
  if (!(await printOneEdit(deps, EXTRA, id, r))) return;
  deps.msg.success(`extra ${id} updated${r.undoOp ? ` · undo with: rentctl undo ${r.undoOp}` : ""}`);
}
