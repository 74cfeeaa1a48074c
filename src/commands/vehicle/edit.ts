import { counted } from "../../api/paginate.js";
import { UsageError } from "../../base/errors.js";
import { VEHICLE_CLIENT_FILLED, VEHICLE_FIELDS } from "../../contract/vehicle-fields.js";
import type { Deps } from "../../deps.js";
import { vehicleIds } from "../../ops/handles.js";
import { editVehicle } from "../../ops/vehicle/edit.js";
import { VEHICLE } from "../../resources/resource.js";
import { show } from "../../resources/safe-edit.js";
import { arg, flag } from "../flags.js";
import type { InputSources } from "../input.js";
import { gatherInput, resolveNamedRefs } from "../input.js";
import { printOneEdit } from "../record-output.js";
import { defineVerb } from "../verb.js";
import { hasRelative, vehicleInput, vehicleInputFlags } from "./input-flags.js";
import { edit as editMany } from "./many.js";
import { selectionFlags, wantsJob } from "./selection-flags.js";

export const verb = defineVerb({
  name: "edit",
  description:
    "Change fields of vehicles safely: reads each, applies the change and sends the full record; numbers may be relative (+5, -5, +10%, -10%, *1.1)",
  args: { ids: arg.variadic("vehicle ids or registration numbers (or --where)") },
  flags: {
    replace: flag.bool("--replace", "send exactly the fields given (the API clears the rest; one id only)"),
    clamp: flag.bool(
      "--clamp",
      "a relative result that is no valid value is rounded half up (45 +10% = 49.5 → 50) or set to the range's bound, said per vehicle (default: refuse, nothing sent)",
    ),
    allowDuplicate: flag.bool(
      "--allow-duplicate",
      "give a registration number another vehicle of the account has (default: refuse, exit 2)",
    ),
    add: flag.list(
      "--add <field=value>",
      'add one member to a list field, by id or name, keeping the others (repeat; e.g. --add benefits="Unlimited mileage")',
    ),
    remove: flag.list(
      "--remove <field=value>",
      "remove one member from a list field, by id or name, keeping the others (repeat)",
    ),
    ...vehicleInputFlags,
    ...selectionFlags(),
  },
  examples: [
    "rentctl vehicle edit 1 --price-per-day 55",
    "rentctl vehicle edit 1 --set vehicle_description='Freshly serviced' --dry-run",
    "rentctl vehicle edit 1 --set vehicle_benefits_id=   # clear an array",
    "rentctl vehicle edit --where segment=cars --price-per-day +10% --price-per-week +10% --clamp --dry-run   # rounds half up",
    "rentctl vehicle edit 1 2 --price-per-day -5 --yes",
    "rentctl vehicle edit --where segment=cars --price-per-day -20 --clamp --yes   # never below 0",
    'rentctl vehicle edit --where class=SUV --add benefits="Unlimited mileage" --dry-run',
    'rentctl vehicle edit "B-SC 1001" --remove options=2',
  ],
  run: async (deps, args, opts) => {
    const src = await vehicleInput(deps, opts);
    // Several ids, a selection or a relative value: a change to many vehicles (a plan, then the bulk job).
    // --add / --remove keep each vehicle's other members: computed per vehicle, as relative values are.
    const members = opts.add.length > 0 || opts.remove.length > 0;
    // (--report, --concurrency, --restart: one id too, as `vehicle remove` and `activate` run them)
    if (wantsJob(opts) || args.ids.length !== 1 || hasRelative(src) || members) {
      if (opts.replace)
        throw new UsageError(
          "--replace takes one vehicle id (and no relative values, --add, --remove, --where, --report, --concurrency or --restart)",
        );
      const single = opts.where.length === 0 && !opts.all && args.ids.length === 1;
      return editMany(deps, { ...opts, ids: args.ids, ...src, add: opts.add, remove: opts.remove, single });
    }
    return edit(deps, args.ids[0]!, { ...src, replace: opts.replace, allowDuplicate: opts.allowDuplicate });
  },
});

export interface EditOptions extends InputSources {
  replace?: boolean;
  allowDuplicate?: boolean;
}

export async function edit(deps: Deps, rawId: string, opts: EditOptions): Promise<void> {
  // the checks that need no server first: a mistake is refused before the handle is looked up
  const changes = await gatherInput(deps, VEHICLE_FIELDS, opts, { noun: `vehicle ${rawId}` });
  const id = (await vehicleIds(deps, [rawId]))[0]!;
  for (const k of VEHICLE_CLIENT_FILLED) delete changes[k];
  if (Object.keys(changes).length === 0 && !opts.replace) {
    throw new UsageError("nothing to change: give field flags, --set FIELD=VALUE or --from-file", {
      hint: "example: rentctl vehicle edit 42 --price-per-day 55",
    });
  }
  await resolveNamedRefs(deps, VEHICLE_FIELDS, changes);
  const r = await editVehicle(
    deps,
    { id, changes, replace: opts.replace, allowDuplicate: opts.allowDuplicate, dryRun: deps.flags.dryRun },
    { onProgress: (p) => deps.msg.acting(p.target, p.what) },
  );
  if (!(await printOneEdit(deps, VEHICLE, id, r))) return;
  // A list field given whole replaces the list (--add / --remove change one member): the line shows the list before and after.
  const lists = r.changes
    .filter((c) => VEHICLE_FIELDS.find((f) => f.name === c.field)?.type.endsWith("[]"))
    .map((c) => ` · ${c.field}: ${show(c.before)} → ${show(c.after)}`);
  deps.msg.success(
    `vehicle ${id} updated (${counted(r.changes.length, "fields")} changed)${lists.join("")}${r.undoOp ? ` · undo with: rentctl undo ${r.undoOp}` : ""}`,
  );
}
