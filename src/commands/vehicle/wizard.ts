import { flag } from "../flags.js";
import { defineVerb } from "../verb.js";

/** `rentctl vehicle wizard`: the guided create of src/wizard (a layer above this one: run through the host). */
export const verb = defineVerb({
  name: "wizard",
  description: "Create a vehicle with a guided, interactive wizard (needs a terminal)",
  flags: {
    fromFile: flag.string("--from-file <file>", "pre-fill the answers from a JSON or YAML file"),
    save: flag.string("--save <file>", "also save the answers as a JSON file for --from-file"),
    fresh: flag.bool("--fresh", "start afresh: discard the draft an interrupted run kept (Ctrl-C keeps one)"),
    withIds: flag.bool("--with-ids", "saved files keep this account's image ids (left out by default)"),
  },
  examples: ["rentctl vehicle wizard", "rentctl vehicle wizard --fresh --save car.json"],
  notes:
    "\nCtrl-C keeps the answers so far as a draft (one per environment and owner, in the data dir);\nthe next run offers to resume it, --fresh discards it, a created vehicle deletes it. Exit 130.\n",
  run: (deps, _args, opts, host) => host.wizard(deps, opts),
});
