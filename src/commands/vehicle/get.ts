import type { Deps } from "../../deps.js";
import { vehicleIds } from "../../ops/handles.js";
import { getVehicle } from "../../ops/vehicle/get.js";
import { arg } from "../flags.js";
import { printRecord } from "../resource.js";
import { defineVerb } from "../verb.js";
import { applyView, cardFlags } from "../view-flags.js";

export const verb = defineVerb({
  name: "get",
  aliases: ["show"],
  description: "Show one vehicle",
  args: { id: arg.required("vehicle id or registration number") },
  examples: [
    "rentctl vehicle get 1",
    'rentctl vehicle get "B-SC 1001"',
    "rentctl vehicle get 1 -o json --fields id,vehicle_reg_number",
  ],
  flags: cardFlags(),
  run: (deps, args, opts) => {
    applyView(deps, opts);
    return get(deps, args.id);
  },
});

export async function get(deps: Deps, rawId: string): Promise<void> {
  const id = (await vehicleIds(deps, [rawId]))[0]!;
  await printRecord(deps, "vehicle", id, await getVehicle(deps, { id }));
}
