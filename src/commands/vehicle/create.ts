import { UsageError } from "../../base/errors.js";
import { VEHICLE_CLIENT_FILLED, VEHICLE_EDITABLE_FIELDS, VEHICLE_FIELDS } from "../../contract/vehicle-fields.js";
import type { Deps } from "../../deps.js";
import { createVehicle } from "../../ops/vehicle/create.js";
import { VEHICLE } from "../../resources/resource.js";
import { flag } from "../flags.js";
import type { InputSources } from "../input.js";
import { gatherInput, resolveNamedRefs } from "../input.js";
import { printCreateDryRun, printCreated } from "../record-output.js";
import { defineVerb } from "../verb.js";
import { isCommonField, vehicleInput, vehicleInputFlags } from "./input-flags.js";

export const verb = defineVerb({
  name: "create",
  description: "Create a vehicle from flags, --set and/or --from-file, checked before sending",
  flags: {
    interactive: flag.bool("-i, --interactive", "the guided wizard (`rentctl vehicle wizard`)"),
    save: flag.string("--save <file>", "with -i: also save the answers (JSON)"),
    fresh: flag.bool("--fresh", "with -i: discard an interrupted draft"),
    allowDuplicate: flag.bool(
      "--allow-duplicate",
      "create although a vehicle has this registration number (default: exit 2)",
    ),
    ...vehicleInputFlags,
  },
  examples: ["rentctl vehicle create --from-file examples/vehicle.yaml", "rentctl vehicle create -i"],
  notes: requiredNotes(),
  run: async (deps, _args, opts, host) =>
    opts.interactive
      ? host.wizard(deps, { fromFile: opts.fromFile, save: opts.save, fresh: opts.fresh })
      : create(deps, await vehicleInput(deps, opts), { allowDuplicate: opts.allowDuplicate }),
});

export async function create(deps: Deps, opts: InputSources, o: { allowDuplicate?: boolean } = {}): Promise<void> {
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

/** The fields a create needs (the contract's required fields the caller fills; user_id comes from the profile). */
function requiredFields() {
  return VEHICLE_EDITABLE_FIELDS.filter((f) => f.required === true);
}

/**
 * The help's notes: the required fields that --help shows no flag for (the flags it shows say
 * "[required on create]"), derived from the contract, wrapped to 78 columns.
 */
function requiredNotes(): string {
  const rest = requiredFields()
    .filter((f) => !isCommonField(f.name))
    .map((f) => f.name);
  const lines: string[] = [];
  let line = " ";
  for (const [i, name] of rest.entries()) {
    const word = ` ${name}${i < rest.length - 1 ? "," : ""}`;
    if (line.length + word.length > 78) {
      lines.push(line);
      line = " ";
    }
    line += word;
  }
  lines.push(line);
  return `\nAlso required (as --set FIELD=VALUE, in the file, or flags in --help-all):\n${lines.join("\n")}\n`;
}

/** `vehicle create` with nothing given: the fields a vehicle needs, and three ways to give them at once. */
function nothingToCreate(): UsageError {
  const missing = requiredFields();
  return new UsageError(`nothing to create: a vehicle needs ${missing.length} fields, none was given`, {
    details: missing.map((f) => ({ field: f.name, message: `is required (${f.description})` })),
    hint: [
      "answer the questions one by one:   rentctl vehicle wizard",
      "start from the shipped example:    rentctl vehicle create --from-file examples/vehicle.yaml",
      "copy a vehicle you have:           rentctl vehicle get ID -o json > car.json  (edit it, then --from-file car.json)",
    ].join("\n      "),
  });
}
