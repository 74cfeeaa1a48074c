import type { JsonObject } from "../../contract/records.js";
import type { Deps } from "../../deps.js";
import { switchExtra as op } from "../../ops/extra/switch.js";
import { extraId } from "../../ops/handles.js";
import { arg } from "../flags.js";
import { quietDryRun } from "../record-output.js";
import { defineVerb } from "../verb.js";

export const verb = defineVerb({
  name: "switch",
  description: "Toggle an extra on or off; prints the resulting state",
  args: { id: arg.required("extra id or option name") },
  run: (deps, args) => switchExtra(deps, args.id),
});

/** A dry run of a one-extra write: the request on stdout, and on stderr the environment and owner it would act on. */
export async function printExtraDryRun(deps: Deps, request: JsonObject, verb: string, id: number): Promise<void> {
  if (await quietDryRun(deps, [id])) return;
  const target = await deps.target();
  await deps.out.record(request);
  const who = target.userId !== undefined ? ` as owner ${target.userId}` : "";
  deps.msg.info(deps.color.dim(`dry run: would ${verb} extra ${id} on ${target.env}${who}; nothing was sent`));
}

export async function switchExtra(deps: Deps, rawId: string): Promise<void> {
  const id = await extraId(deps, rawId);
  const r = await op(deps, { id, dryRun: deps.flags.dryRun }, { onProgress: (p) => deps.msg.acting(p.target, p.what) });
  if (r.dryRun) return printExtraDryRun(deps, r.dryRun.request, "switch", id);
  if (deps.flags.quiet) return deps.out.ids([id]);
  if (deps.settings().output !== "table") {
    await deps.out.record({
      id,
      state: r.state ?? null,
      ...(Object.keys(r.record).length ? { record: r.record } : {}),
    } as JsonObject);
  } else deps.io.stdout.write(`${r.state ?? "switched"}\n`);
  deps.msg.success(`extra ${id} switched${r.state ? ` ${r.state}` : ""}`);
}
