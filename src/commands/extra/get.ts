import type { Deps } from "../../deps.js";
import { getExtra } from "../../ops/extra/get.js";
import { extraId } from "../../ops/handles.js";
import type { CardSection } from "../../output/card.js";
import { arg } from "../flags.js";
import { printRecord } from "../resource.js";
import { defineVerb } from "../verb.js";
import { applyView, cardFlags } from "../view-flags.js";

export const verb = defineVerb({
  name: "get",
  aliases: ["show"],
  description: "Show one extra",
  args: { id: arg.required("extra id or option name") },
  flags: cardFlags(),
  run: (deps, args, opts) => {
    applyView(deps, opts);
    return get(deps, args.id);
  },
});

/**
 * `extra get ID`: the card, with a `Used by` section naming the vehicles that
 * use the extra (one walk of the account, once the extra is found). In other
 * formats the record stays the server's, and the vehicles are said on stderr.
 */
export async function get(deps: Deps, rawId: string): Promise<void> {
  const id = await extraId(deps, rawId);
  const card = deps.settings().output === "table" && !deps.flags.quiet && !deps.settings().fields;
  const { extra, used_by: users = [] } = await getExtra(deps, { id, usedBy: !deps.flags.quiet });
  await printRecord(deps, "extra", id, extra, card ? [usedBySection(users)] : undefined);
  if (!card && !deps.flags.quiet) deps.msg.info(usedByText(users));
}

/** The card's `Used by` section: a vehicle a line (at most 10), or none. */
export function usedBySection(users: ReadonlyArray<{ id: number; reg: string }>): CardSection {
  const rows = users
    .slice(0, 10)
    .map((u) => ({ label: `vehicle ${u.id}`, value: u.reg || "(no registration number)" }));
  if (users.length > 10) rows.push({ label: "", value: `and ${users.length - 10} more` });
  return { title: "Used by", rows: rows.length ? rows : [{ label: "Vehicles", value: "none" }] };
}

/** `used by 2 vehicles: 1 (B-SC 1001), 4 (M-SC 2002)`, at most 10 named. */
export function usedByText(users: ReadonlyArray<{ id: number; reg: string }>): string {
  if (!users.length) return "used by no vehicle";
  const named = users.slice(0, 10).map((u) => `${u.id}${u.reg ? ` (${u.reg})` : ""}`);
  if (users.length > 10) named.push(`and ${users.length - 10} more`);
  return `used by ${users.length} vehicle${users.length === 1 ? "" : "s"}: ${named.join(", ")}`;
}
