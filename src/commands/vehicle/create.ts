import { VEHICLE_CLIENT_FILLED, VEHICLE_EDITABLE_FIELDS, VEHICLE_FIELDS } from "../../contract/vehicle-fields.js";
import type { Deps } from "../../deps.js";
import { UsageError } from "../../errors.js";
import { flag } from "../flags.js";
import type { InputSources } from "../input.js";
import { defineVerb } from "../verb.js";
import { vehicleInput, vehicleInputFlags } from "./input-flags.js";

export const verb = defineVerb({
  name: "create",
  description: "Create a vehicle from flags, --set and/or --from-file; every rule is checked before sending",
  flags: {
    interactive: flag.bool("-i, --interactive", "guided wizard (same as `rentctl vehicle wizard`)"),
    save: flag.string("--save <file>", "with -i: also save the answers as a JSON file for --from-file"),
    fresh: flag.bool("--fresh", "with -i: discard the draft an interrupted wizard kept"),
    allowDuplicate: flag.bool(
      "--allow-duplicate",
      "create it even when the account has a vehicle with this registration number (default: refuse, exit 2)",
    ),
    ...vehicleInputFlags,
  },
  examples: [
    "rentctl vehicle create --from-file car.yaml",
    "rentctl vehicle create --from-file car.json --reg B-XY-123 --price 60",
    "rentctl vehicle create --from-file car.json --set vehicle_benefits_id=1 --set vehicle_benefits_id=3 --dry-run",
    "rentctl vehicle create -i",
  ],
  notes: "\nField flags are the contract's wire names in kebab case;\nuser_id and locale_id come from the profile.\n",
  run: async (deps, _args, opts, host) =>
    opts.interactive
      ? host.wizard(deps, { fromFile: opts.fromFile, save: opts.save, fresh: opts.fresh })
      : create(deps, await vehicleInput(deps, opts), { allowDuplicate: opts.allowDuplicate }),
});

export async function create(deps: Deps, opts: InputSources, o: { allowDuplicate?: boolean } = {}): Promise<void> {
  const [{ printCreated, printCreateDryRun }, { VEHICLE }, { gatherInput, resolveNamedRefs }, { createVehicle }] =
    await Promise.all([
      import("../../resources/create.js"),
      import("../../resources/resource.js"),
      import("../input.js"),
      import("../../ops/vehicle/create.js"),
    ]);
  const values = await gatherInput(deps, VEHICLE_FIELDS, opts, { noun: "vehicle", create: true });
  if (Object.keys(values).every((k) => VEHICLE_CLIENT_FILLED.has(k))) throw nothingToCreate();
  await resolveNamedRefs(deps, VEHICLE_FIELDS, values);
  const r = await createVehicle(
    deps,
    { values, allowDuplicate: o.allowDuplicate, dryRun: deps.flags.dryRun },
    { onProgress: (p) => deps.msg.acting(p.target, p.what), trace: cliTrace(deps) },
  );
  if (r.dryRun) return printCreateDryRun(deps, VEHICLE, r.dryRun.request);
  await printCreated(deps, "vehicle", r);
}

/** --verbose: the lookups after a lost answer, dimmed on stderr. */
export function cliTrace(deps: Deps): ((line: string) => void) | undefined {
  return deps.flags.verbose ? (line) => deps.io.stderr.write(deps.color.dim(`${line}\n`)) : undefined;
}

/** `vehicle create` with nothing given: the fields a vehicle needs, and three ways to give them at once. */
function nothingToCreate(): UsageError {
  const missing = VEHICLE_EDITABLE_FIELDS.filter((f) => f.required === true);
  return new UsageError(`nothing to create: a vehicle needs ${missing.length} fields, none was given`, {
    details: missing.map((f) => ({ field: f.name, message: `is required (${f.description})` })),
    hint: [
      "answer the questions one by one:   rentctl vehicle wizard",
      "start from the shipped example:    rentctl vehicle create --from-file examples/vehicle.yaml",
      "copy a vehicle you have:           rentctl vehicle get ID -o json > car.json  (edit it, then --from-file car.json)",
    ].join("\n      "),
  });
}
