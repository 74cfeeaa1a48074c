import { describeRequest } from "../../api/dry-run.js";
import { isObject, type JsonObject, normalizeRecord, unwrapRecord } from "../../contract/records.js";
import type { Deps } from "../../deps.js";
import { arg } from "../flags.js";
import { parseId } from "../ids.js";
import { defineVerb } from "../verb.js";

export const verb = defineVerb({
  name: "switch",
  description: "Toggle an extra on or off; prints the resulting state",
  args: { id: arg.required("extra id") },
  run: (deps, args) => switchExtra(deps, args.id),
});

/** The state after a switch, when the response carries it (`is_active`, `active`, `status` or `state`). */
export function switchedState(body: unknown): string | undefined {
  const rec = unwrapRecord(body, "extra");
  for (const k of ["is_active", "active", "enabled", "status", "state"]) {
    const v = isObject(rec) ? rec[k] : undefined;
    if (v === undefined || v === null) continue;
    if (v === 1 || v === true || v === "1") return "on";
    if (v === 0 || v === false || v === "0") return "off";
    return String(v);
  }
  return undefined;
}

/** A dry run of a one-extra mutation: the request on stdout, and on stderr the environment and owner it would act on. */
export async function dryRunExtra(deps: Deps, opId: string, verb: string, id: number): Promise<void> {
  const target = await deps.target();
  await deps.out.record(describeRequest(target.baseUrl, opId, { extra_id: id }));
  const who = target.userId !== undefined ? ` as owner ${target.userId}` : "";
  deps.msg.info(deps.color.dim(`dry run: would ${verb} extra ${id} on ${target.env}${who}; nothing was sent`));
}

export async function switchExtra(deps: Deps, rawId: string): Promise<void> {
  const id = parseId(rawId, "extra");
  if (deps.flags.dryRun) return dryRunExtra(deps, "extras.switch", "switch", id);
  const target = await deps.target();
  deps.msg.acting(target, `switching extra ${id}`);
  const { switchExtra: send } = await import("../../gateway/records.js");
  const body = await send(deps, id);
  const state = switchedState(body);
  if (deps.flags.quiet) return deps.out.ids([id]);
  if (deps.settings().output !== "table") {
    const rec = normalizeRecord(unwrapRecord(body, "extra"), "extra");
    await deps.out.record({
      id,
      state: state ?? null,
      ...(Object.keys(rec).length ? { record: rec } : {}),
    } as JsonObject);
  } else deps.io.stdout.write(`${state ?? "switched"}\n`);
  deps.msg.success(`extra ${id} switched${state ? ` ${state}` : ""}`);
}
